import ArgumentParser
import BrowseyClient
import QRCode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `browsey pair`: a QR code the Browsey app scans to save a server with its secrets.
struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a QR code that pairs the Browsey app with a server, secrets included.",
        discussion: """
            The code holds JSON, not a URL, so a camera app that scans it opens nothing: \
            {"v":1,"kind":"browsey-pair","url":…,"name":…}, with "token" for a server run with \
            --auth and "access" for one behind an access token (then "v" is 2, and the URL must \
            be https: secrets do not cross a network in the clear). The same text is printed \
            below the code, to paste where no camera is at hand.
            """)

    @Option(
        help: ArgumentHelp(
            "The server's address as the phone reaches it (default: http:// this machine's network address, port 8080).",
            valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp("The name the app shows (default: this machine's host name).", valueName: "name"))
    var name: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the server's access token (default: $BROWSEY_ACCESS_TOKEN).",
            valueName: "path"))
    var accessTokenFile: String?

    @Option(
        help: ArgumentHelp(
            "The server's own --auth token, so the app signs in too (default: the one in --url, if any).",
            valueName: "token"))
    var token: String?

    func run() async throws {
        let payload: PairPayload
        let text: String
        do {
            payload = try makePayload()
        } catch {
            throw ClientExit.failure(error)
        }
        if payload.version == 2, !payload.url.lowercased().hasPrefix("https://") {
            throw ClientExit.refuse(
                "an access token goes in a pair code only with an https URL, not \(payload.url): pass --url https://… (a tunnel's name, or a server run with --https-cert and --https-key)"
            )
        }
        do {
            text = try payload.text()
        } catch {
            throw ClientExit.failure(error)
        }
        let code: QRSymbol
        do {
            code = try QRSymbol(text: text)
        } catch {
            FileHandleText.standardError(
                "Error: the pair code is \(text.utf8.count) bytes, more than a terminal QR code here holds: \(error.message); use a shorter --name, or paste the text below into the app\n"
            )
            print(text)
            throw ExitCode(1)
        }
        var lines = [
            "", "  Browsey pairing", "", "  Server:   \(payload.url)", "  Name:     \(payload.name)",
        ]
        if payload.token != nil { lines.append("  Token:    in the code (Authorization: Bearer)") }
        if payload.access != nil { lines.append("  Access:   in the code (\(APIClient.accessTokenHeader))") }
        lines += [
            "", code.terminalString(border: 2), "", "  Scan in the Browsey app, or paste this text:", text,
        ]
        print(lines.joined(separator: "\n"))
    }

    /// The payload the options describe: the URL's own `?token=` moves into the payload's
    /// `token`, and its path is dropped (a pair code names a server, not a folder).
    func makePayload() throws(BrowseyClientError) -> PairPayload {
        let access = try ClientAccessToken.resolve(file: accessTokenFile)
        let address: String
        if let url { address = url } else { address = try Self.defaultURL() }
        let server = try ServerLink.location(address).server
        return PairPayload(
            url: server.baseURL, name: name ?? Self.hostName(), token: token ?? server.token, access: access)
    }

    /// `http://` this machine's first network address, on `serve`'s default port.
    static func defaultURL() throws(BrowseyClientError) -> String {
        guard let address = NetworkAddress.firstExternalIPv4() else {
            throw BrowseyClientError(
                .invalidInput, "this machine has no network address a phone could reach: pass --url")
        }
        return "http://\(address):8080"
    }

    /// This machine's host name, without its domain.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "Browsey" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = name.split(separator: ".").first.map(String.init) ?? name
        return short.isEmpty ? "Browsey" : short
    }
}
