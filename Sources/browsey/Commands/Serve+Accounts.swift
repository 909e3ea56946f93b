import BrowseyServer
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Serve {
    /// Reads the accounts file into `configuration`, with the data folder (sessions, the audit
    /// log) beside the other per-root folders.
    static func useAccounts(
        from file: String, in configuration: inout ServerConfiguration, auditLog: String?, logger: Logger
    ) throws {
        let bytes: [UInt8]
        do {
            bytes = try AccountsFileText.contents(of: file)
        } catch {
            throw CommandFailure(.accountsUnreadable, "--config \(file): \(error.message)")
        }
        do {
            configuration.accounts = try Accounts(json: bytes)
        } catch {
            throw CommandFailure(.accountsUnreadable, "--config \(file): \(error.message)")
        }
        if let folder = DataLocation.defaultFolder(forRoot: configuration.root), DataLocation.make(folder) {
            configuration.sessionDatabasePath = folder + "/sessions.sqlite"
            configuration.auditLogPath = folder + "/audit.log"
        } else {
            logger.warning("No data folder outside the served folder: sessions last until the server stops")
        }
        if let auditLog {
            configuration.auditLogPath = auditLog.hasPrefix("/") ? auditLog : currentFolder() + "/" + auditLog
        }
    }
}
