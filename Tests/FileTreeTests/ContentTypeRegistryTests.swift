import FileTree
import Testing

@Suite("The content-type registry")
struct ContentTypeRegistryTests {
    let registry = ContentTypeRegistry.standard

    @Test("a Swift file is source code, plain text, text and data")
    func swiftConformance() {
        let type = registry.type(forFileName: "main.swift")
        #expect(type.identifier == "public.swift-source")
        #expect(type.conforms(to: .sourceCode))
        #expect(type.conforms(to: .plainText))
        #expect(type.conforms(to: .text))
        #expect(type.conforms(to: .data))
        #expect(!type.conforms(to: .image))
        #expect(type.isText && type.isSourceCode && !type.isImage)
    }
}
