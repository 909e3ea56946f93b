import BrowseyAPI
import FileTree
import NIOCore

/// `GET /api/list`'s body written straight from FileTree's entries: the same JSON that
/// `JSONEncoder.browsey()` makes of a ``ListResponse`` (a test holds them equal), at a
/// fraction of the cost (`perf-facts.md`: 1.2 ms against 32 ms for 10,000 entries).
enum ListingJSON {
    /// The body from a ``FolderListing``: names go from the listing's bytes to the JSON's, and
    /// only a symlink is read again as a full entry (for its target).
    static func encode(path: String, absolutePath: String, listing: FolderListing, safePath: SafePath) -> ByteBuffer {
        envelope(path: path, absolutePath: absolutePath, count: listing.items.count) { folder, json in
            for (index, item) in listing.items.enumerated() {
                if index > 0 { json.raw(",") }
                if item.type == .symlink, let entry = try? listing.entry(of: item) {
                    self.item(entry, escapedFolder: folder, safePath: safePath, into: &json)
                    continue
                }
                listing.withName(of: item) { name in
                    // Keys in the encoder's (sorted) order, each run of punctuation one literal.
                    json.raw(#"{"absolutePath":"#)
                    json.string(escapedPrefix: folder, utf8: name)
                    if item.type != .directory, let start = FileName.pathExtensionOffset(inUTF8: name) {
                        json.raw(#","extension":"#)
                        json.string(utf8: UnsafeBufferPointer(rebasing: name[start...]))
                    } else {
                        json.raw(#","extension":null"#)
                    }
                    if item.type == .symlink {  // its entry could not be read again: a link gone meanwhile
                        json.raw(#","linkBroken":true,"linkTarget":null"#)
                    }
                    json.raw(#","modified":"#)
                    json.date(millisecondsSince1970: item.status?.modified.milliseconds ?? 0)
                    json.raw(#","name":"#)
                    json.string(utf8: name)
                    json.raw(#","size":"#)
                    json.integer(item.size)
                    switch item.type {
                    case .directory: json.raw(#","type":"directory"}"#)
                    case .symlink:
                        json.raw(#","targetAbsolutePath":null,"targetPath":null,"targetType":null,"type":"symlink"}"#)
                    case .regular, .other: json.raw(#","type":"file"}"#)
                    }
                }
            }
        }
    }

    /// `{"absolutePath":…,"items":[…],"path":…}` around the items that `writeItems` writes (it
    /// gets the folder's path with a trailing slash, already escaped).
    private static func envelope(
        path: String, absolutePath: String, count: Int, writeItems: ([UInt8], inout JSONWriter) -> Void
    ) -> ByteBuffer {
        var json = JSONWriter(capacity: 256 + count * 200)
        json.raw("{")
        json.key("absolutePath")
        json.string(absolutePath)
        json.raw(",")
        json.key("items")
        json.raw("[")
        writeItems(JSONWriter.escaped(absolutePath == "/" ? "/" : absolutePath + "/"), &json)
        json.raw("],")
        json.key("path")
        json.string(path)
        json.raw("}")
        var buffer = ByteBuffer()
        buffer.reserveCapacity(json.count)
        json.withBytes { _ = buffer.writeBytes($0) }
        return buffer
    }

    /// One item, keys sorted as the encoder sorts them.
    static func item(_ entry: FileEntry, escapedFolder: [UInt8]?, safePath: SafePath, into json: inout JSONWriter) {
        let type = ItemType(entry.type)
        json.raw("{")
        json.key("absolutePath")
        if let escapedFolder { json.string(escapedPrefix: escapedFolder, entry.name) } else { json.string(entry.path) }
        json.raw(",")
        json.key("extension")
        if entry.type != .directory, let ext = FileName.pathExtension(of: entry.name) { json.string(ext) } else { json.raw("null") }
        let link = type == .symlink ? entry.symlink.flatMap { safePath.mayReveal($0) ? $0 : nil } : nil
        if type == .symlink {
            json.raw(",")
            json.key("linkBroken")
            json.bool(link?.isBroken ?? false)
            if link == nil {
                json.raw(",")
                json.key("linkOutside")
                json.bool(true)
            }
            json.raw(",")
            json.key("linkTarget")
            json.string(orNull: link?.target)
        }
        json.raw(",")
        json.key("modified")
        json.date(millisecondsSince1970: entry.status?.modified.milliseconds ?? 0)
        json.raw(",")
        json.key("name")
        json.string(entry.name)
        json.raw(",")
        json.key("size")
        json.integer(entry.size)
        if type == .symlink {
            json.raw(",")
            json.key("targetAbsolutePath")
            json.string(orNull: link?.resolvedPath)
            json.raw(",")
            json.key("targetPath")
            json.string(orNull: link.flatMap { safePath.relativePath(of: $0.resolvedPath) })
            json.raw(",")
            json.key("targetType")
            json.string(orNull: link?.targetType.map { ItemType($0).rawValue })
        }
        json.raw(",")
        json.key("type")
        json.string(type.rawValue)
        json.raw("}")
    }
}
