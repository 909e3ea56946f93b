import ArgumentParser
import BrowseyClient
import BrowseyClientNIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every client command takes: where, how to sign in, how to print.
struct ClientOptions: ParsableArguments {
    @Option(help: "The server's token (default: the one in the URL, or $BROWSEY_TOKEN).")
    var token: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the server's access token, sent as X-Browsey-Access-Token (default: $BROWSEY_ACCESS_TOKEN).",
            valueName: "path"))
    var accessTokenFile: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Accept a self-signed HTTPS certificate.")
    var insecure = false

    @Option(help: "Seconds to wait for an answer.")
    var timeout: Double = 30

    /// The server and the path a URL names, and a client for it.
    func client(for url: String) throws -> (client: APIClient, path: String) {
        let location: ServerLocation
        do {
            location = try ServerLink.location(url)
        } catch {
            throw ClientExit.failure(error)
        }
        var server = location.server
        do {
            server.accessToken = try ClientAccessToken.resolve(file: accessTokenFile)
        } catch {
            throw ClientExit.failure(error)
        }
        if let token {
            server.token = token
        } else if server.token == nil, let environment = getenv("BROWSEY_TOKEN") {
            server.token = String(cString: environment)
        }
        let transport = NIOHTTPTransport(trustsAnyCertificate: insecure)
        let client = APIClient(
            server: server, transport: transport, timeout: .milliseconds(Int(timeout * 1000)))
        return (client, location.path)
    }
}

/// How a client command ends when something went wrong: one line on stderr saying what to do,
/// and an exit status scripts can switch on.
///
/// 1 the server refused (an HTTP error), 2 bad usage, 3 unreachable or timed out,
/// 4 a token (the bearer token or the access token) is needed or wrong, 5 a conflict (changed meanwhile, or the name exists),
/// 6 a local file could not be read or written.
enum ClientExit {
    static func failure(_ error: BrowseyClientError) -> ExitCode {
        var message = error.message
        let status: Int32
        switch error.code {
        case .unreachable, .timedOut: status = 3
        case .unauthorized:
            status = 4
            message += " (--token or $BROWSEY_TOKEN)"
        case .accessToken:
            status = 4
            message += " (--access-token-file or $BROWSEY_ACCESS_TOKEN)"
        case .conflict: status = 5
        case .localFile: status = 6
        case .invalidInput: status = 2
        default: status = 1
        }
        FileHandleText.standardError("Error: \(Output.visible(message))\n")
        return ExitCode(status)
    }

    /// Ends a command that was asked for something it will not do without a flag (a folder
    /// without -r): one `Error:` line, status 2, as for any other invalid input.
    static func refuse(_ message: String) -> ExitCode {
        FileHandleText.standardError("Error: \(message)\n")
        return ExitCode(2)
    }

    /// Runs a client call, ending the command with the right status when it fails.
    static func run<T>(_ body: () async throws(BrowseyClientError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw failure(error)
        }
    }
}

/// Writing to the standard streams without Foundation.
enum FileHandleText {
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
