import FileTree
import Foundation
import TestSupport
import Testing

@testable import SearchIndex

@Suite("Searching inside files")
struct ContentIndexTests {
    /// A name index and a content index over the fixture, both running.
    final class Running {
        let fixture: IndexFixture
        let names: NameIndex
        let content: ContentIndex
        let task: Task<Void, Never>

        init(_ fixture: IndexFixture, maximumFileSize: Int64 = 4 << 20) async {
            self.fixture = fixture
            names = fixture.start()
            content = ContentIndex(
                options: .init(
                    root: fixture.folder.path, storePath: fixture.cache.path("content.sqlite"),
                    textExtensions: ["txt", "md", "swift"], maximumFileSize: maximumFileSize),
                names: names)
            let content = content
            task = Task { await content.run() }
            await content.waitUntilIdle()
        }

        func stop() async {
            task.cancel()
            await task.value
            await names.stopAndWait()
        }

        /// The names of the segments' files beside the index file.
        var segmentFiles: [String] {
            get throws {
                try FileManager.default.contentsOfDirectory(atPath: fixture.cache.path("content.segments"))
                    .filter { $0.hasSuffix(".seg") }.sorted()
            }
        }

        func paths(_ text: String) throws -> [String] {
            try content.candidates(ContentPattern(text: text))?.map(\.path) ?? []
        }
    }

