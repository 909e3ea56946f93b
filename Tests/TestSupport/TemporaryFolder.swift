public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of its own under the system's temporary folder for one test, removed (permissions
/// restored first) when the value goes away. Paths given to its methods are relative to it.
///
/// ```swift
/// let folder = try TemporaryFolder()
/// try folder.file("docs/read me.md", "# Hello")
/// try folder.symlink("latest", to: "docs")
/// ```
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path (symlinks in the temporary folder's own path resolved).
    public let path: String

    /// Makes a new, empty folder, readable by everyone so that tests running as another user or
    /// without privileges can reach inside.
    ///
    /// - Parameter inMemory: make it in RAM (`/dev/shm`, where `fsync` costs nothing) when the
    ///   system has one: for tests that write and flush in a loop, whose disk traffic would
    ///   otherwise stall every other test's file creation behind the file system's journal.
    public init(prefix: String = "browsey-test", inMemory: Bool = false) throws {
        let shared = "/dev/shm"
        let base =
            inMemory && access(shared, W_OK) == 0
            ? shared
            : ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupportError("mkdtemp failed: errno \(errno)") }
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let chosen = realpath(made, &resolved) != nil ? resolved : Array(template)
        path = String(decoding: chosen.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
    }

    deinit {
        Self.makeRemovable(path)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The absolute path of `relative`.
    public func path(_ relative: String) -> String {
        relative.isEmpty ? path : path + "/" + relative
    }

    /// The file URL of `relative`.
    public func url(_ relative: String) -> URL { URL(fileURLWithPath: path(relative)) }

    /// Writes a file (and the folders above it) with these bytes; returns its path.
    @discardableResult
    public func file(
        _ relative: String, _ contents: some Collection<UInt8>, mode: mode_t = 0o644
    ) throws -> String {
        let target = path(relative)
        try ensureParent(of: target)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw TestSupportError("cannot create \(target): errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array(contents)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 else { throw TestSupportError("cannot write \(target): errno \(errno)") }
            written += result
        }
        return target
    }

    /// Writes a text file (UTF-8); returns its path.
    @discardableResult
    public func file(_ relative: String, _ text: String = "", mode: mode_t = 0o644) throws -> String {
        try file(relative, Array(text.utf8), mode: mode)
    }

    /// Makes a folder (and those above it); returns its path.
    @discardableResult
    public func folder(_ relative: String, mode: mode_t = 0o755) throws -> String {
        let target = path(relative)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        chmod(target, mode)
        return target
    }

    /// Makes a file with `contents`, or a folder when there are none, at `relative` given as
    /// bytes: for names that are not valid UTF-8, as another system's encoding (Latin-1 `é` is
    /// the byte E9) leaves them. The folders above must exist.
    public func make(systemPath relative: [UInt8], contents: [UInt8]? = nil) throws {
        let cPath = (Array(path.utf8) + [UInt8(ascii: "/")] + relative).map { CChar(bitPattern: $0) } + [0]
        guard let contents else {
            guard mkdir(cPath, 0o755) == 0 else { throw TestSupportError("mkdir: errno \(errno)") }
            return
        }
        let descriptor = open(cPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestSupportError("cannot create: errno \(errno)") }
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw TestSupportError("cannot write: errno \(errno)") }
    }

    /// Makes a symbolic link at `relative` whose target is `target`, stored exactly as given.
    @discardableResult
    public func symlink(_ relative: String, to target: String) throws -> String {
        let link = path(relative)
        try ensureParent(of: link)
        guard Glibc.symlink(target, link) == 0 else {
            throw TestSupportError("symlink \(link): errno \(errno)")
        }
        return link
    }

    /// Sets a path's permission bits.
    public func setMode(_ relative: String, _ mode: mode_t) throws {
        guard chmod(path(relative), mode) == 0 else { throw TestSupportError("chmod: errno \(errno)") }
    }

    /// Whether something (even a broken link) exists at `relative`.
    public func exists(_ relative: String) -> Bool {
        var status = stat()
        return lstat(path(relative), &status) == 0
    }

    /// The bytes of a file.
    public func contents(_ relative: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw TestSupportError("cannot read \(relative)")
        }
        return Array(data)
    }

    /// The text of a file.
    public func text(_ relative: String) throws -> String {
        String(decoding: try contents(relative), as: UTF8.self)
    }

    /// The names in a folder, sorted by bytes.
    public func names(in relative: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted()
    }

    private func ensureParent(of target: String) throws {
        let parent = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }

    /// Gives the owner full access to every folder below `root`, so it can be removed.
    private static func makeRemovable(_ root: String) {
        chmod(root, 0o755)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for name in names {
            let child = root + "/" + name
            var status = stat()
            if lstat(child, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { makeRemovable(child) }
        }
    }
}

/// A failure of the test fixtures themselves.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Makes an error.
    public init(_ description: String) { self.description = description }
}
