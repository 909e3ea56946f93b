import BrowseyClient
import Foundation
import TestSupport
import Testing

@Suite("A server that answers before taking the whole request is heard")
struct EarlyAnswerTests {
    /// An answer with a JSON body, the connection closed after it.
    private static func answer(_ status: String, _ json: String) -> [UInt8] {
        Array(
            "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
                .utf8)
    }

    @Test(
        "an upload refused before its body was read ends with the server's reason, not a broken connection",
        arguments: TransportKind.allCases)
    func refusedUpload(transport: TransportKind) async throws {
        // Asked what it holds, the server holds nothing; sent the file, it refuses it at once
        // and ends the connection with the 8 MB never read.
        let server = try EarlyAnswerServer { head in
            head.hasPrefix("GET ")
                ? Self.answer(
                    "200 OK", #"{"ok":true,"path":"/big.bin","size":8388608,"received":0,"complete":false}"#)
                : Self.answer(
                    "413 Content Too Large",
                    #"{"error":"the file is larger than this server takes","code":"too_large"}"#)
        }
        defer { server.stop() }
        let local = try TemporaryFolder()
        let source = try local.file("big.bin", [UInt8](repeating: 9, count: 8 << 20))
        let client = APIClient(
            server: try Server(name: "Refusing", host: "127.0.0.1", port: server.port),
            transport: transport.make(), timeout: .seconds(30))
        let error = await #expect(throws: BrowseyClientError.self) {
            try await client.upload(source, to: "/big.bin")
        }
        #expect(
            error?.status == 413 && error?.message.contains("larger than this server takes") == true,
            "\(String(describing: error))")
    }
}
