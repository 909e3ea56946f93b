// Saves one document over and over through DocumentStore, printing "saved N" after each save,
// until it is killed (or its parent is gone): the crash test (DocumentStoreCrashTests) kills it mid-save and checks that
// the file on disk is one whole version.
//
// Usage: DocumentSaveProbe file|package PATH
import DocumentBrowser
import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A document that is one version number, written large enough that a save takes a while: a
/// file of `version N\n` and 256 KiB of the byte N % 256, or a package of four such parts.
struct Versioned: BrowserDocument {
    static var readableContentTypes: [ContentType] { [.data, .folder] }
    var version: Int
    var isPackage: Bool

    init(version: Int, isPackage: Bool) {
        self.version = version
        self.isPackage = isPackage
    }

    init(configuration: DocumentReadConfiguration) throws {
        isPackage = configuration.file.isPackage
        let part = configuration.file.fileWrappers?["part-0"] ?? configuration.file
        let bytes = part.regularFileContents ?? []
        let header = bytes.prefix { $0 != 10 }
        version = Int(String(decoding: header.dropFirst("version ".count), as: UTF8.self)) ?? 0
    }

    func fileWrapper(configuration: DocumentWriteConfiguration) throws -> DocumentWrapper {
        let bytes =
            Array("version \(version)\n".utf8) + [UInt8](repeating: UInt8(version % 256), count: 256 << 10)
        guard isPackage else { return .file(bytes) }
        return .package(
            Dictionary(uniqueKeysWithValues: (0..<4).map { ("part-\($0)", DocumentWrapper.file(bytes)) }))
    }
}

/// Writes a line to standard output at once (no buffer to lose when killed).
func say(_ line: String, to descriptor: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[1] == "file" || arguments[1] == "package" else {
    say("usage: DocumentSaveProbe file|package PATH", to: 2)
    exit(2)
}
let isPackage = arguments[1] == "package"
let path = arguments[2]
// The test that started this probe kills it; if that test's process dies first (a crash), the
// probe must not save on forever: it stops when it is given to another parent.
let parent = getppid()
let store: DocumentStore<Versioned>
do {
    if (try? DirectoryReader().entry(at: path)) != nil {
        store = try await DocumentStore<Versioned>.open(at: path)
    } else {
        store = DocumentStore(newDocument: Versioned(version: 0, isPackage: isPackage), contentType: .data)
        try await store.save(to: path)
    }
} catch {
    say("error: \(error)")
    exit(1)
}
say("ready \(store.document.version)")
var version = store.document.version
while getppid() == parent {
    version += 1
    store.replaceDocument(Versioned(version: version, isPackage: isPackage))
    do {
        try await store.save()
    } catch {
        say("error: \(error)")
        exit(1)
    }
    say("saved \(version)")
}
