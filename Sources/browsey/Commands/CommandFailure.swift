/// A failure the CLI reports as one line, `Error: …`, with exit status 1 (no usage text: the
/// command was typed right, the world was not).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
