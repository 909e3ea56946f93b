import BrowseyServer
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Serve {
    /// The database of `--database` (or `$BROWSEY_DATABASE_URL`), reached before the server
    /// listens: an instance that started without it would hold no sign-in and tell clients
    /// another identity than its siblings, so an unreachable database is an `Error:` line here
    /// (later outages are answered 503 and recovered from).
    func useDatabase(in configuration: inout ServerConfiguration, logger: Logger) async throws {
        let variable = getenv("BROWSEY_DATABASE_URL").map { String(cString: $0) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        guard let url = database ?? variable else { return }
        let store: PostgresStateStore
        do {
            store = try PostgresStateStore(url: url)
        } catch {
            throw CommandFailure(.serverSetup, error.message)
        }
        do {
            try await store.check()
            let local = configuration.serverId ?? ServerIdentity.newUUID()
            configuration.serverId = try await store.sharedServerID(proposed: local) ?? local
        } catch {
            throw CommandFailure(
                .serverSetup, "The database \(store.displayURL) cannot be used: \(error.message)")
        }
        configuration.stateStore = store
        logger.info("Sessions, share links and throttling are kept in \(store.displayURL)")
    }
}
