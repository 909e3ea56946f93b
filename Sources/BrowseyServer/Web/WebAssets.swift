import Hummingbird

/// The web UI as the server answers it: `index.html` at `/` and at every other address outside
/// `/api/` (the path is the folder the page shows), and each other file of the web folder at
/// `/assets/NAME`. The files come from the binary (`Assets/web/`, embedded at build time) or,
/// with `--web-root`, from a folder read at each request.
///
/// An `/assets/` address that names no file answers the page too, as it always has: a served
/// folder may be called `assets`. A name with a `..`, a `.`-name, an empty part, a backslash or
/// a percent sign is never looked up (it names no file of ours); one that leads out of a
/// `--web-root` folder through a symlink answers 404.
struct WebAssets: Sendable {
    /// Where the files come from.
    enum Source: Sendable {
        /// Built into the binary, ready to send, by name inside `Assets/web/`.
        case embedded([String: ServedAsset])
        /// Read from this folder at each request.
        case disk(WebRoot)
    }

    /// Where the files come from.
    let source: Source

    /// The files built into the binary: every file under `Assets/web/`.
    static let embedded: WebAssets = {
        var files: [String: ServedAsset] = [:]
        for asset in EmbeddedAsset.all where asset.path.hasPrefix(folder) {
            files[String(asset.path.dropFirst(folder.count))] = ServedAsset(asset)
        }
        return WebAssets(source: .embedded(files))
    }()

    /// The folder of `Assets` that holds the web UI.
    static let folder = "web/"
    /// The address prefix of every file but the page.
    static let prefix = "/assets/"
    /// The page's file.
    static let page = "index.html"

    /// Serves the web UI from `folder` instead of the binary.
    init(folder: WebRoot) {
        source = .disk(folder)
    }

    private init(source: Source) {
        self.source = source
    }

    /// The answer to a GET (or HEAD) of any address outside `/api/`.
    func response(to request: Request) -> Response {
        let path = request.uri.path
        if path.hasPrefix(Self.prefix) {
            let name = String(path.dropFirst(Self.prefix.count))
            if Self.isFileName(name) {
                switch lookup(name) {
                case .found(let asset): return asset.response(to: request)
                case .refused: return Response(status: .notFound)
                case .missing: break
                }
            }
        }
        guard case .found(let page) = lookup(Self.page) else { return Response(status: .notFound) }
        return page.response(to: request)
    }

    /// Whether `name` could be a file of ours: `/`-separated plain names, no escapes.
    static func isFileName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && !part.hasPrefix(".") && !part.contains(where: { "\\%\0".contains($0) })
            }
    }

    private func lookup(_ name: String) -> WebRoot.Lookup {
        switch source {
        case .embedded(let files): files[name].map { .found($0) } ?? .missing
        case .disk(let root): root.asset(named: name)
        }
    }
}
