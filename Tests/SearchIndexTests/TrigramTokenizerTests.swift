import Testing

@testable import SearchIndex

@Suite("The content index's tokenizer")
struct TrigramTokenizerTests {
    static func trigrams(_ text: String, once: Bool) -> [String] {
        trigrams(Array(text.utf8), once: once)
    }

    static func trigrams(_ bytes: [UInt8], once: Bool) -> [String] {
        var bits = [UInt64](repeating: 0, count: 1 << 15)
        var set: [Int32] = []
        var found: [String] = []
        bytes.withUnsafeBufferPointer { text in
            guard let start = text.baseAddress else { return }
            bits.withUnsafeMutableBufferPointer { bits in
                _ = TrigramTokenizer.trigrams(
                    of: start, count: text.count, once: once, bits: bits, set: &set
                ) { start, end in
                    found.append(String(decoding: text[start..<end], as: UTF8.self))
                    return 0
                }
            }
        }
        return found
    }

    @Test("every run of three characters, in order, whatever their bytes")
    func characters() {
        #expect(Self.trigrams("héllo", once: false) == ["hél", "éll", "llo"])
        #expect(Self.trigrams("日本語の", once: true) == ["日本語", "本語の"])
        #expect(Self.trigrams("ab", once: false) == [])
    }

    @Test("a file's repeated ASCII trigrams are given once, a query's every time")
    func once() {
        #expect(Self.trigrams("abcabcabc", once: true) == ["abc", "bca", "cab"])
        #expect(Self.trigrams("abcabc", once: false) == ["abc", "bca", "cab", "abc"])
    }

    @Test("a byte that starts no character counts as one, and a character cut at the end ends the text")
    func brokenText() {
        #expect(Self.trigrams([0x61, 0x80, 0x62, 0x63], once: true).count == 2)
        #expect(Self.trigrams([0x61, 0x62, 0x63, 0xE6, 0x97], once: true).count == 2)
    }

    @Test("an index made with it finds files exactly as one made with SQLite's trigram tokenizer")
    func agreesWithSQLite() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try TrigramTokenizer.register(on: database.handle)
        try database.execute(
            """
            CREATE VIRTUAL TABLE ours USING fts5(text, tokenize = 'browsey_trigram', detail = 'none');
            CREATE VIRTUAL TABLE theirs USING fts5(text, tokenize = 'trigram', detail = 'none');
            """)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcde é日\n ".unicodeScalars)
        var texts: [String] = []
        for _ in 0..<200 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<60, using: &generator) {
                text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            texts.append(String(text))
        }
        for (index, text) in texts.enumerated() {
            let insert = try database.prepare(
                "INSERT INTO ours (rowid, text) VALUES (?1, ?2)")
            insert.bind(.integer(Int64(index + 1)), .text(text))
            try insert.step()
            let other = try database.prepare("INSERT INTO theirs (rowid, text) VALUES (?1, ?2)")
            other.bind(.integer(Int64(index + 1)), .text(text))
            try other.step()
        }
        var asked = 0
        for text in texts {
            for trigram in Self.trigrams(text, once: true) where !trigram.contains("\"") {
                let term = TrigramPlan.term(trigram)
                #expect(try rows(database, "ours", term) == rows(database, "theirs", term), "\(trigram)")
                asked += 1
            }
        }
        #expect(asked > 1_000)
    }

    private func rows(_ database: SQLiteDatabase, _ table: String, _ term: String) throws -> [Int64] {
        let query = try database.prepare("SELECT rowid FROM \(table) WHERE \(table) MATCH ?1 ORDER BY rowid")
        query.bind(.text(term))
        var found: [Int64] = []
        while try query.step() { found.append(query.int64(0)) }
        return found
    }
}
