import FileTree

extension SafePath {
    /// The path rules a configuration asks for: its root, hidden names, ignored names and links.
    public init(_ configuration: ServerConfiguration) {
        self.init(
            root: configuration.root, showsHidden: configuration.showsHidden,
            ignored: configuration.ignoredNames.map { NamePattern($0) },
            allowsSymlinks: configuration.allowsSymlinks)
    }
}
