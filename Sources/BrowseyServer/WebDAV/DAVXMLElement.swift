/// One element of a parsed WebDAV request body: its qualified name, attributes and children
/// (elements and text, in document order, so a dead property's value is kept as it came).
struct DAVXMLElement: Sendable {
    /// A child: an element or a run of text.
    enum Node: Sendable {
        case element(DAVXMLElement)
        case text(String)
    }

    let name: DAVName
    var attributes: [(name: DAVName, value: String)] = []
    var children: [Node] = []

    /// The child elements, text left out.
    var elements: [DAVXMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element called `name`.
    func child(_ name: DAVName) -> DAVXMLElement? { elements.first { $0.name == name } }

    /// The text directly inside, whitespace at both ends removed.
    var text: String {
        children.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
            .trimmingSpaces()
    }

    /// The children written back as XML that stands alone: every element declares the
    /// namespace it is in (with prefixes of its own), so the text can be put inside any other
    /// element and still mean the same. What a dead property's value is stored as.
    var innerXML: String {
        var output = ""
        for child in children { DAVXMLWriter.write(child, into: &output, depth: 0) }
        return output
    }
}