    @Test("a word is found in a file's text whatever its case and accents, and only in text files")
    func findsText() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/café.md", "Menu\nThe CAFÉ opens at nine\n")
        try fixture.folder.file("docs/binary.txt", Data([0x61, 0x62, 0x63, 0x00, 0x63, 0x61, 0x66, 0x65]))
        try fixture.folder.file("docs/large.txt", String(repeating: "cafe ", count: 400))
        try fixture.folder.file(".hidden/cafe.txt", "cafe")
        try fixture.folder.file("docs/photo.jpg", "cafe")
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("Ünïcode café sixteen".data(using: .utf16LittleEndian)!)
        try fixture.folder.file("docs/wide.txt", utf16)
        let running = await Running(fixture, maximumFileSize: 1024)
        #expect(try running.paths("cafe").sorted() == ["/docs/café.md", "/docs/wide.txt"])
        #expect(try running.paths("opens AT") == ["/docs/café.md"])
        #expect(try running.paths("unicode") == ["/docs/wide.txt"])
        #expect(try running.paths("nowhere") == [])
        #expect(running.content.progress.phase == .ready)
        await running.stop()
    }

    @Test(
        "a file written on disk is found by its new text within a second, and no longer by its old",
        .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1")
    )
    func followsChanges() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/plan.txt", "the old walrus plan")
        let running = await Running(fixture)
        #expect(try running.paths("walrus") == ["/docs/plan.txt"])
        try fixture.folder.file("docs/plan.txt", "the new pelican plan")
        let swapped = await IndexFixture.eventually(within: 1) {
            (try? running.paths("pelican")) == ["/docs/plan.txt"] && (try? running.paths("walrus")) == []
        }
        #expect(swapped != nil, "the new text is found and the old is not, within 1 s")
        try FileManager.default.removeItem(atPath: fixture.folder.path("docs/plan.txt"))
        let gone = await IndexFixture.eventually { (try? running.paths("pelican")) == [] }
        #expect(gone != nil, "a deleted file's text is gone")
        await running.stop()
    }

    @Test("a restart reads again only the files that changed meanwhile")
    func reconcilesOnRestart() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        try fixture.folder.file("docs/b.txt", "bravo banana")
        let first = await Running(fixture)
        #expect(first.content.progress.textFiles >= 2)
        await first.stop()
        try fixture.folder.file("docs/b.txt", "bravo cherry, longer now")
        let second = await Running(fixture)
        #expect(second.content.progress.filesToRead == 1)
        #expect(try second.paths("apple") == ["/docs/a.txt"])
        #expect(try second.paths("cherry") == ["/docs/b.txt"])
        #expect(try second.paths("banana") == [])
        await second.stop()
    }

    @Test(
        "hostile bytes (broken UTF-8, random bytes, a megabyte of every trigram) are read, and their words found"
    )
    func hostileBytes() async throws {
        let fixture = try IndexFixture()
        var generator = SystemRandomNumberGenerator()
        // Lone lead and continuation bytes, an overlong form, and a sequence cut off at the end.
        try fixture.folder.file(
            "odd/broken.txt",
            Data([0xC3, 0x20] + Array("zebracorn ".utf8) + [0x80, 0x80, 0xC0, 0xAF, 0x20, 0xE2, 0x82]))
        // Random bytes without a NUL, a word set apart by spaces in the middle.
        var random = (0..<65_536).map { _ in UInt8.random(in: 1...255, using: &generator) }
        random.replaceSubrange(30_000..<30_012, with: Array(" walrusword ".utf8))
        try fixture.folder.file("odd/random.txt", Data(random))
        // A megabyte of random printable ASCII meets nearly every ASCII trigram.
        var printable = (0..<(1 << 20)).map { _ in UInt8.random(in: 32...126, using: &generator) }
        printable.replaceSubrange(500_000..<500_013, with: Array(" pelicanword ".utf8))
        try fixture.folder.file("odd/printable.txt", Data(printable))
        let running = await Running(fixture)
        #expect(running.content.progress.phase == .ready)
        // Candidates: the megabyte holds so many trigrams that it is one for most words (a
        // search reads it and finds no match); what matters is that no file holding the word is
        // missing.
        #expect(try running.paths("zebracorn").contains("/odd/broken.txt"))
        #expect(try running.paths("walrusword").contains("/odd/random.txt"))
        #expect(try running.paths("pelicanword") == ["/odd/printable.txt"])
        await running.stop()
    }

    @Test("files saved one at a time are merged into a few segments, which drop what the files said before")
    func mergesSmallSegments() async throws {
        let fixture = try IndexFixture()
        let running = await Running(fixture)
        for round in 0..<2 {
            for number in 0..<40 {
                try fixture.folder.file(
                    "notes/\(number).txt", "note \(number) says \(round == 0 ? "walrus" : "pelican")")
                await running.content.waitUntilIdle()
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let saved = await IndexFixture.eventually {
            (try? running.paths("pelican").count) == 40 && (try? running.paths("walrus")) == []
        }
        #expect(saved != nil, "every file is found by what it says now, none by what it said")
        let store = try ContentStore(readingAt: fixture.cache.path("content.sqlite"), cacheKiB: 256)
        let segments = try store.segments()
        #expect(segments.count < 20, "eighty saves made \(segments.count) segments")
        #expect(
            try running.segmentFiles == segments.map { "\($0.first)-\($0.span).seg" }.sorted(),
            "a file a segment, the merged parts' removed")
        let walrus = TrigramKeys.key(of: Array("wal".utf8))
        #expect(try store.fileCount(holding: walrus) < 40, "merged segments keep no trigram of a file gone")
        await running.stop()
    }

    /// Index files of older schemas: trigram lists in FTS5 (1), a row a trigram (4), a row a block
    /// of trigrams (5).
    static let olderSchemas = [
        """
        CREATE VIRTUAL TABLE body USING fts5(text, tokenize = 'trigram');
        INSERT INTO body (rowid, text) VALUES (1, 'alpha apple');
        PRAGMA user_version = 1;
        """,
        """
        CREATE TABLE segment (first INTEGER PRIMARY KEY, span INTEGER NOT NULL);
        CREATE TABLE posting (first INTEGER NOT NULL, key INTEGER NOT NULL, count INTEGER NOT NULL,
            data BLOB NOT NULL, PRIMARY KEY (first, key)) WITHOUT ROWID;
        INSERT INTO segment VALUES (1, 1);
        PRAGMA user_version = 4;
        """,
        """
        CREATE TABLE segment (first INTEGER PRIMARY KEY, span INTEGER NOT NULL);
        CREATE TABLE posting (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
        INSERT INTO segment VALUES (1, 1);
        PRAGMA user_version = 5;
        """,
    ]

    @Test(
        "an index file of an older schema is made anew and every file read again",
        arguments: olderSchemas.indices)
    func remakesAnOlderSchema(schema: Int) async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        var status = stat()
        #expect(stat(fixture.folder.path("docs/a.txt"), &status) == 0)
        // As the catalog has it: the file would not be read again if the old schema's row stayed.
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        do {
            let old = try SQLiteDatabase(path: fixture.cache.path("content.sqlite"))
            try old.execute(
                """
                CREATE TABLE file (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
                    modified INTEGER NOT NULL, indexed INTEGER NOT NULL);
                CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO info VALUES ('root', '\(fixture.folder.path)');
                INSERT INTO file VALUES (1, '/docs/a.txt', 11, \(modified), 1);
                """ + Self.olderSchemas[schema])
        }
        let running = await Running(fixture)
        let progress = running.content.progress
        #expect(
            progress.filesToRead == progress.textFiles,
            "the file the old schema held is read again, with the rest")
        #expect(try running.paths("apple") == ["/docs/a.txt"])
        let made = try SQLiteDatabase(path: fixture.cache.path("content.sqlite"))
        #expect(try made.pragma("user_version") == Int64(ContentMigrator.latest))
        let tables = try made.prepare(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('body', 'posting')")
        #expect(try tables.step())
        #expect(tables.int64(0) == 0, "the old tables of postings are gone")
        tables.reset()
        let files = try running.segmentFiles
        #expect(files.count == 1, "the postings are a segment's file: \(files)")
        await running.stop()
    }

    @Test("a segment's file left behind by a crash is removed at the next start, and nothing else is")
    func sweepsLeftovers() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        let first = await Running(fixture)
        await first.stop()
        let folder = fixture.cache.path("content.segments")
        let kept = try first.segmentFiles
        #expect(kept.count == 1)
        // Written but not committed, and a temporary file cut short.
        try Data(SegmentFile.encode([])).write(to: URL(fileURLWithPath: folder + "/900-1.seg"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/901-1.seg.tmp"))
        let second = await Running(fixture)
        #expect(second.content.progress.filesToRead == 0, "nothing read again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == kept + ["lock"])
        #expect(try second.paths("apple") == ["/docs/a.txt"])
        await second.stop()
    }

    @Test(
        "a segment's file missing or damaged makes the index anew, every file read again",
        arguments: ["missing", "cut short", "not a segment"])
    func remakesForADamagedSegment(damage: String) async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        try fixture.folder.file("docs/b.txt", "bravo banana")
        let first = await Running(fixture)
        await first.stop()
        let folder = fixture.cache.path("content.segments")
        let names = try first.segmentFiles
        #expect(names.count == 1)
        let path = folder + "/" + names[0]
        switch damage {
        case "missing": try FileManager.default.removeItem(atPath: path)
        case "cut short": #expect(truncate(path, 20) == 0)
        default: try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        }
        let second = await Running(fixture)
        let progress = second.content.progress
        #expect(
            progress.filesToRead == progress.textFiles && progress.textFiles >= 2, "every file read again")
        #expect(try second.paths("apple") == ["/docs/a.txt"])
        #expect(try second.paths("banana") == ["/docs/b.txt"])
        await second.stop()
    }

    @Test("an index file that is not a database is made anew, every file read again")
    func remakesAFileThatIsNotADatabase() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        let garbage = URL(fileURLWithPath: fixture.cache.path("content.sqlite"))
        try Data(repeating: 0x42, count: 8192).write(to: garbage)
        let running = await Running(fixture)
        let progress = running.content.progress
        #expect(progress.phase == .ready)
        #expect(progress.filesToRead == progress.textFiles && progress.textFiles >= 1)
        #expect(try running.paths("apple") == ["/docs/a.txt"])
        await running.stop()
    }

    @Test(
        "an index file another process is writing is left as it is: searching inside files is off, nothing is lost"
    )
    func leavesAFileInUse() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        let first = await Running(fixture)
        let built = first.content.progress.textFiles
        await first.stop()
        let other = try SQLiteDatabase(path: fixture.cache.path("content.sqlite"))
        try other.execute("BEGIN EXCLUSIVE")
        let blocked = await Running(fixture)
        #expect(blocked.content.progress.phase == .stopped, "no content index while the file is busy")
        #expect(try blocked.content.candidates(ContentPattern(text: "apple")) == nil)
        await blocked.stop()
        try other.execute("COMMIT")
        let again = await Running(fixture)
        #expect(again.content.progress.filesToRead == 0, "the file was kept: nothing read again")
        #expect(again.content.progress.textFiles == built)
        #expect(try again.paths("apple") == ["/docs/a.txt"])
        await again.stop()
    }

    @Test("a content index stopped while it builds has let go of its folder when run() returns")
    func stopsWhileBuilding() async throws {
        let fixture = try IndexFixture()
        let text = String(repeating: "alpha apple banana cherry ", count: 400)
        for number in 0..<2000 { try fixture.folder.file("docs/\(number % 20)/\(number).txt", text) }
        let names = fixture.start()
        let content = ContentIndex(
            options: .init(root: fixture.folder.path, storePath: fixture.cache.path("content.sqlite")),
            names: names)
        let task = Task { await content.run() }
        while content.progress.phase == .waiting { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        await task.value
        #expect(content.progress.phase == .stopped)
        let lock = open(fixture.cache.path("content.segments/lock"), O_RDWR)
        #expect(lock >= 0)
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0, "the folder's lock is free at once")
        close(lock)
        await names.stopAndWait()
        let next = await Running(fixture)
        #expect(next.content.progress.phase == .ready)
        #expect(try next.paths("cherry").count == 64, "what the first left undone is read")
        await next.stop()
    }

    @Test("a file whose name is not UTF-8 is read and found, spelled as listings spell it")
    func namesThatAreNotUTF8() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.make(
            systemPath: Array("docs/latin".utf8) + [0xE9] + Array(".txt".utf8),
            contents: Array("latinnameneedle".utf8))
        let running = await Running(fixture)
        #expect(try running.paths("latinnameneedle") == ["/docs/latin\u{FFFD}.txt"])
        await running.stop()
    }

    @Test("the first build's progress counts its own files only: later changes leave it whole")
    func progressStaysWithinItsBuild() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        let running = await Running(fixture)
        let built = running.content.progress
        #expect(built.filesRead == built.filesToRead)
        for round in 0..<3 {
            try fixture.folder.file("docs/a.txt", "alpha apple \(round)")
            try fixture.folder.file("docs/new \(round).txt", "new words")
            try await Task.sleep(for: .milliseconds(100))
            await running.content.waitUntilIdle()
        }
        let later = running.content.progress
        #expect(later.filesRead == built.filesRead && later.filesToRead == built.filesToRead, "\(later)")
        await running.stop()
    }

    @Test("the indexer holds no read transaction open, so the write-ahead log can be checkpointed")
    func checkpoints() async throws {
        let fixture = try IndexFixture()
        try fixture.folder.file("docs/a.txt", "alpha apple")
        let running = await Running(fixture)
        let other = try SQLiteDatabase(path: fixture.cache.path("content.sqlite"))
        let checkpoint = try other.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(try checkpoint.step())
        // busy, frames in the log, frames moved into the database: all of them.
        #expect(checkpoint.int64(0) == 0)
        #expect(checkpoint.int64(1) > 0 && checkpoint.int64(2) == checkpoint.int64(1))
        checkpoint.reset()
        await running.stop()
    }

    @Test("a query without a word of three characters is refused")
    func shortQueries() {
        #expect(throws: SearchIndexError.self) { try ContentPattern(text: "a b") }
        #expect(throws: SearchIndexError.self) { try ContentPattern(regex: "([a", ignoresCase: false) }
    }

    @Test("a query holding a NUL character is refused, not cut short on its way to SQLite")
    func nulCharacters() {
        #expect(throws: SearchIndexError.self) { try ContentPattern(text: "quarter\u{0}ly") }
        #expect(throws: SearchIndexError.self) {
            try ContentPattern(regex: "quarter\u{0}ly", ignoresCase: false)
        }
    }
}

