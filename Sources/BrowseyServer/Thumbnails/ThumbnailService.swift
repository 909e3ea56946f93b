import FileTree
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Thumbnails

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thumbnails for the server: from the disk cache when they are there, otherwise made once
/// (however many requests ask at the same time) on a small pool of decoding threads, off the
/// event loops, and cached.
final class ThumbnailService: Sendable {
    /// A thumbnail as cached: the encoded picture and the size of the picture it shows.
    struct Stored: Sendable, Equatable {
        var bytes: [UInt8]
        var sourceWidth: Int?
        var sourceHeight: Int?

        /// How ``bytes`` is encoded, from its first bytes (a WebP is a RIFF file).
        var encoding: ThumbnailEncoding {
            bytes.starts(with: "RIFF".utf8) ? .webp : .jpeg
        }

        /// The cache file: `BTH1`, the source's width and height (0: unknown), then the picture.
        var file: [UInt8] {
            var bytes: [UInt8] = Array("BTH1".utf8)
            for value in [sourceWidth ?? 0, sourceHeight ?? 0] {
                let number = UInt32(clamping: value)
                bytes += [
                    UInt8(number & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number >> 16 & 0xFF),
                    UInt8(number >> 24),
                ]
            }
            return bytes + self.bytes
        }

        init(bytes: [UInt8], sourceWidth: Int?, sourceHeight: Int?) {
            self.bytes = bytes
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
        }

