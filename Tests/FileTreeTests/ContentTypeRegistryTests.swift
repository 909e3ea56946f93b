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

    @Test(
        "every text extension of Browsey's contract is known as text",
        arguments: """
            txt md markdown json js jsx ts tsx mjs cjs html htm css scss sass less xml yaml yml toml ini \
            conf cfg sh bash zsh fish ps1 bat cmd py rb php pl pm lua r go rs java kt kts scala clj cljs c \
            cpp cc cxx h hpp hxx cs fs fsx swift mm m zig nim v odin sql graphql gql env envrc gitignore \
            gitattributes dockerignore editorconfig dockerfile makefile cmake gradle properties log diff \
            patch vue svelte astro hbs ejs pug njk jinja liquid erb twig mustache
            """.split(separator: " ").map(String.init))
    func browseyTextExtensions(ext: String) throws {
        let type = try #require(registry.type(forExtension: ext), "no type for .\(ext)")
        #expect(type.isText, ".\(ext) is \(type.identifier), which is not text")
    }

    @Test("images, videos and audio of the contract have their kinds and MIME types")
    func mediaKinds() {
        for ext in ["png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "avif"] {
            let type = registry.type(forFileName: "picture.\(ext)")
            #expect(type.isImage, "\(ext)")
            #expect(type.preferredMIMEType?.hasPrefix("image/") == true, "\(ext)")
        }
        for ext in ["mp4", "mov", "webm"] {
            #expect(registry.type(forFileName: "clip.\(ext)").isVideo, "\(ext)")
        }
        for ext in ["mp3", "m4a", "wav", "flac", "ogg"] {
            #expect(registry.type(forFileName: "song.\(ext)").isAudio, "\(ext)")
        }
        #expect(registry.type(forFileName: "a.zip").isArchive)
        #expect(registry.type(forFileName: "a.tgz").isArchive)
        #expect(!registry.type(forFileName: "a.png").isText)
    }

    @Test("extensions, types and MIME types map both ways")
    func bothWays() throws {
        let markdown = try #require(registry.type(forExtension: "md"))
        #expect(markdown == .markdown)
        #expect(markdown.preferredFilenameExtension == "md")
        #expect(markdown.preferredMIMEType == "text/markdown")
        #expect(registry.type(forMIMEType: "text/markdown; charset=utf-8") == .markdown)
        #expect(registry.type(forMIMEType: "IMAGE/PNG") == .png)
        #expect(registry["public.png"]?.filenameExtensions.contains("png") == true)
    }

    @Test("extension case does not matter, but the name is kept")
    func caseInsensitive() {
        #expect(registry.type(forFileName: "PHOTO.JPG") == .jpeg)
        #expect(registry.type(forFileName: "Notes.Md") == .markdown)
    }

    @Test("whole file names like Makefile and .gitignore have types")
    func wholeNames() {
        #expect(registry.type(forFileName: "Makefile").identifier == "public.make-source")
        #expect(registry.type(forFileName: "Dockerfile").identifier == "dev.browsey.dockerfile")
        #expect(registry.type(forFileName: ".gitignore").isText)
        #expect(registry.type(forFileName: ".env").isText)
        #expect(registry.type(forFileName: "CMakeLists.txt").identifier == "dev.browsey.cmake-source")
    }

    @Test("unknown files are data and unknown folders are plain folders")
    func unknowns() {
        #expect(registry.type(forFileName: "blob.qqq") == .data)
        #expect(registry.type(forFileName: "no-extension") == .data)
        #expect(registry.type(forFileName: "photos", isDirectory: true) == .folder)
        #expect(registry.type(forFileName: "v1.2", isDirectory: true) == .folder)
    }

    @Test("app bundles, Xcode projects and Pages documents are packages")
    func packages() {
        for name in ["Safari.app", "Thing.bundle", "UIKit.framework", "Browsey.xcodeproj", "Letter.pages"] {
            #expect(registry.isPackage(folderName: name), "\(name)")
            #expect(registry.type(forFileName: name, isDirectory: true).isPackage, "\(name)")
        }
        #expect(!registry.isPackage(folderName: "Documents"))
        // A file named like a package is not a package.
        #expect(!registry.type(forFileName: "weird.app").isPackage)
    }

    @Test("an app registers its own package and flat-file types")
    func registration() throws {
        var registry = ContentTypeRegistry.standard
        try registry.register(
            ContentTypeDeclaration(
                identifier: "com.example.sketch", conformsTo: ["com.apple.package"],
                filenameExtensions: ["sketchbook"], description: "Sketchbook"))
        try registry.register(
            ContentTypeDeclaration(
                identifier: "com.example.palette", conformsTo: ["public.json"],
                filenameExtensions: ["palette"], mimeTypes: ["application/x-palette+json"]))
        #expect(registry.isPackage(folderName: "Cat.sketchbook"))
        let palette = registry.type(forFileName: "warm.palette")
        #expect(palette.identifier == "com.example.palette")
        #expect(palette.conforms(to: .json) && palette.conforms(to: .text))
        #expect(registry.type(forMIMEType: "application/x-palette+json") == palette)
        // The shared standard registry is untouched.
        #expect(!ContentTypeRegistry.standard.isPackage(folderName: "Cat.sketchbook"))
    }

    @Test("registering a type under an unknown supertype is refused with a clear error")
    func unknownParent() {
        var registry = ContentTypeRegistry.standard
        #expect(throws: FileTreeError.self) {
            try registry.register(
                ContentTypeDeclaration(identifier: "com.example.x", conformsTo: ["com.example.none"]))
        }
        do {
            try registry.register(
                ContentTypeDeclaration(identifier: "com.example.x", conformsTo: ["com.example.none"]))
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("com.example.none"))
        }
    }
}
