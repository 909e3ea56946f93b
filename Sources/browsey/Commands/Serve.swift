import ArgumentParser
import FileTree

/// `browsey serve [PATH]`: serve a folder over HTTP.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a folder to browsers and Browsey clients.",
        discussion: """
            The HTTP server is not built yet: for now this checks that the folder can be read and \
            says what it would serve.
            """
    )

    @Argument(help: "The folder to serve (default: the current folder).", completion: .directory)
    var path: String = "."

    @Flag(help: "Include hidden (dot) names.")
    var hidden = false

    func run() async throws {
        let reader = DirectoryReader(filter: hidden ? .all : .visible)
        let folder: FileNode
        do {
            folder = try await reader.read(at: path)
        } catch {
            throw CommandFailure("Cannot serve \(path): \(error.message)")
        }
        print("Browsey would serve \(folder.entry.path) (\(folder.entries.count) items at the top).")
        print("The HTTP server is not built yet; nothing is listening.")
    }
}
