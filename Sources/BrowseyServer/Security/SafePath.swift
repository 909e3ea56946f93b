public import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the `path` a client sends into a path inside the served root, or refuses it, and opens
/// what it names from the root's own descriptor (see ``FileTree/ContainedRoot``).
///
/// Resolving checks the text; opening is what holds: every route reads and writes through a
/// descriptor opened below the root one component at a time, so a folder swapped for a link to
/// elsewhere between the check and the work makes the request fail, never act outside. Reads
/// follow links that stay inside (and, with `--allow-symlinks`, links that lead out); writes
/// never leave the root.
///
/// The rules, in order: a NUL byte is refused; backslashes are separators; an absolute path that
/// starts with the root's own absolute path is taken as the same file (the iOS app sends those);
/// any `..` component is refused; dot-names (unless hidden names are on) and ignored names are
/// treated as missing; and the result, with every symlink resolved, must still lie inside the
/// root unless symlinks are allowed out. Refusals reveal nothing about what lies outside.
public struct SafePath: Sendable {
    /// Why a path was refused.
    public enum Refusal: Error, Sendable, Hashable {
        /// `..`, NUL, or a resolution outside the root: 403 "Access denied: Invalid path".
        case invalid
        /// Hidden or ignored: answered as if it did not exist (404).
        case notFound
    }

    /// A path that passed every rule.
    public struct Resolved: Sendable, Hashable {
        /// The absolute filesystem path.
        public let absolute: String
        /// The path relative to the root, with a leading `/` (`/` for the root itself).
        public let relative: String
    }

    /// The root as configured (absolute, normalized).
    public let root: String
    /// The root with every symlink resolved.
    public let realRoot: String
    /// Whether dot-names are reachable.
    public let showsHidden: Bool
    /// Names that are never reachable.
    public let ignored: [NamePattern]
    /// Whether symlinks may lead out of the root.
    public let allowsSymlinks: Bool
    /// The root held open; `nil` when it could not be opened (then every operation is refused).
    public let contained: ContainedRoot?

