import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import Thumbnails

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A picture's thumbnail: `GET|HEAD /api/thumb?path=&size=`, under the same path, hidden-name
/// and token rules as `/api/file`.
struct ThumbnailController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    let thumbnails: ThumbnailService
    /// Where answers are kept for ``ThumbnailFastPath`` to send again; `nil` keeps none.
    var answers: ThumbnailAnswers? = nil

    /// How long a browser keeps a thumbnail without asking (five minutes), and how long past
    /// that it may still show it while it asks again in the background (thirty days): the URL
    /// does not change when the picture does, so the ETag decides, and a grid scrolled twice
    /// waits for nothing.
    static let cacheControl = "private, max-age=300, stale-while-revalidate=2592000"
    /// The size class when a request names none.
    static let defaultSize = 256
    /// The largest size class sent as WebP to a client that accepts it: a grid's thumbnails,
    /// where the bytes add up; a screen-sized preview stays JPEG, which encodes ten times faster
    /// at that size.
    static let largestWebP = 512

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/thumb") { request, context in try await thumbnail(request, context: context) }
    }

    /// `GET|HEAD /api/thumb?path=&size=`: a JPEG (a WebP for a client that accepts it, up to
    /// ``largestWebP``) at most `size` (rounded up to a class) on its longest side, never larger
    /// than the picture.
    func thumbnail(_ request: Request, context: FileServerContext) async throws -> Response {
        let target = try resolve(request, context, required: true, notFound: "File not found")
        var requested = Self.defaultSize
        if let text = request.uri.queryParameters.get("size") {
            guard let number = Int(text), number > 0 else {
                throw APIError(.badRequest, "size must be a positive number of pixels", code: .invalidSize)
            }
            requested = number
        }
        let sizeClass = SizeClass.rounding(requested)
        let (descriptor, status) = try openForReading(target, notFound: "File not found")
        defer { close(descriptor) }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot make a thumbnail of a directory", code: .isADirectory)
        }
        guard status.type == .regular else { throw APIError.notFound }
        let encoding: ThumbnailEncoding =
            sizeClass <= Self.largestWebP && Self.acceptsWebP(request.headers[values: .accept])
                && ThumbnailEncoding.webp.isAvailable ? .webp : .jpeg
        let key = ThumbnailService.key(status, sizeClass: sizeClass, encoding: encoding)
        let etag = "\"" + StableHash.hex(key) + "-" + String(sizeClass) + "\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: Self.cacheControl, .vary: "Accept"]
        if let match = request.headers[.ifNoneMatch],
            HTTPValidators.listContains(match, etag: etag, weak: true)
        {
            return Response(status: .notModified, headers: headers)
        }
        let stored: ThumbnailService.Stored
        do {
            stored = try await thumbnails.thumbnail(
                key: key, descriptor: descriptor, name: FileName.lastComponent(of: target.absolute),
                path: target.absolute,
                sizeClass: sizeClass, encoding: encoding)
        } catch let error as ThumbnailError {
            throw Self.answer(error)
        }
        headers[.contentType] = stored.encoding.mimeType
        headers[.contentLength] = String(stored.bytes.count)
        if let width = stored.sourceWidth, let height = stored.sourceHeight {
            headers[.imageWidth] = String(width)
            headers[.imageHeight] = String(height)
        }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        if let answers, let slot = request.headers[.thumbnailSlot].flatMap({ UInt64($0) }) {
            answers.prepare(slot: slot, path: target.absolute, version: .init(status))
        }
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: stored.bytes)))
    }

    /// Whether `Accept` names `image/webp` with a quality above zero (a browser's `<img>`
    /// always does; `image/*` or `*/*` alone is not taken as a wish for WebP).
    static func acceptsWebP(_ values: [String]) -> Bool {
        for value in values {
            for range in value.split(separator: ",") {
                let parts = range.split(separator: ";")
                guard let type = parts.first, type.trimmingSpaces().lowercased() == "image/webp" else {
                    continue
                }
                let quality = parts.dropFirst().lazy.map { $0.trimmingSpaces() }
                    .first { $0.lowercased().hasPrefix("q=") }
                    .flatMap { Double($0.dropFirst(2)) }
                return (quality ?? 1) > 0
            }
        }
        return false
    }

    /// The answer for a picture that gave no thumbnail: 413 past the pixel limit, else 415.
    static func answer(_ error: ThumbnailError) -> APIError {
        if error.code == .imageTooLarge {
            return APIError(.contentTooLarge, error.message, code: .imageTooLarge)
        }
        return APIError(.unsupportedMediaType, error.message, code: .notThumbnailable)
    }
}

extension HTTPFields.Element.Name {
    // swift-format-ignore: NeverForceUnwrap
    // A literal field name that is a valid token never fails.
    /// `X-Image-Width`: the width of the picture a thumbnail shows, as shown.
    static let imageWidth = HTTPFields.Element.Name("X-Image-Width")!
    // swift-format-ignore: NeverForceUnwrap
    /// `X-Image-Height`: the height of the picture a thumbnail shows, as shown.
    static let imageHeight = HTTPFields.Element.Name("X-Image-Height")!
    // swift-format-ignore: NeverForceUnwrap
    /// The slot ``ThumbnailFastPath`` gives a request whose answer it may keep.
    static let thumbnailSlot = HTTPFields.Element.Name(ThumbnailAnswers.slotField)!
}
