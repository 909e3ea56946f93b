#!/usr/bin/env python3
"""Builds a benchmark tree: FILES files spread over three levels of folders, with a mix of
extensions, sizes and a few awkward names. Reused when it already holds the right count."""
import os
import sys

EXTENSIONS = ["txt", "md", "swift", "json", "png", "jpg", "log", "py", "html", "bin"]


def make_tree(root: str, files: int) -> None:
    marker = os.path.join(root, ".complete-%d" % files)
    if os.path.exists(marker):
        return
    per_leaf = 100
    leaves = max(1, files // per_leaf)
    made = 0
    leaf = 0
    while made < files:
        a, b, c = leaf // 100, (leaf // 10) % 10, leaf % 10
        folder = os.path.join(root, "group %02d" % a, "set-%d" % b, "leaf_%d" % c)
        os.makedirs(folder, exist_ok=True)
        for i in range(min(per_leaf, files - made)):
            ext = EXTENSIONS[(leaf + i) % len(EXTENSIONS)]
            name = "file %04d #%d.%s" % (i, leaf, ext) if i % 17 else "caf\u00e9 %d.%s" % (i, ext)
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(b"x" * ((i * 37) % 4096))
            made += 1
        leaf += 1
    open(marker, "w").close()


if __name__ == "__main__":
    make_tree(sys.argv[1], int(sys.argv[2]))
