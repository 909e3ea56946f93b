def main() -> None:
    """Print a greeting."""
    print("hello from python")


if __name__ == "__main__":
    main()
