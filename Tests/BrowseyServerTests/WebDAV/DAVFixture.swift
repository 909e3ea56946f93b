import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// WebDAV's methods, named for the test client.
enum DAVMethod {
    static let propfind = HTTPRequest.Method("PROPFIND")!
    static let proppatch = HTTPRequest.Method("PROPPATCH")!
    static let mkcol = HTTPRequest.Method("MKCOL")!
    static let copy = HTTPRequest.Method("COPY")!
    static let move = HTTPRequest.Method("MOVE")!
    static let lock = HTTPRequest.Method("LOCK")!
    static let unlock = HTTPRequest.Method("UNLOCK")!
}

extension HTTPField.Name {
    static let depthHeader = HTTPField.Name("Depth")!
    static let destinationHeader = HTTPField.Name("Destination")!
    static let overwriteHeader = HTTPField.Name("Overwrite")!
    static let ifHeader = HTTPField.Name("If")!
    static let lockTokenHeader = HTTPField.Name("Lock-Token")!
    static let davHeader = HTTPField.Name("DAV")!
    static let msAuthorVia = HTTPField.Name("MS-Author-Via")!
    static let translate = HTTPField.Name("Translate")!
}

extension TestClientProtocol {
    /// Sends a WebDAV request with an optional text body.
    func dav(
        _ uri: String, _ method: HTTPRequest.Method, headers: HTTPFields = [:], body: String? = nil
    ) async throws -> Answer {
        try await execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}

/// The `href`s of a multistatus, in order.
func hrefs(_ text: String) -> [String] {
    text.components(separatedBy: "<D:href>").dropFirst().compactMap { $0.components(separatedBy: "</D:href>").first }
}

let lockBody = """
    <?xml version="1.0" encoding="utf-8"?>
    <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>\
    <D:owner><D:href>mailto:test@example.com</D:href></D:owner></D:lockinfo>
    """
