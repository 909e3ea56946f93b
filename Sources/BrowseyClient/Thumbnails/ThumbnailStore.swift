import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thumbnails a client has fetched: in memory (least recently used dropped past a byte limit)
/// and, when given a folder, on disk, so a grid shown again costs nothing and an app started
/// again shows its pictures before the network answers. Each entry keeps its ETag: after
/// ``freshFor`` the client asks again with `If-None-Match`, and a 304 costs a few hundred bytes.
public final class ThumbnailStore: Sendable {
    private struct Memory {
        var entries: [String: ThumbnailImage] = [:]
        var order: [String] = []
        var bytes = 0
    }

    /// The most the pictures in memory may take.
    public let memoryLimit: Int
    /// Where pictures are kept on disk (one file each); `nil`: memory only.
    public let folder: String?
    /// How long a thumbnail is used without asking the server again (the server's own
    /// `max-age`, five minutes).
    public let freshFor: Duration
    private let memory = Mutex(Memory())

    /// A store of at most `memoryLimit` bytes in memory, and on disk in `folder` when given.
    public init(memoryLimit: Int = 32 << 20, folder: String? = nil, freshFor: Duration = .seconds(300)) {
        self.memoryLimit = memoryLimit
        self.folder = folder
        self.freshFor = freshFor
        if let folder { mkdir(folder, 0o700) }
    }

    /// The thumbnail kept for `key`, from memory or disk.
    public func thumbnail(for key: String) -> ThumbnailImage? {
        if let image = memory.withLock({ memory -> ThumbnailImage? in
            guard let image = memory.entries[key] else { return nil }
            memory.order.removeAll { $0 == key }
            memory.order.append(key)
            return image
        }) {
            return image
        }
        guard let image = readFile(key) else { return nil }
        remember(image, for: key, toDisk: false)
        return image
    }

    /// Keeps `image` for `key`.
    public func store(_ image: ThumbnailImage, for key: String) {
        remember(image, for: key, toDisk: true)
    }

    /// Whether `image` was confirmed by the server recently enough to use without asking.
    public func isFresh(_ image: ThumbnailImage, now: Date = Date()) -> Bool {
        let age = now.timeIntervalSince(image.checked)
        let limit = Double(freshFor.components.seconds) + Double(freshFor.components.attoseconds) / 1e18
        return age >= 0 && age < limit
    }

    /// How many thumbnails are in memory.
    public var count: Int { memory.withLock { $0.entries.count } }

    private func remember(_ image: ThumbnailImage, for key: String, toDisk: Bool) {
        memory.withLock { memory in
            if let old = memory.entries.updateValue(image, forKey: key) {
                memory.bytes -= old.bytes.count
                memory.order.removeAll { $0 == key }
            }
            memory.order.append(key)
            memory.bytes += image.bytes.count
            while memory.bytes > memoryLimit, memory.order.count > 1 {
                let oldest = memory.order.removeFirst()
                if let dropped = memory.entries.removeValue(forKey: oldest) {
                    memory.bytes -= dropped.bytes.count
                }
            }
        }
        if toDisk { writeFile(image, for: key) }
    }

    // MARK: Disk

    /// A file per key: a header line (`etag width height checked-seconds`) and the JPEG.
    private func file(_ key: String) -> String? {
        guard let folder else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return folder + "/" + String(hash, radix: 16) + ".thumb"
    }

    private func writeFile(_ image: ThumbnailImage, for key: String) {
        guard let path = file(key) else { return }
        let header = [
            image.etag ?? "-", image.width.map(String.init) ?? "-", image.height.map(String.init) ?? "-",
            String(Int(image.checked.timeIntervalSince1970)), key,
        ].joined(separator: "\t")
        let bytes = Array(header.utf8) + [0x0A] + image.bytes
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, bytes.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            written += count
        }
        close(descriptor)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
    }

    private func readFile(_ key: String) -> ThumbnailImage? {
        guard let path = file(key), let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(
            separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 5, String(fields[4]) == key, let seconds = Double(fields[3]) else { return nil }
        return ThumbnailImage(
            bytes: Array(bytes[(newline + 1)...]), etag: fields[0] == "-" ? nil : String(fields[0]),
            width: Int(fields[1]), height: Int(fields[2]), checked: Date(timeIntervalSince1970: seconds))
    }
}
