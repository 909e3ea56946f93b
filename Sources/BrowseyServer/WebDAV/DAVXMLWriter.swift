/// Writes XML text: escaping, and an element written back with its own namespace
/// declarations (``DAVXMLElement/innerXML``). Responses never use a default namespace: `DAV:`
/// is `D:`, any other is declared with a prefix where it is used, so an unprefixed name is
/// always in no namespace.
enum DAVXMLWriter {
    /// The namespace of `xml:lang` and `xml:space`, bound to the `xml` prefix in every document.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// Text escaped for an element's content or a double-quoted attribute.
    static func escape(_ text: some StringProtocol) -> String {
        guard needsEscaping(text) else { return String(text) }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "&": output += "&amp;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            case "\r": output += "&#13;"
            default:
                // Other control characters cannot appear in XML 1.0 at all.
                if scalar.value < 0x20 { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether ``escape(_:)`` would change `text`.
    static func needsEscaping(_ text: some StringProtocol) -> Bool {
        text.utf8.contains { byte in
            byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte < 0x20
        }
    }

    /// An empty element `name` with the namespace declarations it needs (`D:` for `DAV:`).
    static func emptyElement(_ name: DAVName) -> String {
        if name.isDAV { return "<D:\(name.local)/>" }
        if name.namespace.isEmpty { return "<\(name.local)/>" }
        return "<X:\(name.local) xmlns:X=\"\(escape(name.namespace))\"/>"
    }

    /// `name` holding `innerXML` (already XML), declared as in ``emptyElement(_:)``.
    static func element(_ name: DAVName, innerXML: String) -> String {
        if name.isDAV { return "<D:\(name.local)>\(innerXML)</D:\(name.local)>" }
        if name.namespace.isEmpty { return "<\(name.local)>\(innerXML)</\(name.local)>" }
        return "<X:\(name.local) xmlns:X=\"\(escape(name.namespace))\">\(innerXML)</X:\(name.local)>"
    }

    /// Writes a node of a parsed body back; each element at `depth` gets prefix `pN`.
    static func write(_ node: DAVXMLElement.Node, into output: inout String, depth: Int) {
        switch node {
        case .text(let text):
            output += escape(text)
        case .element(let element):
            let prefix = "p\(depth)"
            let qualified =
                element.name.namespace.isEmpty ? element.name.local : "\(prefix):\(element.name.local)"
            output += "<" + qualified
            if !element.name.namespace.isEmpty {
                output += " xmlns:\(prefix)=\"\(escape(element.name.namespace))\""
            }
            for (index, attribute) in element.attributes.enumerated() {
                if attribute.name.namespace.isEmpty {
                    output += " \(attribute.name.local)=\"\(escape(attribute.value))\""
                } else if attribute.name.namespace == xmlNamespace {
                    // The `xml` prefix is bound by definition and may not be declared again.
                    output += " xml:\(attribute.name.local)=\"\(escape(attribute.value))\""
                } else {
                    let attributePrefix = "a\(depth)x\(index)"
                    output += " xmlns:\(attributePrefix)=\"\(escape(attribute.name.namespace))\""
                    output += " \(attributePrefix):\(attribute.name.local)=\"\(escape(attribute.value))\""
                }
            }
            if element.children.isEmpty {
                output += "/>"
                return
            }
            output += ">"
            for child in element.children { write(child, into: &output, depth: depth + 1) }
            output += "</" + qualified + ">"
        }
    }
}
