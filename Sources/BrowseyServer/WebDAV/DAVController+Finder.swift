import FileTree
import Hummingbird

extension DAVController {
    /// Whether `name` is one of the files macOS writes beside others on a drive that keeps no
    /// extended attributes of its own: AppleDouble `._name` files and `.DS_Store`.
    static func isFinderMetadata(_ name: some StringProtocol) -> Bool {
        name.hasPrefix("._") || name == ".DS_Store"
    }

    /// Finder's metadata files on a server that hides dot-names: a PUT is read and dropped
    /// (201), a DELETE answered 204, so a copy from Finder goes through instead of stopping at
    /// the first `._` file (which it would report as error -36); PROPFIND and GET find nothing
    /// there, as for any hidden name. `nil` for every other request, which goes on as usual.
    func finderMetadata(_ request: Request, rules: SafePath, path: String) async throws -> Response? {
        guard !rules.showsHidden, Self.isFinderMetadata(FileName.lastComponent(of: path)) else { return nil }
        switch request.method {
        case .put:
            for try await _ in request.body {}
            return Response(status: .created, headers: [.contentLength: "0"])
        case .delete:
            return Response(status: .noContent)
        default:
            return nil
        }
    }
}
