import BrowseyAPI
import Hummingbird

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON responses in the contract's form: compact, `application/json; charset=utf-8`.
enum JSONBody {
    static let contentType = "application/json; charset=utf-8"

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(buffer: buffer(value), status: status)
    }

    /// `value` encoded, in a buffer (an error's body when it cannot be encoded).
    static func buffer(_ value: some Encodable) -> ByteBuffer {
        let data: Data
        do {
            data = try JSONEncoder.browsey().encode(value)
        } catch {
            data = Data(#"{"error":"Internal server error"}"#.utf8)
        }
        var buffer = ByteBuffer()
        buffer.writeBytes(data)
        return buffer
    }

    static func response(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        return response(buffer: buffer, status: status)
    }

    static func response(buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType, .contentLength: String(buffer.readableBytes)],
            body: ResponseBody(byteBuffer: buffer))
    }
}
