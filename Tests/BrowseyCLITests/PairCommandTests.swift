import Foundation
import QRCode
import Synchronization
import TestSupport
import Testing

/// Runs the real executable with `arguments` and `environment` added (the access token
/// variable emptied unless given); its exit status and what it printed.
private func browsey(
    _ arguments: [String], environment: [String: String] = [:]
) async throws -> (status: Int32?, output: String) {
    try await ExternalCommand.run(
        RunningBrowsey.executable.path, arguments,
        environment: ["BROWSEY_ACCESS_TOKEN": ""].merging(environment) { $1 }, timeout: .seconds(60))
}

/// The text of the QR code drawn in `output`, read by zbar's `zbarimg`.
private func decodedQRCode(in output: String, folder: TemporaryFolder) throws -> String {
    let drawing = output.components(separatedBy: "\n").filter { $0.hasPrefix("\u{1B}[30;47m") }
    guard drawing.count > 10 else { throw TestSupportError("no QR code in: \(output)") }
    let image = try folder.file(
        "pair.png", QRSymbol.pngData(modules: modules(fromTerminal: drawing), scale: 4))
    let decoded = try SpawnedProcess.run(
        "/usr/bin/zbarimg", ["--raw", "-q", "-Sbinary", image], output: .standardOutput)
    guard decoded.status == 0 else { throw TestSupportError("zbarimg found no code") }
    return decoded.output.trimmingCharacters(in: .newlines)
}

/// The JSON object a pair code's text holds.
private func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite("browsey pair and the access token, the real executable", .serialized)
struct PairCommandTests {
    @Test("pair prints a version 2 code for an https URL with an access token, and the same text below it")
    func versionTwo() async throws {
        let folder = try TemporaryFolder()
        let tokenFile = try folder.file("access", "  gate-0123456789abcdef \nignored second line\n")
        let run = try await browsey([
            "pair", "--url", "https://nas.example:8443/some/folder", "--name", "NAS", "--access-token-file",
            tokenFile,
        ])
        #expect(run.status == 0, "\(run.output)")
        let printed = try #require(run.output.components(separatedBy: "\n").last { $0.hasPrefix("{") })
        #expect(try decodedQRCode(in: run.output, folder: folder) == printed)
        let payload = try object(printed)
        #expect(payload["v"] as? Int == 2 && payload["kind"] as? String == "browsey-pair")
        #expect(
            payload["url"] as? String == "https://nas.example:8443" && payload["name"] as? String == "NAS")
        #expect(payload["access"] as? String == "gate-0123456789abcdef" && payload["token"] == nil)
        #expect(run.output.contains("X-Browsey-Access-Token"))
    }

    @Test("pair prints a version 1 code without an access token; $BROWSEY_ACCESS_TOKEN makes it version 2")
    func versionOneAndEnvironment() async throws {
        let folder = try TemporaryFolder()
        let plain = try await browsey([
            "pair", "--url", "http://192.168.1.23:8080/?token=bearer-0123", "--name", "Laptop",
        ])
        #expect(plain.status == 0, "\(plain.output)")
        let payload = try object(try decodedQRCode(in: plain.output, folder: folder))
        #expect(payload["v"] as? Int == 1 && payload["url"] as? String == "http://192.168.1.23:8080")
        #expect(payload["token"] as? String == "bearer-0123", "the URL's token moves into the payload")
        #expect(payload["access"] == nil)

        let gated = try await browsey(
            ["pair", "--url", "https://nas.example", "--name", "N"],
            environment: ["BROWSEY_ACCESS_TOKEN": "from-env"])
        #expect(gated.status == 0, "\(gated.output)")
        let second = try object(try decodedQRCode(in: gated.output, folder: folder))
        #expect(second["v"] as? Int == 2 && second["access"] as? String == "from-env")
    }

    @Test("pair refuses an access token over plain http, and a missing token file, with one Error: line")
    func refusals() async throws {
        let overHTTP = try await browsey(
            ["pair", "--url", "http://192.168.1.23:8080", "--name", "x"],
            environment: ["BROWSEY_ACCESS_TOKEN": "gate"])
        #expect(overHTTP.status != 0 && overHTTP.status != nil)
        #expect(
            overHTTP.output.hasPrefix("Error: ") && overHTTP.output.contains("https"), "\(overHTTP.output)")
        #expect(!overHTTP.output.contains("gate"), "the secret is not printed: \(overHTTP.output)")
        #expect(!overHTTP.output.contains("\u{1B}[30;47m"), "no code is drawn")

        let missing = try await browsey([
            "pair", "--url", "https://nas.example", "--access-token-file", "/nonexistent/access-token",
        ])
        #expect(missing.status != 0 && missing.status != nil)
        #expect(
            missing.output.hasPrefix("Error: ") && missing.output.contains("/nonexistent/access-token"),
            "\(missing.output)")
    }

    @Test(
        "client commands send the access token from --access-token-file or $BROWSEY_ACCESS_TOKEN as a header")
    func clientCommandsSendTheHeader() async throws {
        final class Heads: Sendable { let seen = Mutex<[String]>([]) }
        let heads = Heads()
        let gate = try EarlyAnswerServer(linger: .zero) { head in
            heads.seen.withLock { $0.append(head) }
            let lines = head.split(separator: "\r\n").map { $0.lowercased() }
            let open = lines.contains("x-browsey-access-token: gate-0123")
            let body =
                open
                ? #"{"path":"/","absolutePath":"/srv","items":[{"name":"a.txt","type":"file","size":3,"modified":"2024-01-15T10:30:00.000Z","extension":"txt","absolutePath":"/srv/a.txt"}]}"#
                : #"{"error":"Browsey access token required"}"#
            let status = open ? "200 OK" : "401 Unauthorized\r\nWWW-Authenticate: Browsey-Access"
            return Array(
                "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                    .utf8)
        }
        defer { gate.stop() }
        let base = "http://127.0.0.1:\(gate.port)/"
        let folder = try TemporaryFolder()
        let tokenFile = try folder.file("access", "gate-0123\n")

        let withFile = try await browsey(["ls", base, "--access-token-file", tokenFile])
        #expect(withFile.status == 0 && withFile.output.contains("a.txt"), "\(withFile.output)")
        let fromEnvironment = try await browsey(
            ["ls", base], environment: ["BROWSEY_ACCESS_TOKEN": "gate-0123"])
        #expect(
            fromEnvironment.status == 0 && fromEnvironment.output.contains("a.txt"),
            "\(fromEnvironment.output)")
        #expect(heads.seen.withLock { $0 }.allSatisfy { !$0.prefix { $0 != "\r\n" }.contains("gate-0123") })

        let without = try await browsey(["ls", base])
        #expect(
            without.status == 4 && without.output.hasPrefix("Error: ")
                && without.output.contains("--access-token-file or $BROWSEY_ACCESS_TOKEN"),
            "\(without.output)")
        let unreadable = try await browsey(["ls", base, "--access-token-file", folder.path("missing")])
        #expect(
            unreadable.status == 6 && unreadable.output.hasPrefix("Error: ")
                && unreadable.output.contains("cannot be read"),
            "\(unreadable.output)")
    }
}