        /// A cache file read back; `nil` when it is not one.
        init?(file bytes: [UInt8]) {
            guard bytes.count > 12, bytes[0..<4].elementsEqual("BTH1".utf8) else { return nil }
            func number(_ at: Int) -> Int? {
                let value =
                    Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3])
                    << 24
                return value == 0 ? nil : value
            }
            self.init(bytes: Array(bytes[12...]), sourceWidth: number(4), sourceHeight: number(8))
        }
    }

    /// What makes the thumbnails.
    let thumbnailer: Thumbnailer
    /// The disk cache; `nil` when there is nowhere to keep one.
    let cache: ThumbnailCache?
    /// Lower-cased extensions a listing marks with `"thumbnail": true`.
    let extensions: Set<String>
    private let flights = SingleFlight<String, Stored>()
    private let limiter: DecodeLimiter
    private let decodeCount = Atomic(0)
    /// Keys that failed, with why (bounded): a broken picture is not decoded again and again.
    private let failures = Mutex<[String: ThumbnailError]>([:])
    /// What `ffprobe` said of each video version asked about (bounded; `nil`: it found nothing).
    private let videoDetails = Mutex<[String: VideoDetails?]>([:])

    /// The threads decodes run on, shared by every server in the process: one per core.
    static let decodingThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// A service making thumbnails with `thumbnailer`, caching them in `cache`, at most
    /// `concurrentDecodes` at once.
    init(thumbnailer: Thumbnailer, cache: ThumbnailCache?, concurrentDecodes: Int = System.coreCount) {
        self.thumbnailer = thumbnailer
        self.cache = cache
        extensions = thumbnailer.extensions
        limiter = DecodeLimiter(permits: min(concurrentDecodes, System.coreCount))
    }

    /// How many decodes have run (each cache miss that reached a decoder).
    var decodes: Int { decodeCount.load(ordering: .relaxed) }

    /// The cache key of a picture's version in a size class and encoding: its device, inode,
    /// size and nanosecond mtime, the class, the encoder's version and `webp` for a WebP. Also
    /// the ETag's source.
    static func key(_ status: FileStatus, sizeClass: Int, encoding: ThumbnailEncoding = .jpeg) -> String {
        let nanos = Int64(status.modified.seconds) * 1_000_000_000 + Int64(status.modified.nanoseconds)
        let parts = [
            String(status.device, radix: 16), String(status.inode, radix: 16), String(status.size, radix: 16),
            String(nanos, radix: 16), String(sizeClass), "v" + String(Thumbnailer.encoderVersion),
        ]
        return (encoding == .jpeg ? parts : parts + [encoding.rawValue]).joined(separator: "-")
    }

    /// The encoding the web UI's grid asks for (it always accepts WebP): what is made ahead.
    static var gridEncoding: ThumbnailEncoding { ThumbnailEncoding.webp.isAvailable ? .webp : .jpeg }

    /// The thumbnail of the open picture `descriptor` (kept open by the caller until this
    /// returns) of class `sizeClass` encoded as `encoding`, cached under `key`.
    func thumbnail(
        key: String, descriptor: Int32, name: String, path: String, sizeClass: Int,
        encoding: ThumbnailEncoding = .jpeg
    ) async throws -> Stored {
        if let bytes = cache?.read(key), let stored = Stored(file: bytes) { return stored }
        if let failure = failures.withLock({ $0[key] }) { throw failure }
        return try await flights.value(for: key) { [self] in
            try await limiter.acquire()
            defer { limiter.release() }
            try Task.checkCancellation()
            if let bytes = cache?.read(key), let stored = Stored(file: bytes) { return stored }
            let thumbnailer = self.thumbnailer
            let result: Result<Thumbnail, ThumbnailError> = try await Self.decodingThreads.runIfActive {
                [self] in
                self.decodeCount.add(1, ordering: .relaxed)
                return Result { () throws(ThumbnailError) in
                    try thumbnailer.thumbnail(
                        ofFile: descriptor, name: name, longest: sizeClass, encoding: encoding)
                }
            }
            switch result {
            case .success(let thumbnail):
                let stored = Stored(
                    bytes: thumbnail.encoded, sourceWidth: thumbnail.sourceWidth,
                    sourceHeight: thumbnail.sourceHeight)
                cache?.store(stored.file, for: key, path: path)
                return stored
            case .failure(let error):
                if error.code != .outOfMemory {
                    failures.withLock { failures in
                        if failures.count >= 4096 { failures.removeAll() }
                        failures[key] = error
                    }
                }
                throw error
            }
        }
    }

    /// The duration and shown size of the open video `descriptor` (kept open by the caller
    /// until this returns), probed once a version on the decoding threads, within the same
    /// bound as decodes; `nil` without `ffprobe`, or when it finds no video in the file (which
    /// is remembered as well).
    func videoDetails(descriptor: Int32, status: FileStatus) async -> VideoDetails? {
        guard thumbnailer.posters.ffprobe != nil, status.type == .regular else { return nil }
        let key = Self.key(status, sizeClass: 0)
        if let known = videoDetails.withLock({ $0[key] }) { return known }
        do {
            try await limiter.acquire()
        } catch {
            return nil
        }
        defer { limiter.release() }
        let thumbnailer = self.thumbnailer
        let details: VideoDetails?
        do {
            details = try await Self.decodingThreads.runIfActive {
                try? thumbnailer.videoDetails(ofFile: descriptor)
            }
        } catch {
            return nil  // cancelled or shutting down: nothing learned about the file
        }
        // A file ffprobe could not read is remembered too: asking again would only run it again.
        videoDetails.withLock { known in
            if known.count >= 4096 { known.removeAll() }
            known[key] = .some(details)
        }
        return details
    }

    /// Returns once no decode is running or waiting, looking again every 50 ms: work done ahead
    /// of requests (``ThumbnailPregeneration``) goes only when requests leave the decoders free.
    func waitUntilIdle() async {
        while !limiter.isIdle && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Makes and caches the thumbnail of class `sizeClass` of the picture at the absolute
    /// `path`, opened as `relative` below `root` (nothing outside it is reached, and a symlink
    /// is not followed), in the grid's encoding, unless it is cached or failed before; whether
    /// one was made.
    func pregenerate(
        path: String, opening relative: String, in root: ContainedRoot, sizeClass: Int
    ) async throws -> Bool {
        guard let cache,
            let descriptor = try? root.open(relative, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        else { return false }
        defer { close(descriptor) }
        guard let status = try? FileStatus(descriptor: descriptor), status.type == .regular else {
            return false
        }
        let key = Self.key(status, sizeClass: sizeClass, encoding: Self.gridEncoding)
        guard !cache.contains(key), failures.withLock({ $0[key] }) == nil else { return false }
        _ = try await thumbnail(
            key: key, descriptor: descriptor, name: FileName.lastComponent(of: path), path: path,
            sizeClass: sizeClass, encoding: Self.gridEncoding)
        return true
    }

    /// Forgets what was made of the picture at `path` (and below it): the watcher saw it change.
    func invalidate(_ path: String) {
        cache?.invalidate(path)
    }
}
