import ArgumentParser

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
            Serve.self, Discover.self, List.self, Stat.self, Cat.self, Get.self, Put.self, Find.self, Remove.self, Move.self,
            Copy.self, MakeFolder.self,
        ],
        defaultSubcommand: Serve.self
    )
}

/// The version printed by `--version`.
enum BrowseyVersion {
    static let current = "0.1.0"
}
