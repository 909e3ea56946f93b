import Foundation
import QRCode
import TestSupport
import Testing

@Suite("The QR encoder, checked by an independent decoder")
struct QREncoderTests {
    /// Decodes a PNG with zbar's `zbarimg` (Debian's zbar-tools, installed by Scripts/test).
    static func decode(_ code: QRSymbol, in folder: TemporaryFolder, name: String) throws -> String {
        let image = try folder.file("\(name).png", code.pngData(scale: 4))
        let decoded = try SpawnedProcess.run(
            "/usr/bin/zbarimg", ["--raw", "-q", "-Sbinary", image], output: .standardOutput)
        guard decoded.status == 0 else { throw TestSupportError("zbarimg found no code in \(name)") }
        return decoded.output
    }

    static let urls: [String] = {
        var urls = [
            "http://192.168.1.23:8080/", "http://10.0.0.2:80/", "https://nas.local:8443/?token=abc123",
            "http://[fe80::1]:8080/", "http://192.168.178.100:65535/Documents/Caf%C3%A9%20menu.txt",
            "a", "HTTP://EXAMPLE.COM", "http://host/#fragment?x=1&y=2",
        ]
        // Lengths that land on and around every version boundary, 1 to 213 bytes.
        for length in [
            14, 15, 26, 27, 42, 43, 62, 63, 84, 85, 106, 107, 122, 123, 152, 153, 180, 181, 212, 213,
        ] {
            let base = "http://192.168.1.23:8080/?token="
            let filler = String(
                (0..<max(0, length - base.count)).map { index in
                    Array("abcdefghijklmnopqrstuvwxyz0123456789")[(index * 7 + length) % 36]
                })
            urls.append(String((base + filler).prefix(length)))
        }
        return urls
    }()

    @Test("every URL decodes back to itself, whatever its length and version", arguments: urls)
    func roundTrip(url: String) throws {
        let folder = try TemporaryFolder()
        let code = try QRSymbol(text: url)
        #expect(try Self.decode(code, in: folder, name: "code") == url)
    }

    @Test("the smallest version that holds the bytes is chosen")
    func versions() throws {
        #expect(try QRSymbol(text: String(repeating: "a", count: 14)).version == 1)
        #expect(try QRSymbol(text: String(repeating: "a", count: 15)).version == 2)
        #expect(try QRSymbol(text: "http://192.168.1.23:8080/").version == 2)
        #expect(try QRSymbol(text: String(repeating: "a", count: 213)).version == 10)
        #expect(try QRSymbol(text: String(repeating: "a", count: 213)).size == 57)
    }

    @Test("too much text is refused with a clear error")
    func tooLong() {
        #expect {
            try QRSymbol(text: String(repeating: "a", count: 214))
        } throws: { error in
            (error as? QRCodeError)?.code == .tooLong
                && (error as? QRCodeError)?.message.contains("214") == true
        }
    }

    @Test("the mask is the one with the lowest penalty, and codes differ by mask")
    func masks() throws {
        let masks = Set(try Self.urls.map { try QRSymbol(text: $0).mask })
        #expect(masks.count > 1, "several masks are chosen across inputs")
    }

    @Test("the terminal drawing has two modules a line, with a quiet zone")
    func terminal() throws {
        let code = try QRSymbol(text: "http://192.168.1.23:8080/")
        let lines = code.terminalString(border: 2, colors: false).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(lines.first?.allSatisfy { $0 == " " } == true, "the quiet zone is light")
        #expect(code.terminalString().hasPrefix("\u{1B}[30;47m"))
    }
}
