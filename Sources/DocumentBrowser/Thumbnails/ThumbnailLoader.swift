import FileTree
import Synchronization

/// Loads and caches the documents' thumbnails: a package document's own PNG (the library's
/// ``DocumentLibrary/thumbnailName``), read off the main actor; otherwise the host's generator,
/// or by default a thumbnail made by the Thumbnails module when the document is a picture.
///
/// ```swift
/// // in a cell:
/// .task(id: item) { thumbnail = await model.thumbnails.thumbnail(for: item) }
/// ```
///
/// A cell that goes away cancels its task: the read or the generator stops, and nothing is
/// cached. A cached picture is used while the document's date is unchanged.
public final class ThumbnailLoader: Sendable {
    private struct Cache {
        var pictures: [DocumentItem.ID: DocumentThumbnail] = [:]
        var order: [DocumentItem.ID] = []
    }

    private let library: DocumentLibrary
    private let generator: ThumbnailGenerator?
    private let capacity: Int
    private let cache = Mutex(Cache())
    private let loads = Mutex(0)

    /// A loader keeping up to `capacity` pictures. Without a `generator`, documents that are
    /// pictures themselves get one made by the Thumbnails module (``pictureGenerator(longest:thumbnailer:)``).
    public init(library: DocumentLibrary, generator: ThumbnailGenerator? = nil, capacity: Int = 500) {
        self.library = library
        self.generator = generator ?? Self.pictureGenerator()
        self.capacity = max(1, capacity)
    }

    /// The document's thumbnail: from the cache when it is as new as the document, else read or
    /// generated now. `nil` when there is none, it cannot be read, or the task was cancelled.
    public func thumbnail(for item: DocumentItem) async -> DocumentThumbnail? {
        guard item.kind == .document else { return nil }
        if let cached = cachedThumbnail(for: item) { return cached }
        guard !Task.isCancelled else { return nil }
        loads.withLock { $0 += 1 }
        var data: [UInt8]?
        if item.isPackage, let name = library.thumbnailName {
            let path = item.path + "/" + name
            data = await BlockingWork.run { Self.readPNG(at: path) }
        }
        if data == nil, let generator, !Task.isCancelled {
            data = try? await generator(item)
        }
        guard let data, !Task.isCancelled else { return nil }
        let picture = DocumentThumbnail(id: item.id, imageData: data, modified: item.modified)
        store(picture)
        return picture
    }

    /// The cached picture, if it shows this version of the document.
    public func cachedThumbnail(for item: DocumentItem) -> DocumentThumbnail? {
        cache.withLock { cache in
            guard let picture = cache.pictures[item.id], picture.modified == item.modified else { return nil }
            return picture
        }
    }

    /// Forgets the pictures of these documents (they changed or went away).
    public func invalidate(_ ids: some Sequence<DocumentItem.ID>) {
        cache.withLock { cache in
            var removed = false
            for id in ids where cache.pictures.removeValue(forKey: id) != nil { removed = true }
            if removed { cache.order.removeAll { cache.pictures[$0] == nil } }
        }
    }

    /// How many pictures are cached.
    public var cachedCount: Int { cache.withLock { $0.pictures.count } }

    /// How many times a picture was read or generated (not served from the cache).
    public var loadCount: Int { loads.withLock { $0 } }

    private func store(_ picture: DocumentThumbnail) {
        cache.withLock { cache in
            if cache.pictures.updateValue(picture, forKey: picture.id) == nil {
                cache.order.append(picture.id)
            }
            while cache.order.count > capacity {
                cache.pictures[cache.order.removeFirst()] = nil
            }
        }
    }

    /// The bytes of a PNG file, or `nil` when it is missing, too large (over 32 MiB), or not a
    /// PNG.
    static func readPNG(at path: String) -> [UInt8]? {
        guard let bytes = try? FileBytes.read(path, limit: 32 << 20), bytes.starts(with: pngSignature) else {
            return nil
        }
        return bytes
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
