import Synchronization

/// A service being announced; it is withdrawn by ``cancel()`` or when the value goes away.
///
/// When the name is already taken on the network the responder refuses it (Avahi) or picks
/// another (mDNSResponder); either way the service ends up announced as `Name (2)`, `Name (3)`,
/// …, and ``name`` says which.
public final class Advertisement: Sendable {
    private struct State {
        var connection: ServiceConnection?
        var name: String
        var cancelled = false
    }

    private let library: DNSServiceLibrary
    private let service: ServiceRegistration
    private let txt: [UInt8]
    private let state: Mutex<State>
    private let confirmation = FirstAnswer<String>()

    init(library: DNSServiceLibrary, service: ServiceRegistration, txt: [UInt8]) {
        self.library = library
        self.service = service
        self.txt = txt
        state = Mutex(State(name: service.name))
    }

    /// The name announced: the one asked for until the responder says otherwise.
    public var name: String { state.withLock { $0.name } }

    /// Waits until the responder has claimed the name on the network (Avahi probes for about
    /// a second) and returns the name it announced; throws when it failed or took longer than
    /// `timeout`.
    public func established(timeout: Duration = .seconds(10)) async throws(ServiceDiscoveryError) -> String {
        try await confirmation.value(
            timeout: timeout, message: "the mDNS responder did not confirm \"\(name)\"")
    }

    /// Withdraws the announcement (the responder sends a goodbye).
    public func cancel() {
        let connection = state.withLock { state in
            state.cancelled = true
            defer { state.connection = nil }
            return state.connection
        }
        connection?.cancel()
    }

    deinit { state.withLock { $0.connection }?.cancel() }

    /// Registers under the `attempt`th name (the one asked for, then `Name (2)`, …): a name
    /// refused at once as taken (the responder itself holds it) moves on to the next.
    func announce(attempt first: Int) throws(ServiceDiscoveryError) {
        var attempt = first
        while true {
            do throws(ServiceDiscoveryError) {
                return try register(
                    as: attempt == 1 ? service.name : Self.alternative(to: service.name, attempt: attempt),
                    attempt: attempt)
            } catch  where error.code == .nameConflict && attempt < 100 {
                attempt += 1
            }
        }
    }

    /// Registers under `name`, the `attempt`th name tried.
    private func register(as name: String, attempt: Int) throws(ServiceDiscoveryError) {
        let box = ReplyBox { [weak self] reply in
            guard let self else { return }
            switch reply {
            case .registered(let registered):
                state.withLock { $0.name = registered }
                confirmation.settle(.success(registered))
            case .failure(DNSService.nameConflict) where attempt < 100:
                // Taken on the network: the next name, registered off the responder's queue.
                Task {
                    do throws(ServiceDiscoveryError) {
                        try self.announce(attempt: attempt + 1)
                    } catch {
                        self.confirmation.settle(.failure(error))
                    }
                }
            case .failure(let status):
                confirmation.settle(.failure(ServiceDiscoveryError.fromStatus(status)))
            default:
                break
            }
        }
        let (library, registration, txt) = (library, service, txt)
        let connection = try ServiceConnection(library: library, box: box) { ref, context in
            txt.withUnsafeBytes { bytes in
                library.register(
                    ref, 0, 0, name, registration.type, registration.domain, nil,
                    UInt16(registration.port).bigEndian,
                    UInt16(bytes.count), bytes.baseAddress, ReplyCallbacks.register, context)
            }
        }
        let replaced: ServiceConnection?? = state.withLock { state in
            guard !state.cancelled else { return .some(connection) }
            defer {
                state.connection = connection
                state.name = name
            }
            return .some(state.connection)
        }
        // Cancelled meanwhile: the new registration goes at once; otherwise the refused one.
        replaced??.cancel()
    }

    /// `Name (2)`, `Name (3)`, … kept within DNS-SD's 63 bytes.
    static func alternative(to name: String, attempt: Int) -> String {
        let suffix = " (\(attempt))"
        var base = Substring(name)
        while base.utf8.count + suffix.utf8.count > 63, !base.isEmpty { base.removeLast() }
        return base + suffix
    }
}
