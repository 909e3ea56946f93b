import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// WebDAV's methods, named for the test client.
enum DAVMethod {
    // swift-format-ignore: NeverForceUnwrap
    static let propfind = HTTPRequest.Method("PROPFIND")!
    // swift-format-ignore: NeverForceUnwrap
    static let proppatch = HTTPRequest.Method("PROPPATCH")!
    // swift-format-ignore: NeverForceUnwrap
    static let mkcol = HTTPRequest.Method("MKCOL")!
    // swift-format-ignore: NeverForceUnwrap
    static let copy = HTTPRequest.Method("COPY")!
    // swift-format-ignore: NeverForceUnwrap
    static let move = HTTPRequest.Method("MOVE")!
    // swift-format-ignore: NeverForceUnwrap
    static let lock = HTTPRequest.Method("LOCK")!
    // swift-format-ignore: NeverForceUnwrap
    static let unlock = HTTPRequest.Method("UNLOCK")!
}

extension HTTPFields.Element.Name {
    // swift-format-ignore: NeverForceUnwrap
    static let depthHeader = HTTPFields.Element.Name("Depth")!
    // swift-format-ignore: NeverForceUnwrap
    static let destinationHeader = HTTPFields.Element.Name("Destination")!
    // swift-format-ignore: NeverForceUnwrap
    static let overwriteHeader = HTTPFields.Element.Name("Overwrite")!
    // swift-format-ignore: NeverForceUnwrap
    static let ifHeader = HTTPFields.Element.Name("If")!
    // swift-format-ignore: NeverForceUnwrap
    static let lockTokenHeader = HTTPFields.Element.Name("Lock-Token")!
    // swift-format-ignore: NeverForceUnwrap
    static let davHeader = HTTPFields.Element.Name("DAV")!
    // swift-format-ignore: NeverForceUnwrap
    static let msAuthorViaHeader = HTTPFields.Element.Name("MS-Author-Via")!
    // swift-format-ignore: NeverForceUnwrap
    static let translateHeader = HTTPFields.Element.Name("Translate")!
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
    text.components(separatedBy: "<D:href>").dropFirst().compactMap {
        $0.components(separatedBy: "</D:href>").first
    }
}

let lockBody = """
    <?xml version="1.0" encoding="utf-8"?>
    <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>\
    <D:owner><D:href>mailto:test@example.com</D:href></D:owner></D:lockinfo>
    """
