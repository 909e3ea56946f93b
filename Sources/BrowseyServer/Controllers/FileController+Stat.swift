import BrowseyAPI
import FileTree
import Hummingbird

extension FileController {
    /// `GET /api/stat?path=`: one item's metadata (a symlink is described as its target).
    func stat(_ request: Request, context: FileServerContext) throws -> Response {
        let target = try resolve(request, context, required: true, notFound: "File not found", need: .see)
        let entry: FileEntry
        do {
            if target.relative == "/" {
                entry = try DirectoryReader().entry(at: target.absolute)
            } else {
                do {
                    let (folder, name) = try safePath.parent(forWriting: target)
                    entry = try DirectoryReader().entry(named: name, in: folder)
                } catch  where error.code == .outsideRoot && safePath.allowsSymlinks {
                    entry = try DirectoryReader().entry(at: target.absolute)
                }
            }
        } catch {
            throw APIError.from(error, notFound: "File not found")
        }
        var status = entry.symlink?.targetStatus ?? entry.status
        var type = entry.symlink?.targetType ?? entry.type
        if entry.symlink != nil && !safePath.allowsSymlinks, let contained = safePath.contained {
            // What the link leads to, reached again below the root: a link pointed out of it
            // since the path was checked is refused, its target's details never sent.
            do throws(FileTreeError) {
                let reached = try contained.status(of: target.relative)
                (status, type) = (reached, reached.type)
            } catch  where error.code == .outsideRoot {
                throw APIError.from(error, notFound: "File not found")
            } catch {
                (status, type) = (nil, .symlink)  // leads nowhere (now): missing, a loop, through a file
            }
        }
        let modified = status?.modified.date ?? .distantPast
        let answer = StatResponse(
            name: entry.name, type: Self.itemType(type), size: status?.size ?? 0,
            modified: modified, created: (status?.created ?? status?.statusChanged)?.date ?? modified,
            extension: type == .directory ? nil : entry.pathExtension,
            absolutePath: showsFilesystemPaths ? target.absolute : target.relative,
            path: target.relative,
            mimeType: type == .directory
                ? nil
                : ContentTypeRegistry.standard.type(forFileName: entry.name).preferredMIMEType
                    ?? "application/octet-stream",
            permissions: status?.permissions.description)
        return JSONBody.response(answer)
    }
}
