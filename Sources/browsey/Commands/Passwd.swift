import ArgumentParser
import BrowseyServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey passwd USER [--config FILE]`: hash a password for the accounts file.
struct Passwd: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set a user's password in an accounts file, or print its hash.",
        discussion: """
            Asks for the password twice on a terminal (without echo), or reads one line from \
            standard input. With --config the user is added to the file or their password \
            replaced (which ends their sessions); without it the hash is printed, to paste as \
            the user's "password". Only a slow, salted scrypt hash is ever stored.
            """
    )

    @Argument(help: "The user name (letters, digits, . _ -).")
    var user: String

    @Option(help: ArgumentHelp("The accounts file to update (made when missing).", valueName: "file"))
    var config: String?

    @Flag(help: "With --config: make the user an administrator (everything, everywhere).")
    var admin = false

    func validate() throws {
        guard Accounts.isValidName(user) else {
            throw ValidationError("A user name takes 1 to 64 letters, digits, '.', '_' or '-'.")
        }
        if admin, config == nil { throw ValidationError("--admin needs --config.") }
    }

    func run() throws {
        let password = try Self.readPassword()
        guard !password.isEmpty else {
            throw CommandFailure(.accountsUnreadable, "An empty password is not a password.")
        }
        let hash = try PasswordHash.make(password: password).description
        guard let config else {
            print(hash)
            return
        }
        var file = AccountsFile()
        if access(config, F_OK) == 0 {
            do {
                let bytes = try AccountsFileText.contents(of: config)
                file = try JSONDecoder().decode(AccountsFile.self, from: Data(bytes))
            } catch let failure as AccountsFileText.Failure {
                throw CommandFailure(.accountsUnreadable, "\(config): \(failure.message)")
            } catch {
                throw CommandFailure(.accountsUnreadable, "\(config) is not an accounts file: \(error)")
            }
        }
        let wasAdmin = file.users[user]?.admin
        file.users[user] = AccountsFile.User(password: hash, admin: admin ? true : wasAdmin)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try AccountsFileText.replace(config, with: Array(try encoder.encode(file)) + [UInt8(ascii: "\n")])
        } catch let failure as AccountsFileText.Failure {
            throw CommandFailure(.accountsUnreadable, "\(config): \(failure.message)")
        }
        print("Set the password of \(user) in \(config); restart the server to use it.")
    }

    /// The password: asked twice (once unless `confirming`) without echo on a terminal, else the
    /// first line of input.
    static func readPassword(confirming: Bool = true) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) ?? "" }
        let first = try ask("Password: ")
        guard confirming else { return first }
        let second = try ask("Again: ")
        guard first == second else { throw CommandFailure(.accountsUnreadable, "The two passwords differ.") }
        return first
    }

    private static func ask(_ prompt: String) throws -> String {
        FileHandleText.standardError(prompt)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandleText.standardError("\n")
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
