internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that readers only ever see the old version or the complete new one: the
/// bytes go to a hidden temporary file in the same folder, which is flushed to disk and then
/// renamed over (or, when not replacing, next to) the destination.
///
/// ```swift
/// let writer = try AtomicFileWriter(destination: "/srv/files/upload.bin")
/// try writer.write(chunk)            // as many times as there are chunks
/// try writer.commit(replacing: false) // 409-style .alreadyExists if the name was taken
/// ```
///
/// A writer that is neither committed nor discarded removes its temporary file when it goes
/// away, so an interrupted upload never leaves a half-written file under the real name.
public final class AtomicFileWriter {
    /// The file the writer will become.
    public let destination: String
    /// The hidden temporary file being written.
    public let temporaryPath: String
    /// The folder both names are in, held open.
    private let folder: OpenFolder
    private let name: String
    private let temporaryName: String
    private var descriptor: Int32
    private let mode: mode_t
    private var finished = false
    /// Bytes written so far.
    public private(set) var bytesWritten: Int64 = 0

    /// Starts a write to `destination` (a symlink there is followed, so the link survives).
    ///
    /// - Parameter permissions: the new file's permissions; by default those of the file being
    ///   replaced, or `0o644` for a new one.
    public convenience init(destination: String, permissions: FilePermissions? = nil) throws(FileTreeError) {
        let target = Self.followingLinks(destination)
        try self.init(
            named: PathText.lastComponent(of: target), in: OpenFolder(path: PathText.parent(of: target)),
            permissions: permissions)
    }

    /// Starts a write to `name` in a folder held open. A symlink called `name` is not followed:
    /// committing replaces the link itself (resolve links first to write through them).
    public init(
        named name: String, in folder: OpenFolder, permissions: FilePermissions? = nil
    ) throws(FileTreeError) {
        self.folder = folder
        self.name = name
        destination = folder.path(of: name)
        let existing = folder.status(of: name)
        if existing?.type == .directory {
            throw FileTreeError(
                .isADirectory, "A folder is in the way", path: folder.path(of: name), errno: EISDIR)
        }
        self.mode =
            permissions.map { mode_t($0.rawValue) } ?? existing.map { mode_t($0.mode & 0o7777) } ?? 0o644
        var attempt = 0
        while true {
            let candidate = SystemCalls.temporaryName(for: name)
            let opened = openat(
                folder.descriptor, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if opened >= 0 {
                descriptor = opened
                temporaryName = candidate
                temporaryPath = folder.path(of: candidate)
                break
            }
            attempt += 1
            if errno != EEXIST || attempt > 8 {
                throw FileTreeError(
                    errno: errno, path: folder.path(of: name), operation: "Creating a temporary file")
            }
        }
    }

    deinit {
        if !finished {
            close(descriptor)
            unlinkat(folder.descriptor, temporaryName, 0)
        }
    }

    /// Appends bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileTreeError) {
        guard !finished else {
            throw FileTreeError(.invalidArgument, "The write is already finished", path: destination)
        }
        var offset = 0
        while offset < bytes.count {
            let result = SystemCalls.write(
                descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                throw FileTreeError(errno: errno, path: destination, operation: "Writing")
            }
            offset += result
        }
        bytesWritten += Int64(bytes.count)
        // Large files: hand each finished stretch to the disk now, so that writing to the disk
        // overlaps with receiving the rest and the final fsync has little left to wait for.
        if bytesWritten - writebackStart >= Self.writebackStretch {
            _ = cft_start_writeback(descriptor, writebackStart, bytesWritten - writebackStart)
            writebackStart = bytesWritten
        }
    }

    /// How many written bytes are handed to the disk at a time.
    static let writebackStretch: Int64 = 8 << 20
    private var writebackStart: Int64 = 0

    /// Appends the bytes of a collection.
    public func write(_ bytes: some Collection<UInt8>) throws(FileTreeError) {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(FileTreeError) in try write(UnsafeRawBufferPointer(buffer)) }
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        try copy.withUnsafeBytes { buffer in
            Result { () throws(FileTreeError) in try write(buffer) }
        }.get()
    }

    /// Flushes the bytes to disk and puts the file in place.
    ///
    /// - Parameters:
    ///   - replacing: replace an existing destination (`true`), or fail with `.alreadyExists`
    ///     and keep it untouched (`false`, the default).
    ///   - durable: flush the file and its folder to disk before and after the rename (the
    ///     default). A cache of what can be made again passes `false`: after a crash it may
    ///     find the file missing or empty, never half of another version.
    /// - Returns: the path written.
    @discardableResult
    public func commit(replacing: Bool = false, durable: Bool = true) throws(FileTreeError) -> String {
        guard !finished else {
            throw FileTreeError(.invalidArgument, "The write is already finished", path: destination)
        }
        finished = true
        defer { close(descriptor) }
        do {
            try SystemCalls.check(fchmod(descriptor, mode), destination, "Setting permissions")
            if durable { try SystemCalls.check(fsync(descriptor), destination, "Flushing to disk") }
            if replacing {
                try SystemCalls.check(
                    renameat(folder.descriptor, temporaryName, folder.descriptor, name), destination,
                    "Replacing")
            } else {
                try FileOperations.renameWithoutReplacing(
                    temporaryName, in: folder, to: name, in: folder, status: nil)
            }
        } catch {
            unlinkat(folder.descriptor, temporaryName, 0)
            throw error
        }
        if durable { folder.sync() }
        return destination
    }

    /// Abandons the write and removes the temporary file.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlinkat(folder.descriptor, temporaryName, 0)
    }

    /// The final target of a chain of symlinks at `path` (the path itself when it is not one).
    private static func followingLinks(_ path: String) -> String {
        var current = PathText.normalize(path, base: DirectoryReader.currentDirectory())
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = PathText.normalize(target, base: PathText.parent(of: current))
        }
        return current
    }
}
