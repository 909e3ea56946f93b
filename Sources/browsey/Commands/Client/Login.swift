import ArgumentParser
import BrowseyClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `browsey login URL [--user NAME]`: sign in on a server with accounts and print the session's
/// token for the other commands.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in on a server with accounts: browsey login http://host:8080 --user alice",
        discussion: """
            Asks for the password without echo on a terminal (or reads one line of standard \
            input), signs in, and prints the session's token; the other commands take it as \
            --token or $BROWSEY_TOKEN (`export BROWSEY_TOKEN=$(browsey login URL --user NAME)`). \
            The password is never kept.
            """)

    @Argument(help: "The server's URL.")
    var url: String

    @Option(help: "The user name (asked for when missing).")
    var user: String?

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, _) = try options.client(for: url)
        let name: String
        if let user {
            name = user
        } else {
            FileHandleText.standardError("User: ")
            name = readLine(strippingNewline: true) ?? ""
        }
        let password = try Passwd.readPassword(confirming: false)
        let login = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.signIn(username: name, password: password)
        }
        if options.json {
            print(#"{"username":"\#(login.username)","token":"\#(login.token)"}"#)
        } else {
            print(login.token)
            if isatty(STDOUT_FILENO) == 1 {
                FileHandleText.standardError(
                    "Signed in as \(login.username). Use it: export BROWSEY_TOKEN=\(login.token)\n")
            }
        }
    }
}
