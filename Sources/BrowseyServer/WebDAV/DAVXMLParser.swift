import CExpat

/// Parses a WebDAV request body (PROPFIND, PROPPATCH, LOCK) with Expat into a small tree.
///
/// Foundation's `XMLParser` is out of reach (the server links no Foundation), so the body goes
/// to the system's Expat: small, maintained, streaming. What a hostile body could do is refused
/// before it starts: a document type declaration ends the parse (so no entity is ever declared,
/// internal or external: no XXE, no "billion laughs"), parameter entities are never parsed, and
/// the body's size, the elements' depth and their number are bounded.
struct DAVXMLParser {
    /// Why a body was refused; each is a 400 to the client.
    enum Failure: Error, Equatable {
        /// Not well-formed XML (or bad namespaces): Expat's message.
        case malformed(String)
        /// A document type declaration: entities are refused outright.
        case documentType
        /// Deeper than ``maximumDepth`` or more elements than ``maximumElements``.
        case tooComplex
    }

    /// The largest body read; more is refused with 413 by the caller.
    static let maximumBytes = 1 << 20
    /// Nesting deeper than this is refused.
    static let maximumDepth = 64
    /// More elements than this is refused.
    static let maximumElements = 50_000

    /// The root element of `bytes`.
    static func parse(_ bytes: some Collection<UInt8>) throws(Failure) -> DAVXMLElement {
        guard let parser = XML_ParserCreateNS(nil, CChar(bitPattern: separator)) else {
            throw .malformed("The XML parser could not start")
        }
        defer { XML_ParserFree(parser) }
        let state = State()
        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }
        XML_SetUserData(parser, unmanaged.toOpaque())
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetStartDoctypeDeclHandler(parser) { data, _, _, _, _ in
            let state = State.from(data)
            state.stop(.documentType)
        }
        XML_SetEntityDeclHandler(parser) { data, _, _, _, _, _, _, _, _ in
            let state = State.from(data)
            state.stop(.documentType)
        }
        XML_SetElementHandler(
            parser,
            { data, name, attributes in
                let state = State.from(data)
                guard state.failure == nil, let name else { return }
                state.elementCount += 1
                if state.stack.count >= DAVXMLParser.maximumDepth
                    || state.elementCount > DAVXMLParser.maximumElements
                {
                    state.stop(.tooComplex)
                    return
                }
                var element = DAVXMLElement(name: DAVXMLParser.name(name))
                var index = 0
                while let attributes, let key = attributes[index], let value = attributes[index + 1] {
                    element.attributes.append((DAVXMLParser.name(key), String(cString: value)))
                    index += 2
                }
                state.stack.append(element)
            },
            { data, _ in
                let state = State.from(data)
                guard state.failure == nil, let element = state.stack.popLast() else { return }
                if state.stack.isEmpty {
                    state.root = element
                } else {
                    state.stack[state.stack.count - 1].children.append(.element(element))
                }
            })
        XML_SetCharacterDataHandler(parser) { data, characters, length in
            let state = State.from(data)
            guard state.failure == nil, !state.stack.isEmpty, let characters, length > 0 else { return }
            let text = characters.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
            }
            let last = state.stack.count - 1
            if case .text(let before) = state.stack[last].children.last {
                state.stack[last].children[state.stack[last].children.count - 1] = .text(before + text)
            } else {
                state.stack[last].children.append(.text(text))
            }
        }
        state.parser = parser
        let bytes = Array(bytes)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                XML_Parse(parser, $0.baseAddress, Int32($0.count), 1)
            }
        }
        if let failure = state.failure { throw failure }
        guard status == XML_STATUS_OK, let root = state.root else {
            let message = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "bad XML"
            throw .malformed(message)
        }
        return root
    }

    /// The byte between a namespace and a local name in the names Expat reports.
    private static let separator: UInt8 = 0x01

    /// `namespace␁local` (or `local` alone) as a ``DAVName``.
    private static func name(_ raw: UnsafePointer<CChar>) -> DAVName {
        let text = String(cString: raw)
        guard let split = text.utf8.firstIndex(of: separator) else { return DAVName("", text) }
        return DAVName(String(text[..<split]), String(text[text.utf8.index(after: split)...]))
    }

    /// What the callbacks build, reached through Expat's user data.
    private final class State {
        var parser: XML_Parser?
        var stack: [DAVXMLElement] = []
        var root: DAVXMLElement?
        var failure: Failure?
        var elementCount = 0

        /// Records why the parse fails and stops it.
        func stop(_ reason: Failure) {
            failure = reason
            if let parser { XML_StopParser(parser, XML_Bool(0)) }
        }

        static func from(_ data: UnsafeMutableRawPointer?) -> State {
            // swift-format-ignore: NeverForceUnwrap
            // Expat hands back the user data it was given, which is never nil.
            Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
        }
    }
}
