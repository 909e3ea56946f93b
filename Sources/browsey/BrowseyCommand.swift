import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `browsey`: serve a folder to your other devices, or reach a Browsey server from the terminal.
@main
struct BrowseyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browsey",
        abstract: "Reach and manage your files from any device.",
        discussion: """
            `browsey ~/Documents` serves a folder (read-only unless --no-readonly) to browsers, \
            the Browsey apps and the browsey client on the same network.
            """,
        version: BrowseyVersion.current,
        subcommands: [
            Serve.self, Discover.self, List.self, Stat.self, Cat.self, Get.self, Put.self, Find.self,
            Grep.self,
            Remove.self, Move.self,
            Copy.self, MakeFolder.self, Passwd.self, Login.self, ShareLink.self, Shares.self, Unshare.self,
            Git.self, Sync.self, Pair.self, Instances.self, Stop.self,
        ],
        defaultSubcommand: Serve.self
    )

    /// Runs the command, like ArgumentParser's own `main()`, except that bad usage exits with
    /// status 2 (as `grep`, `curl` and the client commands' documented statuses have it) rather
    /// than 64.
    static func main() async {
        // The allocator's settings come first, while this is the only thread that allocates:
        // a thread that has allocated keeps the arena it got (see MemoryTuning).
        MemoryTuning.apply()
        #if canImport(Glibc)
            // Avahi's Bonjour compatibility layer (loaded by `serve` and `discover`) warns every
            // program that uses it unless this is set. Set here, before any other thread works:
            // `setenv` while another thread spawns a process can crash it.
            setenv("AVAHI_COMPAT_NOWARN", "1", 0)
        #endif
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandleText.standardError(fullMessage(for: error) + "\n")
            exit(withError: ExitCode(2))
        }
    }
}

/// The version printed by `--version`.
enum BrowseyVersion {
    static let current = "0.1.0"
}
