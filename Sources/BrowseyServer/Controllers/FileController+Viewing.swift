import BrowseyAPI
import FileTree
import Hummingbird
import Preview
import Thumbnails

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileController {
    /// Browsey's text extensions (and whole names such as `makefile`), viewable up to 5 MiB.
    static let textExtensions: Set<String> = Set(
        """
        txt md markdown json js jsx ts tsx mjs cjs html htm xhtml css scss sass less xml yaml yml toml ini conf cfg \
        sh bash zsh fish ps1 bat cmd py rb php pl pm lua r go rs java kt kts scala clj cljs c cpp cc cxx h hpp \
        hxx cs fs fsx swift mm m zig nim v odin sql graphql gql env envrc gitignore gitattributes dockerignore \
        editorconfig dockerfile makefile cmake gradle properties log diff patch vue svelte astro hbs handlebars \
        mustache ejs pug jade njk jinja jinja2 j2 liquid erb twig tmpl tpl csv tsv rst adoc org tex \
        readme license licence copying authors contributors changelog changes news todo install notice \
        history thanks vagrantfile gemfile procfile
        """.split(whereSeparator: \.isWhitespace).map(String.init))
    /// Images the viewer shows, up to 20 MiB.
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "avif",
    ]
    /// Videos the viewer plays.
    static let videoExtensions: Set<String> = ["mp4", "mov", "webm"]
    static let textLimit: Int64 = 5 * 1024 * 1024
    /// Code up to this size comes highlighted (1 MiB).
    static let highlightLimit: Int64 = 1 << 20
    static let imageLimit: Int64 = 20 * 1024 * 1024

    /// `GET /api/view?path=`: text with its content, or an image or video with its URL, tagged
    /// with a digest of the answer (``BodyTag``): 304 when the client has it.
    func view(_ request: Request, context: FileServerContext) async throws -> Response {
        let target = try resolve(request, context, required: true, notFound: "File not found")
        let (descriptor, status) = try openForReading(target, notFound: "File not found")
        defer { close(descriptor) }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot view directory", code: .isADirectory)
        }
        let name = FileName.lastComponent(of: target.absolute)
        let ext = FileName.pathExtension(of: name).map(String.init)
        let kindKey = (ext ?? String(name.drop { $0 == "." })).lowercased()
        let mime =
            ContentTypeRegistry.standard.type(forFileName: name).preferredMIMEType
            ?? "application/octet-stream"
        let url = "\(fileEndpoint)?path=\(Self.queryEscaped(target.relative))&download=false"

        if Self.textExtensions.contains(kindKey) {
            guard status.size <= Self.textLimit else {
                throw APIError(.badRequest, "File too large to view", code: .tooLarge)
            }
            guard status.type == .regular else {
                throw APIError(.notFound, "File not found", code: .notFound)
            }
            guard let bytes = FileContents.read(descriptor, limit: Int(min(status.size, Self.textLimit)))
            else {
                throw APIError.permissionDenied
            }
            let content = String(decoding: bytes, as: UTF8.self)
            let isMarkdown = kindKey == "md" || kindKey == "markdown"
            let language = SyntaxLanguage.name(forFileName: name)
            // Highlighting is bounded: past 1 MiB the viewer shows plain text.
            let highlighted =
                !isMarkdown && status.size <= Self.highlightLimit
                ? SyntaxHighlighter.html(for: content, language: language) : nil
            return BodyTag.response(
                encoding: ViewResponse(
                    type: .text, filename: name, extension: ext, content: content,
                    size: status.size, modified: status.modified.date,
                    language: language, mimeType: mime,
                    html: isMarkdown ? MarkdownRenderer.html(content) : nil, highlighted: highlighted),
                to: request)
        }
        if Self.imageExtensions.contains(kindKey), status.size <= Self.imageLimit {
            let header = Self.head(
                of: descriptor, length: max(ImageDimensions.headerLength, ImageMetadata.headerLength))
            let dimensions = ImageDimensions.read(header).map {
                ViewResponse.Dimensions(width: $0.width, height: $0.height)
            }
            let picture = ImageMetadata.read(header).map {
                ViewResponse.Picture(
                    width: $0.displayWidth, height: $0.displayHeight, taken: $0.taken, camera: $0.camera,
                    orientation: $0.orientation)
            }
            return BodyTag.response(
                encoding: ViewResponse(
                    type: .image, filename: name, extension: ext, url: url, size: status.size, mimeType: mime,
                    dimensions: dimensions, image: picture), to: request)
        }
        if Self.videoExtensions.contains(kindKey) {
            let details = await videos?.videoDetails(descriptor: descriptor, status: status)
            return BodyTag.response(
                encoding: ViewResponse(
                    type: .video, filename: name, extension: ext, url: url, size: status.size, mimeType: mime,
                    video: details.map {
                        ViewResponse.Video(duration: $0.duration, width: $0.width, height: $0.height)
                    }), to: request)
        }
        throw APIError(.badRequest, "File type not viewable", code: .notViewable)
    }

    /// The first `length` bytes of an open file (fewer when it is shorter; none when it cannot be
    /// read).
    static func head(of descriptor: Int32, length: Int) -> [UInt8] {
        FileContents.read(descriptor, limit: length) ?? []
    }

    /// Percent-encodes a path for a query value (`/` and the unreserved characters kept).
    static func queryEscaped(_ path: String) -> String { PercentEncoding.queryValue(path) }
}
