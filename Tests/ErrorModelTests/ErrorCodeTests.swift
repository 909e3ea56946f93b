import BrowseyClient
import DocumentBrowser
import ErrorModel
import FileTree
import QRCode
import SearchIndex
import ServiceDiscovery
import Testing
import Thumbnails

/// Every module's closed code set, by the name of the error that uses it.
private let codeSets: [(error: String, names: [String])] = [
    ("FileTreeError", FileTreeError.Code.allCases.map(\.description)),
    ("SearchIndexError", SearchIndexError.Code.allCases.map(\.description)),
    ("QRCodeError", QRCodeError.Code.allCases.map(\.description)),
    ("ServiceDiscoveryError", ServiceDiscoveryError.Code.allCases.map(\.description)),
    ("DocumentBrowserError", DocumentBrowserError.Code.allCases.map(\.description)),
    ("BrowseyClientError", BrowseyClientError.Code.allCases.map(\.description)),
    ("ThumbnailError", ThumbnailError.Code.allCases.map(\.description)),
]

/// An error that is also an HTTP answer, as the server's is: the status beside the code.
private struct AnswerError: CodedError {
    struct Code: ErrorCode {
        static let notFound = Code(.notFound)
        var description: String { wrapped.rawValue }
        static var allCases: [Code] { Wrapped.allCases.map(Code.init) }
        private enum Wrapped: String, CaseIterable { case notFound }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
    }

    let status: Int
    let code: Code
    let message: String
}

@Suite("Error codes")
struct ErrorCodeTests {
    @Test("every module's codes have distinct names", arguments: codeSets.map(\.error))
    func distinctNames(error: String) throws {
        let names = try #require(codeSets.first { $0.error == error }).names
        #expect(!names.isEmpty)
        #expect(Set(names).count == names.count, "\(error) repeats a code name: \(names)")
    }

    @Test("every code's name is a plain identifier", arguments: codeSets.map(\.error))
    func identifierNames(error: String) throws {
        let names = try #require(codeSets.first { $0.error == error }).names
        for name in names {
            let first = try #require(name.first)
            #expect(first.isLowercase && name.allSatisfy { $0.isLetter || $0.isNumber }, "\(error): \(name)")
        }
    }

    @Test("codes keep the names logs and messages have always shown")
    func stableNames() {
        #expect(FileTreeError.Code.notFound.description == "notFound")
        #expect(FileTreeError.Code.alreadyExists.description == "alreadyExists")
        #expect(SearchIndexError.Code.newerVersion.description == "newerVersion")
        #expect(QRCodeError.Code.tooLong.description == "tooLong")
        #expect(ServiceDiscoveryError.Code.responderUnavailable.description == "responderUnavailable")
        #expect(DocumentBrowserError.Code.changedOnDisk.description == "changedOnDisk")
        #expect(BrowseyClientError.Code.httpStatus.description == "httpStatus")
    }

    @Test("a code is switchable and equal only to itself")
    func switchable() {
        func kind(_ code: FileTreeError.Code) -> String {
            switch code {
            case .notFound: "missing"
            case .permissionDenied: "refused"
            default: "other"
            }
        }
        #expect(kind(.notFound) == "missing")
        #expect(kind(.permissionDenied) == "refused")
        #expect(kind(.noSpace) == "other")
        #expect(FileTreeError.Code.notFound != .notADirectory)
    }

    @Test("an error describes itself as its code, its message and its cause")
    func description() {
        let plain = QRCodeError(.tooLong, "300 bytes do not fit")
        #expect("\(plain)" == "tooLong: 300 bytes do not fit")
        let wrapped = DocumentBrowserError(.unreadable, "Notes.txt could not be read", cause: plain)
        #expect("\(wrapped)" == "unreadable: Notes.txt could not be read (tooLong: 300 bytes do not fit)")
        let file = FileTreeError(.notFound, "No such file or folder", path: "/tmp/gone")
        #expect("\(file)" == "notFound: No such file or folder (/tmp/gone)")
    }

    @Test("any module's error reads the same through the protocol")
    func throughTheProtocol() {
        let errors: [any CodedError] = [
            FileTreeError(.noSpace, "Disk full"),
            ServiceDiscoveryError(.timedOut, "No answer"),
            BrowseyClientError(.unauthorized, "Token refused"),
        ]
        #expect(errors.map { "\($0.code)" } == ["noSpace", "timedOut", "unauthorized"])
        #expect(errors.map(\.message) == ["Disk full", "No answer", "Token refused"])
        #expect(errors.allSatisfy { $0.cause == nil })
    }

    @Test("an error that carries an HTTP status adopts the protocol unchanged")
    func withStatus() {
        let answer = AnswerError(status: 404, code: .notFound, message: "File not found")
        let error: any CodedError = answer
        #expect("\(error)" == "notFound: File not found")
        #expect((error as? AnswerError)?.status == 404)
    }
}