@Suite("Lines that match")
struct ContentMatcherTests {
    @Test("lines holding the phrase come with its place, marked in the original text")
    func phraseLines() throws {
        let matcher = try ContentPattern(text: "quarterly report").matcher()
        let text = "intro\nthe reports are quarterly\nThe Quarterly Report is due\nquarterly reporting"
        let found = try #require(matcher.lines(in: text, limit: 2))
        #expect(found.score == 4)
        #expect(found.lines.map(\.number) == [3, 4])
        let line = found.lines[0]
        #expect(line.matches == [4..<20])
        #expect(found.lines[1].score == 3)
    }

    @Test("accents and case are folded, and offsets count UTF-16 units of the original")
    func foldedOffsets() throws {
        let matcher = try ContentPattern(text: "resume").matcher()
        let found = try #require(matcher.lines(in: "😀 My RÉSUMÉ here", limit: 3))
        let line = found.lines[0]
        let units = Array(line.text.utf16)
        let marked = String(decoding: units[line.matches[0]], as: UTF16.self)
        #expect(marked == "RÉSUMÉ")
    }

    @Test("an ASCII line is looked through unfolded: capitals as small letters, a word at either end")
    func asciiLines() throws {
        func holds(_ line: String, _ needle: String) -> Bool {
            var budget = TimeBudget(until: nil)
            return Array(line.utf8).withUnsafeBufferPointer {
                ContentMatcher.asciiLine($0, holds: Array(needle.utf8), budget: &budget)
            }
        }
        #expect(holds("ZEBRA at the start", "zebra") && holds("at the end: zEbRa", "zebra"))
        #expect(holds("zebra", "zebra") && !holds("zebr", "zebra") && !holds("", "zebra"))
        #expect(holds("@[`{", "`{"), "a byte that is no capital stays itself")
        #expect(!holds("Z@BRA", "z`bra"), "@ is not a capital of `")
        #expect(
            !holds("resume", "r\u{E9}sum\u{E9}"),
            "a needle of other bytes")
        let matcher = try ContentPattern(text: "zebra corn").matcher()
        let found = try #require(
            matcher.lines(in: "nothing\nA ZEBRA\nno\nCorn, ZEBRA CORN!\nr\u{E9}sum\u{E9} zebra", limit: 5))
        #expect(found.lines.map(\.number) == [2, 4, 5])
        #expect(found.lines.map(\.score) == [0, 4, 0] && found.score == 4, "one word, the phrase, one word")
    }

    @Test("a file without every word does not match")
    func everyWord() throws {
        let matcher = try ContentPattern(text: "alpha omega").matcher()
        #expect(matcher.lines(in: "alpha\nbeta", limit: 3) == nil)
        let apart = try #require(matcher.lines(in: "alpha\nomega", limit: 3))
        #expect(apart.score == 0, "the words on different lines")
        let together = try #require(matcher.lines(in: "omega, alpha", limit: 3))
        #expect(together.score == 2, "every word as a whole word on one line")
    }

    @Test("a long line is cut around its match")
    func snippets() throws {
        let matcher = try ContentPattern(text: "needle").matcher()
        let line = String(repeating: "x", count: 1000) + "needle" + String(repeating: "y", count: 1000)
        let found = try #require(matcher.lines(in: line, limit: 1))
        let snippet = found.lines[0]
        #expect(snippet.text.utf16.count == ContentMatcher.snippetLength)
        let units = Array(snippet.text.utf16)
        #expect(String(decoding: units[snippet.matches[0]], as: UTF16.self) == "needle")
    }

    @Test("a long line is cut between characters, never between a letter and its accent")
    func snippetsKeepAccents() throws {
        let matcher = try ContentPattern(text: "needle").matcher()
        // Each é is an e and a combining acute (two UTF-16 units): the cut the length alone picks
        // falls on an accent at both ends.
        let accented = String(repeating: "e\u{301}", count: 1000)
        let found = try #require(matcher.lines(in: "xy" + accented + "needle" + accented, limit: 1))
        let snippet = found.lines[0]
        #expect(snippet.text.unicodeScalars.first == "e" && snippet.text.unicodeScalars.last == "\u{301}")
        #expect(snippet.text.utf16.count <= ContentMatcher.snippetLength)
        let units = Array(snippet.text.utf16)
        #expect(String(decoding: units[snippet.matches[0]], as: UTF16.self) == "needle")
        // A cluster longer than any snippet (a letter and 100,000 accents) is cut between its
        // scalars, at once: walking back to where it began took time quadratic in it (some
        // 10^10 steps, minutes). Alone in a debug build it takes half a second; the bound leaves
        // room for the full parallel run on two cores (CI once took 2.3 s).
        let marks = "a" + String(repeating: "\u{301}", count: 100_000)
        let started = ContinuousClock.now
        let long = try #require(matcher.lines(in: marks + "needle" + marks, limit: 1))
        #expect(ContinuousClock.now - started < .seconds(30))
        let cut = long.lines[0]
        #expect(cut.text.utf16.count <= ContentMatcher.snippetLength && !cut.matches.isEmpty)
        #expect(String(decoding: Array(cut.text.utf16)[cut.matches[0]], as: UTF16.self) == "needle")
    }

    @Test("a regular expression is narrowed by its literal runs and confirmed line by line")
    func regex() throws {
        #expect(RegexLiterals.required(in: #"func\s+load(Data)?\("#) == ["func", "load", "("])
        #expect(RegexLiterals.required(in: "colou?r") == ["colo", "r"])
        #expect(RegexLiterals.required(in: "cat|dog") == [])
        #expect(RegexLiterals.required(in: #"a\.b[xyz]+cde{2}"#) == ["a.b", "cd"])
        let pattern = try ContentPattern(regex: #"load\w*\(\d+\)"#, ignoresCase: false)
        #expect(pattern.indexTrigrams == ["loa", "oad"])
        let found = try #require(pattern.matcher().lines(in: "x\nloadAll(42) and load(7)\nLOAD(1)", limit: 5))
        #expect(found.lines.map(\.number) == [2])
        #expect(found.lines[0].matches == [0..<11, 16..<23])
        let folded = try ContentPattern(regex: #"load\(\d\)"#, ignoresCase: true)
        #expect(folded.matcher().lines(in: "LOAD(1)", limit: 5)?.lines.count == 1)
    }

    @Test(
        "no line holds the matcher past its deadline: a large count on a long line, a word matching everywhere, a long line to fold",
        arguments: ["regex", "word", "fold"])
    func deadlines(case kind: String) throws {
        let pattern: ContentPattern
        let line: String
        switch kind {
        case "regex":
            // Every place starts a thousand threads of the automaton: minutes without a deadline.
            pattern = try ContentPattern(regex: "a{1000}b", ignoresCase: false)
            line = String(repeating: "a", count: 250_000)
        case "word":
            pattern = try ContentPattern(text: "yyy yyyz")
            line = String(repeating: "y", count: 4 << 20)
        default:
            pattern = try ContentPattern(text: "needle")
            line = String(repeating: "\u{E9}", count: 1 << 20) + " needle"
        }
        // A deadline already past: the first look at the clock ends it. Without one, each takes
        // minutes; a debug build on a loaded machine takes up to a second to split and look over
        // 4 MiB even so.
        let started = ContinuousClock.now
        let found = pattern.matcher().lines(in: line, limit: 3, until: started)
        #expect(ContinuousClock.now - started < .seconds(5), "it stops soon after the deadline")
        #expect(found?.complete == false, "and says it did not finish")
        #expect(found?.lines.isEmpty == true)
    }

    @Test("a word given many times is looked for once")
    func repeatedWords() throws {
        let pattern = try ContentPattern(text: String(repeating: "yyy ", count: 127) + "Yyy")
        #expect(pattern.words == [Array("yyy".utf8)])
        #expect(pattern.matcher().lines(in: "a yyy here", limit: 3)?.lines.map(\.number) == [1])
    }

    @Test(
        "an expression is read a scalar at a time: a quantifier or a dot before a combining mark is still one"
    )
    func combiningMarksInExpressions() throws {
        #expect(RegexLiterals.required(in: "xyz.\u{301}abc") == ["xyz", "\u{301}abc"])
        #expect(RegexLiterals.required(in: "Z+\u{301}b") == ["Z", "\u{301}b"])
        let text = "aZ\u{301}b"
        for expression in ["Z+\u{301}b", "a.\u{301}b"] {
            let found = try ContentPattern(regex: expression, ignoresCase: false).matcher().lines(
                in: text, limit: 1)
            #expect(found?.lines.count == 1, "\(expression)")
        }
    }

    @Test("UTF-16 with a byte order mark is text, NUL bytes are not")
    func decoding() {
        #expect(TextDecoding.text(of: [0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9]) == "Aé")
        #expect(TextDecoding.text(of: [0xEF, 0xBB, 0xBF, 0x41]) == "A")
        #expect(TextDecoding.text(of: [0x41, 0x00, 0x42]) == nil)
    }
}
