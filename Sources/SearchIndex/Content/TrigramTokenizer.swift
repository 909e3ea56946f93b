import GRDBSQLite

/// The content index's FTS5 tokenizer, `browsey_trigram`: every run of three characters of a
/// file's text, as SQLite's own `trigram` tokenizer cuts them, but each distinct one once per
/// file. The index keeps no places (`detail=none`), so a trigram's second and later places in a
/// file would only be looked up in FTS5's table of pending terms to be dropped again; a 13 KB file
/// of prose holds about 13,000 trigrams and 3,000 distinct ones. The text arrives folded (see
/// ``NameFolding``), so the tokenizer folds nothing.
///
/// Registered on each connection to the index file (``register(on:)``) before its table is used.
enum TrigramTokenizer {
    /// The name tables are made with (`tokenize = 'browsey_trigram'`).
    static let name = "browsey_trigram"

    /// Registers the tokenizer on the connection `handle`.
    ///
    /// - Throws: ``SearchIndexError`` `.cannotOpen` when this SQLite has no FTS5.
    static func register(on handle: OpaquePointer) throws(SearchIndexError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SearchIndexError(.cannotOpen, "This SQLite has no FTS5, which the content index needs")
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        withUnsafeMutablePointer(to: &api) { pointer in
            // FTS5 compares the type by address's contents when the statement runs: a static string.
            Self.apiPointerType.utf8Start.withMemoryRebound(to: CChar.self, capacity: 13) { type in
                _ = sqlite3_bind_pointer(statement, 1, pointer, type, nil)
                _ = sqlite3_step(statement)
            }
        }
        guard let api else {
            throw SearchIndexError(.cannotOpen, "This SQLite has no FTS5, which the content index needs")
        }
        var tokenizer = fts5_tokenizer(xCreate: create, xDelete: delete, xTokenize: tokenize)
        let status = api.pointee.xCreateTokenizer(api, name, nil, &tokenizer, nil)
        guard status == SQLITE_OK else {
            throw SearchIndexError(
                .cannotOpen, "Cannot register the content index's tokenizer (error \(status))")
        }
    }

    private static let apiPointerType: StaticString = "fts5_api_ptr"

    /// What one tokenizer keeps between files: which three-byte ASCII trigrams the current file
    /// has given already (one bit each of 2^21), and which bits to clear after it.
    final class Seen {
        var bits = [UInt64](repeating: 0, count: 1 << 15)
        var set: [Int32] = []
    }

    private static let create:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32 = { _, _, _, out in
            out?.pointee = OpaquePointer(Unmanaged.passRetained(Seen()).toOpaque())
            return SQLITE_OK
        }

    private static let delete: @convention(c) (OpaquePointer?) -> Void = { tokenizer in
        guard let tokenizer else { return }
        Unmanaged<Seen>.fromOpaque(UnsafeRawPointer(tokenizer)).release()
    }

    private typealias TokenCallback =
        @convention(c) (
            UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32
        ) -> Int32

    private static let tokenize:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?
        ) -> Int32 = { tokenizer, context, flags, text, count, token in
            guard let tokenizer, let text, let token, count > 0 else { return SQLITE_OK }
            let seen = Unmanaged<Seen>.fromOpaque(UnsafeRawPointer(tokenizer)).takeUnretainedValue()
            let once = flags & FTS5_TOKENIZE_DOCUMENT != 0
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            let status = seen.bits.withUnsafeMutableBufferPointer { bits in
                Self.trigrams(of: bytes, count: Int(count), once: once, bits: bits, set: &seen.set) {
                    start, end in
                    token(context, 0, text + start, Int32(end - start), Int32(start), Int32(end))
                }
            }
            for id in seen.set { seen.bits[Int(id) >> 6] = 0 }
            seen.set.removeAll(keepingCapacity: true)
            return status
        }

    /// Calls `give` with the byte range of every run of three characters of `bytes` (a byte that
    /// does not start a UTF-8 character counts as one), in order, stopping at the first status
    /// other than `SQLITE_OK`, which it returns. With `once`, an all-ASCII run already given is
    /// not given again; `bits` and `set` remember which were (the caller clears them).
    @inline(__always)
    static func trigrams(
        of bytes: UnsafePointer<UInt8>, count: Int, once: Bool, bits: UnsafeMutableBufferPointer<UInt64>,
        set: inout [Int32], give: (Int, Int) -> Int32
    ) -> Int32 {
        var first = -1
        var second = -1
        var index = 0
        while index < count {
            let start = index
            let byte = bytes[index]
            index += byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            if index > count { index = count }
            if first >= 0 {
                if once && index - first == 3 && (bytes[first] | bytes[first + 1] | bytes[first + 2]) < 0x80 {
                    let id = Int(bytes[first]) << 14 | Int(bytes[first + 1]) << 7 | Int(bytes[first + 2])
                    let bit: UInt64 = 1 << UInt64(id & 63)
                    if bits[id >> 6] & bit != 0 {
                        first = second
                        second = start
                        continue
                    }
                    bits[id >> 6] |= bit
                    set.append(Int32(id))
                }
                let status = give(first, index)
                guard status == SQLITE_OK else { return status }
            }
            first = second
            second = start
        }
        return SQLITE_OK
    }
}
