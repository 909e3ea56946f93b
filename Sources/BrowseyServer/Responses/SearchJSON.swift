import BrowseyAPI
import NIOCore

/// `GET /api/search`'s body written straight into bytes: the same JSON that
/// `JSONEncoder.browsey()` makes of a ``SearchResponse`` (a test holds them equal), without the
/// reflective encoder, which cost a tenth of a common query.
enum SearchJSON {
    /// The body for `results` found for `query`.
    static func encode(query: String, results: [SearchResponse.Result]) -> ByteBuffer {
        var json = JSONWriter(capacity: 64 + results.count * 240)
        json.raw(#"{"query":"#)
        json.string(query)
        json.raw(#","results":["#)
        for (index, result) in results.enumerated() {
            // Keys in the encoder's (sorted) order.
            json.raw(index == 0 ? #"{"absolutePath":"# : #",{"absolutePath":"#)
            json.string(result.absolutePath)
            json.raw(#","extension":"#)
            json.string(orNull: result.extension)
            json.raw(#","name":"#)
            json.string(result.name)
            json.raw(#","path":"#)
            json.string(result.path)
            json.raw(#","score":"#)
            json.integer(Int64(result.score))
            if let thumbnail = result.thumbnail {
                json.raw(thumbnail ? #","thumbnail":true"# : #","thumbnail":false"#)
            }
            switch result.type {
            case .directory: json.raw(#","type":"directory"}"#)
            case .symlink: json.raw(#","type":"symlink"}"#)
            case .file: json.raw(#","type":"file"}"#)
            }
        }
        json.raw("]}")
        var buffer = ByteBuffer()
        buffer.reserveCapacity(json.count)
        json.withBytes { _ = buffer.writeBytes($0) }
        return buffer
    }
}
