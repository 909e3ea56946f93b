import Foundation
import Testing

@testable import BrowseyServer

@Suite("The error codes")
struct ErrorCodeTests {
    /// The codes in the table under "## Error codes" of Docs/API.md.
    static func documentedCodes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Docs/API.md"), encoding: .utf8)
        let section =
            try #require(text.components(separatedBy: "\n## Error codes\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var codes: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            codes.insert(String(cell))
        }
        return codes
    }

    @Test("every code the server can send is documented, and every documented code can be sent")
    func codesMatchTheDocumentation() throws {
        let sent = Set(APIError.Code.all.map(\.description))
        let documented = try Self.documentedCodes()
        #expect(!sent.isEmpty)
        #expect(
            sent.subtracting(documented).isEmpty,
            "not in Docs/API.md: \(sent.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(sent).isEmpty,
            "documented, never sent: \(documented.subtracting(sent).sorted())")
    }

    @Test("a code goes on the wire as the word it always was")
    func wireWords() {
        #expect(APIError.Code.internalError.description == "internal")
        #expect(APIError(.notFound, "Not found", code: .notFound).body.code == "notFound")
        #expect(APIError.Code.all.count == Set(APIError.Code.all).count)
    }
}
