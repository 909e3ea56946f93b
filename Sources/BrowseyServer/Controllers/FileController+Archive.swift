import FileTree
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileController {
    /// `GET /api/archive?path=FOLDER[&hidden=1]`: the folder as a zip, streamed as it is written
    /// (no temporary file, memory for one chunk and one small record per entry). Entries are
    /// stored, names in UTF-8, ZIP64 where sizes or offsets need it; hidden and ignored names are
    /// left out as in listings, and so are symlinks (an archive holds what is inside the folder).
    func archive(_ request: Request, context: FileServerContext) async throws -> Response {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: .see)
        let access = context.access
        // Where everything below is granted alike, nothing is left out; otherwise a zip holds
        // only what this reader may read, and the folders on the way to it.
        let filters = !access.isUniform(below: folder.relative) || !access.mayRead(folder.relative)
        let start: OpenFolder
        do {
            start = try safePath.folder(folder)
        } catch {
            throw APIError.fromFolder(error)
        }
        let wantsHidden = includesHidden(request)
        let reader = DirectoryReader(
            filter: EntryFilter(includesHidden: wantsHidden, excludedNames: safePath.ignored), order: .browsey
        )
        let root = folder.absolute
        let items: [ArchiveItem] = try await offThread { () throws(FileTreeError) in
            var items: [ArchiveItem] = []
            // The names from the archived folder down to the entry, as their bytes.
            var names: [[UInt8]] = []
            // From descriptor to descriptor: a folder swapped for a link meanwhile is not
            // followed, a tree deeper than PATH_MAX is read whole, and a name that is not
            // UTF-8 is entered and opened by its bytes.
            let walk = Result {
                try reader.walk(in: start) { entry, level in
                    guard let status = entry.status, entry.type == .regular || entry.type == .directory else {
                        return .skipChildren
                    }
                    names.removeSubrange((level - 1)...)
                    names.append(entry.systemName)
                    let systemPath = Array(names.joined(separator: [UInt8(ascii: "/")]))
                    let relative = String(decoding: systemPath, as: UTF8.self)
                    if filters {
                        let place = (folder.relative == "/" ? "" : folder.relative) + "/" + relative
                        let allowed =
                            entry.type == .directory ? access.maySee(place) : access.mayRead(place)
                        guard allowed else { return .skipChildren }
                        if entry.type == .regular, !access.mayRead(place) { return .continue }
                    }
                    items.append(
                        ArchiveItem(
                            systemPath: systemPath, name: relative, isFolder: entry.type == .directory,
                            size: status.size,
                            mode: UInt32(status.permissions.rawValue), modified: status.modified.seconds))
                    return .continue
                }
            }
            switch walk {
            case .failure(let error):
                throw (error as? FileTreeError)
                    ?? FileTreeError(.ioError, "The folder could not be read", path: root)
            case .success(let problems):
                // A part that could not be read for want of descriptors, or past a length
                // limit, would be left out silently: refuse the archive instead.
                if let problem = problems.first(where: {
                    [.tooManyOpenFiles, .symlinkLoop].contains($0.code) && $0.errno != ELOOP
                }) {
                    throw problem
                }
            }
            return items
        }
        let name =
            folder.relative == "/"
            ? FileName.lastComponent(of: root) : FileName.lastComponent(of: folder.absolute)
        var headers: HTTPFields = [
            .contentType: "application/zip",
            .contentDisposition: HTTPValidators.contentDisposition(
                (name == "/" ? "files" : name) + ".zip", attachment: true),
        ]
        InertContent.apply(to: &headers, for: request)
        // Files are opened below the folder the walk read, by the bytes of their names.
        let walked = ContainedRoot(holding: start)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                var zip = ZipStream()
                var out = ByteBuffer()
                out.reserveCapacity(Self.archiveChunk + 64 * 1024)
                for item in items {
                    if item.isFolder {
                        zip.addFolder(
                            name: item.name, mode: item.mode, modifiedSeconds: item.modified, into: &out)
                    } else {
                        guard
                            let descriptor = try? walked.open(
                                systemPath: item.systemPath, flags: O_RDONLY | O_NONBLOCK)
                        else {
                            continue  // gone or unreadable since the walk: left out
                        }
                        defer { close(descriptor) }
                        var entry = zip.startFile(
                            name: item.name, mode: item.mode, modifiedSeconds: item.modified,
                            expectedSize: UInt64(max(item.size, 0)), into: &out)
                        var offset: Int64 = 0
                        // The bytes the walk saw, no more: a file that grows meanwhile is cut there.
                        while offset < item.size {
                            let want = Int(min(Int64(Self.archiveChunk), item.size - offset))
                            if out.writableBytes < want { out.reserveCapacity(out.writerIndex + want) }
                            let at = offset
                            let read = out.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { space in
                                guard let base = space.baseAddress else { return 0 }
                                let count = pread(descriptor, base, want, off_t(at))
                                return max(count, 0)
                            }
                            guard read > 0 else { break }  // shrunk or unreadable: the entry ends here
                            out.withUnsafeReadableBytes { bytes in
                                zip.add(
                                    UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - read)...]),
                                    to: &entry)
                            }
                            offset += Int64(read)
                            if out.readableBytes >= Self.archiveChunk {
                                try await writer.write(out)
                                out = ByteBuffer()
                                out.reserveCapacity(Self.archiveChunk + 64 * 1024)
                            }
                        }
                        zip.finishFile(entry, into: &out)
                    }
                    if out.readableBytes >= Self.archiveChunk {
                        try await writer.write(out)
                        out = ByteBuffer()
                        out.reserveCapacity(Self.archiveChunk + 64 * 1024)
                    }
                }
                zip.finish(into: &out)
                try await writer.write(out)
                try await writer.finish(nil)
            })
    }

    /// Bytes gathered before a write: small files share one, large files go a chunk at a time.
    static let archiveChunk = 512 * 1024
}

/// One entry of an archive, as the walk found it.
struct ArchiveItem: Sendable {
    /// The path below the archived folder, as the names' bytes.
    let systemPath: [UInt8]
    /// The same path as text (an invalid UTF-8 sequence read as U+FFFD), for the entry's name.
    let name: String
    let isFolder: Bool
    let size: Int64
    let mode: UInt32
    let modified: Int64
}
