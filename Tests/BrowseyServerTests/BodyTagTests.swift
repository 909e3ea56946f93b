import NIOCore
import Testing

@testable import BrowseyServer

@Suite("Answers' tags")
struct BodyTagTests {
    @Test("are strong, quoted, 32 hex digits, and the same for the same bytes")
    func shape() {
        let tag = BodyTag.of(ByteBuffer(string: "payload"))
        #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        #expect(tag.dropFirst().dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(BodyTag.of(ByteBuffer(string: "payload")) == tag)
        #expect(BodyTag.of(ByteBuffer(string: "payload ")) != tag)
        #expect(BodyTag.of(ByteBuffer(string: "payload"), salt: "hidden") != tag)
    }

    @Test("change with any one byte changed, anywhere, and with every length")
    func everyByteCounts() {
        // 100 bytes cross the 32-byte stripes, the 8-byte words and the single bytes at the end.
        let original = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        var seen = Set<String>()
        for length in 0...original.count {
            #expect(seen.insert(BodyTag.of(ByteBuffer(bytes: original.prefix(length)))).inserted)
        }
        for index in original.indices {
            for bit in 0..<8 {
                var changed = original
                changed[index] ^= 1 << bit
                #expect(
                    seen.insert(BodyTag.of(ByteBuffer(bytes: changed))).inserted, "byte \(index) bit \(bit)")
            }
        }
    }

    @Test("If-None-Match names the tag alone, in a list, weak, as *, or as the compressed answer's")
    func matching() {
        let tag = "\"0123456789abcdef0123456789abcdef\""
        let gzip = "\"0123456789abcdef0123456789abcdef-gz\""
        #expect(BodyTag.matchingTag(in: tag, for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "\"other\", \(tag) , \"another\"", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "*", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "  \(tag)  ", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "W/\(tag)", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "W/ \(tag)", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: "\"other\", W/\(tag)", for: tag) == tag)
        #expect(BodyTag.matchingTag(in: gzip, for: tag) == gzip)
        #expect(BodyTag.matchingTag(in: "\"other\"", for: tag) == nil)
        #expect(BodyTag.matchingTag(in: "", for: tag) == nil)
    }
}
