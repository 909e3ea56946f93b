/// An entry and, for a folder that was read, its children: what ``DirectoryReader`` returns.
///
/// A node is a `Sequence` of every entry below it, depth first, parents before children: for a
/// shallow read that is the folder's contents, for a deep read the whole tree.
///
/// ```swift
/// let tree = try DirectoryReader().read(at: "/srv/files", depth: .deep)
/// let swiftFiles = tree.filter { $0.contentType.conforms(to: .swiftSource) }
/// let total = tree.reduce(0) { $0 + $1.size }
/// for problem in tree.errors { print(problem) }
/// ```
public struct FileNode: Sendable, Sequence {
    /// The item itself.
    public var entry: FileEntry
    /// The folder's children when it was read; `nil` for files, links, packages, folders beyond
    /// the read's depth, and folders that could not be read.
    public var children: [FileNode]?
    /// Why this folder could not be read (or read completely), if it could not.
    public var readError: FileTreeError? {
        get { readErrorBox?.value }
        set { readErrorBox = newValue.map(Boxed.init) }
    }
    private var readErrorBox: Boxed<FileTreeError>?

    /// Makes a node.
    public init(entry: FileEntry, children: [FileNode]? = nil, readError: FileTreeError? = nil) {
        self.entry = entry
        self.children = children
        self.readErrorBox = readError.map(Boxed.init)
    }

    /// The entries of the direct children (empty when none were read).
    public var entries: [FileEntry] { children?.map(\.entry) ?? [] }

    /// The direct child with this exact name.
    public func child(named name: String) -> FileNode? {
        children?.first { $0.entry.name == name }
    }

    /// The node at a path relative to this one (`"docs/notes"`), if it was read.
    public func node(atRelativePath relativePath: String) -> FileNode? {
        var node = self
        for component in relativePath.split(separator: "/") where component != "." {
            guard let next = node.child(named: String(component)) else { return nil }
            node = next
        }
        return node
    }

    /// How many entries lie below this node.
    public var descendantCount: Int {
        (children ?? []).reduce(0) { $0 + 1 + $1.descendantCount }
    }

    /// Every problem met below and at this node: unreadable folders and entries whose metadata
    /// could not be read.
    public var errors: [FileTreeError] {
        var found: [FileTreeError] = []
        collectErrors(into: &found)
        return found
    }

    private func collectErrors(into found: inout [FileTreeError]) {
        if let readError { found.append(readError) }
        for child in children ?? [] {
            if let error = child.entry.error { found.append(error) }
            child.collectErrors(into: &found)
        }
    }

    /// The same tree keeping only the entries `isIncluded` accepts; a folder left out takes its
    /// contents with it.
    public func filtered(_ isIncluded: (FileEntry) throws -> Bool) rethrows -> FileNode {
        var copy = self
        if let children {
            copy.children = try children.filter { try isIncluded($0.entry) }.map {
                try $0.filtered(isIncluded)
            }
        }
        return copy
    }

    /// The same tree with every folder's children in `order`.
    public func sorted(by order: EntryOrder) -> FileNode {
        var copy = self
        copy.sort(by: order)
        return copy
    }

    /// Sorts every folder's children in `order`.
    public mutating func sort(by order: EntryOrder) {
        guard var children else { return }
        let indices = order.sortedIndices(of: children.map(\.entry))
        children = indices.map { children[$0] }
        for index in children.indices { children[index].sort(by: order) }
        self.children = children
    }

    /// Iterates every entry below this node, depth first.
    public func makeIterator() -> Iterator { Iterator(root: self) }

    /// A depth-first walk over a node's descendants.
    public struct Iterator: IteratorProtocol {
        private var stack: [(nodes: [FileNode], index: Int)]

        init(root: FileNode) { stack = [(root.children ?? [], 0)] }

        /// The next entry, parents before their children.
        public mutating func next() -> FileEntry? {
            while let top = stack.last {
                if top.index >= top.nodes.count {
                    stack.removeLast()
                    continue
                }
                let node = top.nodes[top.index]
                stack[stack.count - 1].index += 1
                if let children = node.children, !children.isEmpty { stack.append((children, 0)) }
                return node.entry
            }
            return nil
        }
    }

    /// The number of entries below, without walking twice.
    public var underestimatedCount: Int { children?.count ?? 0 }
}