    /// Prepares the rules for a root.
    public init(
        root: String, showsHidden: Bool = false, ignored: [NamePattern] = [], allowsSymlinks: Bool = false
    ) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let real =
            realpath(root, &buffer) != nil
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : root
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        realRoot = real
        self.showsHidden = showsHidden
        self.ignored = ignored
        self.allowsSymlinks = allowsSymlinks
        contained = try? ContainedRoot(path: self.root)
    }

    /// The rules for a root already held open (a folder opened inside another root): items are
    /// opened from the folder held, never from the root's name, so a folder swapped for a link
    /// after it was opened does not move the root. Checks made on the text (``resolve(_:)``'s
    /// real path) still go by name: a swap can make one refuse, not reach outside.
    public init(
        holding contained: ContainedRoot, showsHidden: Bool = false, ignored: [NamePattern] = [],
        allowsSymlinks: Bool = false
    ) {
        root =
            contained.path.count > 1 && contained.path.hasSuffix("/")
            ? String(contained.path.dropLast()) : contained.path
        realRoot = contained.realPath
        self.showsHidden = showsHidden
        self.ignored = ignored
        self.allowsSymlinks = allowsSymlinks
        self.contained = contained
    }

    /// Whether a single name may be listed or served.
    public func isVisible(name: some StringProtocol) -> Bool {
        if !showsHidden && FileName.isHidden(name) { return false }
        return !ignored.contains { $0.matches(name) }
    }

    /// Resolves a requested path (already percent-decoded once).
    public func resolve(_ requested: String) throws(Refusal) -> Resolved {
        let resolved = try lexical(requested)
        if !allowsSymlinks, let real = realPath(of: resolved), !Self.isInside(real, realRoot) {
            throw .invalid
        }
        return resolved
    }

    /// Where `resolved` really is, links followed; `nil` when it is not there. A path that spells
    /// with U+FFFD names that are not UTF-8 is looked up below the root, name by name, and a
    /// link that leads out is not read through: where the lookup stops, the part found so far
    /// is what is checked (so a name behind such a link is refused whether it exists or not).
    private func realPath(of resolved: Resolved) -> String? {
        if let real = Self.realPath(resolved.absolute) { return real }
        guard let contained, let (bytes, _) = contained.systemPathPrefix(spelledBy: resolved.relative),
            !bytes.isEmpty
        else { return nil }
        return Self.realPath(
            cString: (Array(root.utf8) + [UInt8(ascii: "/")] + bytes).map { CChar(bitPattern: $0) } + [0])
    }

    /// The rules on the text alone: NUL, `..`, hidden and ignored names, the root's own prefix.
    func lexical(_ requested: String) throws(Refusal) -> Resolved {
        guard !requested.utf8.contains(0) else { throw .invalid }
        var text = String(requested.map { $0 == "\\" ? "/" : $0 })
        for prefix in [root, realRoot] where prefix != "/" {
            if text == prefix {
                text = "/"
                break
            }
            if text.hasPrefix(prefix + "/") {
                text = String(text.dropFirst(prefix.count))
                break
            }
        }
        var components: [Substring] = []
        for component in text.split(separator: "/", omittingEmptySubsequences: true) {
            if component == ".." { throw .invalid }
            if component == "." { continue }
            if !isVisible(name: component) { throw .notFound }
            components.append(component)
        }
        let relative = "/" + components.joined(separator: "/")
        let absolute = components.isEmpty ? root : (root == "/" ? "" : root) + relative
        return Resolved(absolute: absolute, relative: relative)
    }

    /// Resolves a path that a write changes or creates: the rules of ``resolve(_:)`` on the text
    /// (a link's target is not checked here: renaming or deleting an outward link touches only
    /// the link). The root itself is refused (it cannot be renamed, moved, deleted or created).
    /// Where the write lands is held by ``parent(forWriting:)`` and ``finalTarget(forWriting:)``.
    public func resolveForWriting(_ requested: String) throws(Refusal) -> Resolved {
        let resolved = try lexical(requested)
        guard resolved.relative != "/" else { throw .invalid }
        return resolved
    }

    // MARK: Opening below the root

    /// The file `resolved` names, opened for reading (`O_NONBLOCK`, so a FIFO never holds a
    /// request). Links that stay inside are followed; with `--allow-symlinks`, links that lead
    /// out too. The caller closes the descriptor.
    public func openForReading(_ resolved: Resolved) throws(FileTreeError) -> Int32 {
        do {
            return try containedRoot().open(resolved.relative, flags: O_RDONLY | O_NONBLOCK)
        } catch  where error.code == .outsideRoot && allowsSymlinks {
            let descriptor = open(resolved.absolute, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw FileTreeError(errno: errno, path: resolved.relative) }
            return descriptor
        }
    }

    /// The folder `resolved` names, held open for reading (links followed as in
    /// ``openForReading(_:)``).
    public func folder(_ resolved: Resolved) throws(FileTreeError) -> OpenFolder {
        do {
            return try containedRoot().openFolder(resolved.relative)
        } catch  where error.code == .outsideRoot && allowsSymlinks {
            return try OpenFolder(path: resolved.absolute)
        }
    }

    /// The folder `resolved` names, held open for a write into it: it lies inside the root,
    /// whatever `--allow-symlinks` says.
    public func folder(forWriting resolved: Resolved) throws(FileTreeError) -> OpenFolder {
        try containedRoot().openFolder(resolved.relative)
    }

    /// The folder that holds `resolved`, held open inside the root, and the name in it: what a
    /// rename, a move, a delete or a new folder acts on (a link there is the link itself).
    public func parent(
        forWriting resolved: Resolved
    ) throws(FileTreeError) -> (folder: OpenFolder, name: String) {
        try containedRoot().parent(of: resolved.relative)
    }

    /// Where a write to `resolved` lands when it goes through links (a save, an upload over an
    /// existing name): the last link's target, which must lie inside the root.
    public func finalTarget(
        forWriting resolved: Resolved
    ) throws(FileTreeError) -> (folder: OpenFolder, name: String) {
        try containedRoot().finalTarget(of: resolved.relative)
    }

    private func containedRoot() throws(FileTreeError) -> ContainedRoot {
        guard let contained else {
            throw FileTreeError(.notFound, "The served folder cannot be opened", path: root)
        }
        return contained
    }

    /// The path relative to the root for an absolute path inside it, `nil` outside.
    public func relativePath(of absolute: String) -> String? {
        for prefix in [root, realRoot] {
            if absolute == prefix { return "/" }
            if prefix == "/" { return absolute }
            if absolute.hasPrefix(prefix + "/") { return String(absolute.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// Whether a link's target may be shown: it lies inside the root by text and, when it
    /// exists, once resolved; or symlinks are allowed out. A target outside is never revealed.
    public func mayReveal(_ link: SymlinkInfo) -> Bool {
        allowsSymlinks || (relativePath(of: link.resolvedPath) != nil && staysInside(link.resolvedPath))
    }

    /// Whether following links from `absolute` stays inside the root (always, when allowed).
    public func staysInside(_ absolute: String) -> Bool {
        allowsSymlinks || Self.realPath(absolute).map { Self.isInside($0, realRoot) } ?? true
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    static func realPath(_ path: String) -> String? {
        realPath(cString: Array(path.utf8CString))
    }

    /// ``realPath(_:)`` of a path given as a C string (its bytes need not be UTF-8).
    private static func realPath(cString path: [CChar]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
