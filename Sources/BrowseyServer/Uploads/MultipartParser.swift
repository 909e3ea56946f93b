import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `multipart/form-data` body as it streams in, with memory bounded by the largest
/// header block (16 KiB) plus one chunk, however large the files.
///
/// Feed it the body's buffers in order; it calls back with each part's headers, its bytes in
/// pieces, and its end. Written here rather than taken from MultipartKit, whose module imports
/// all of Foundation (and ICU) into the server (see `Docs/Design.md`).
struct MultipartParser {
    /// What the parser found.
    enum Event {
        /// A part starts; its headers, names lowercased.
        case partStart(headers: [String: String])
        /// A piece of the current part's body.
        case body(ByteBuffer)
        /// The current part is complete.
        case partEnd
    }

    /// Why a body is not multipart.
    enum Failure: Error, Equatable {
        case malformed(String)
    }

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case body
        case done
    }

    static let maximumHeaderBytes = 16 * 1024

    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes received but not yet consumed (a partial delimiter or header block).
    private var pending = ByteBuffer()

    /// A parser for the boundary in `contentType` (`multipart/form-data; boundary=…`); `nil`
    /// when there is none.
    init?(contentType: String) {
        guard let boundary = Self.boundary(in: contentType) else { return nil }
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter has no line break before it: start as if one had been read.
        pending.writeBytes([13, 10])
    }

    /// Whether the closing delimiter has been read.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Consumes one buffer of the body.
    mutating func feed(_ buffer: ByteBuffer, _ handle: (Event) throws -> Void) throws {
        var incoming = buffer
        pending.writeBuffer(&incoming)
        while try step(handle) {}
        if pending.readerIndex > 64 * 1024 { pending.discardReadBytes() }
    }

    /// Ends the body: an error when the closing delimiter never came.
    func finish() throws {
        guard isComplete else { throw Failure.malformed("The body ended before the closing boundary") }
    }

    /// One move of the state machine; false when it needs more bytes.
    private mutating func step(_ handle: (Event) throws -> Void) throws -> Bool {
        switch state {
        case .preamble:
            guard let index = find(delimiter) else {
                // Keep only what could still start a delimiter.
                let keep = min(pending.readableBytes, delimiter.count - 1)
                pending.moveReaderIndex(forwardBy: pending.readableBytes - keep)
                return false
            }
            pending.moveReaderIndex(forwardBy: index + delimiter.count)
            state = .afterDelimiter
            return true
        case .afterDelimiter:
            guard pending.readableBytes >= 2,
                let first = pending.getInteger(at: pending.readerIndex, as: UInt16.self)
            else { return false }
            if first == UInt16(0x2D2D) {  // "--": the closing delimiter
                pending.moveReaderIndex(forwardBy: pending.readableBytes)
                state = .done
                return false
            }
            // Transport padding (spaces, tabs) may follow a delimiter before its line break.
            guard let lineEnd = find([13, 10]) else {
                if pending.readableBytes > 256 { throw Failure.malformed("Garbage after a boundary") }
                return false
            }
            pending.moveReaderIndex(forwardBy: lineEnd + 2)
            state = .headers
            return true
        case .headers:
            guard let end = find([13, 10, 13, 10]) else {
                if pending.readableBytes > Self.maximumHeaderBytes {
                    throw Failure.malformed("Part headers too large")
                }
                // A part with no headers at all starts with the empty line.
                if pending.readableBytes >= 2,
                    pending.getInteger(at: pending.readerIndex, as: UInt16.self) == 0x0D0A
                {
                    pending.moveReaderIndex(forwardBy: 2)
                    try handle(.partStart(headers: [:]))
                    state = .body
                    return true
                }
                return false
            }
            let block = pending.readString(length: end) ?? ""
            pending.moveReaderIndex(forwardBy: 4)
            try handle(.partStart(headers: Self.headers(block)))
            state = .body
            return true
        case .body:
            if let index = find(delimiter) {
                if index > 0, let piece = pending.readSlice(length: index) { try handle(.body(piece)) }
                pending.moveReaderIndex(forwardBy: delimiter.count)
                try handle(.partEnd)
                state = .afterDelimiter
                return true
            }
            // Everything but a tail that could begin a delimiter is part of the body.
            let safe = pending.readableBytes - (delimiter.count - 1)
            if safe > 0, let piece = pending.readSlice(length: safe) { try handle(.body(piece)) }
            return false
        case .done:
            pending.moveReaderIndex(forwardBy: pending.readableBytes)  // the epilogue is ignored
            return false
        }
    }

    /// The offset of `pattern` in the unread bytes, found by `memchr` on its first byte.
    private func find(_ pattern: [UInt8]) -> Int? {
        pending.withUnsafeReadableBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, bytes.count >= pattern.count else { return nil }
            var offset = 0
            let last = bytes.count - pattern.count
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(pattern[0]), last - offset + 1) else {
                    return nil
                }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, pattern, pattern.count) == 0 { return position }
                offset = position + 1
            }
            return nil
        }
    }

    /// The header lines of a part, names lowercased.
    static func headers(_ block: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in block.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingSpaces().lowercased()] = line[line.index(after: colon)...]
                .trimmingSpaces()
        }
        return headers
    }

    /// The `boundary` parameter of a `multipart/…` content type.
    static func boundary(in contentType: String) -> String? {
        guard contentType.trimmingSpaces().lowercased().hasPrefix("multipart/") else { return nil }
        guard let value = parameters(contentType).first(where: { $0.key == "boundary" })?.value,
            !value.isEmpty, value.utf8.count <= 200
        else { return nil }
        return value
    }

    /// The `name` and `filename` of a `Content-Disposition: form-data` header (`filename*` in
    /// RFC 5987 form is preferred when present).
    static func disposition(_ header: String) -> (name: String?, filename: String?) {
        var name: String?
        var filename: String?
        var extended: String?
        for parameter in Self.parameters(header) {
            switch parameter.key {
            case "name": name = parameter.value
            case "filename":
                // Browsers write `"`, CR and LF in a file name as %22, %0D, %0A (and nothing else
                // escaped: a backslash is part of the name, as old Windows browsers sent paths).
                filename = parameter.value.replacing("%22", with: "\"").replacing("%0D", with: "\r")
                    .replacing("%0A", with: "\n")
            case "filename*":
                // UTF-8''percent-encoded
                if let quote = parameter.value.firstRange(of: "''") {
                    extended = Self.percentDecoded(String(parameter.value[quote.upperBound...]))
                }
            default: break
            }
        }
        return (name, extended ?? filename)
    }

    /// `key=value` parameters after the first `;`, values unquoted (a `;` inside quotes kept).
    private static func parameters(_ header: String) -> [(key: String, value: String)] {
        var result: [(String, String)] = []
        var current = ""
        var quoted = false
        var pieces: [String] = []
        for character in header {
            if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            guard pair.count == 2 else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            result.append((pair[0].lowercased(), value))
        }
        return result
    }

    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
