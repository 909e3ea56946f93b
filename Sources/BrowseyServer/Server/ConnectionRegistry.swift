import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every open connection of a server, so that none can be held against the others:
///
/// - **A cap per address** (``ServerConfiguration/maximumConnectionsPerAddress``): one more
///   connection from an address that already holds that many is closed at once. IPv6
///   addresses count by their /64, the block one host picks its private addresses from.
/// - **A budget of descriptors**: past ``total`` open connections (the descriptor limit, less
///   a reserve for files, the index and the event loops), a new connection takes the place of
///   the one that has been idle longest (no request in progress: a half-sent request line, a
///   keep-alive wait). A connection serving a request (an upload, a download, an event stream)
///   is never the one closed; when every connection is busy, the newcomer is closed instead. So
///   the server never runs out of descriptors because of idle clients, and a new client always
///   gets in while some are only waiting.
/// - **Descriptors running out anyway** (files being served hold them too): the same, for every
///   newcomer while ``AcceptGuard`` reports the shortage.
/// - **Closing them all**, at the shutdown deadline.
final class ConnectionRegistry: Sendable {
    /// What the caps count by: an IPv4 address, or an IPv6 address's first 64 bits.
    enum AddressKey: Hashable, Sendable {
        case v4(UInt32)
        case v6(UInt64)
    }

    /// Whether one connection is idle, and since when: set by its ``ConnectionGuard`` at each
    /// request and answer without taking the registry's lock (a small request costs two of
    /// these), read by the registry when it looks for the connection idle longest.
    final class IdleMark: Sendable {
        /// `NIODeadline` uptime nanoseconds since which nothing is in progress; 0 while a
        /// request is being served.
        private let since = Atomic<UInt64>(0)

        init(idleSince now: NIODeadline) {
            since.store(max(1, now.uptimeNanoseconds), ordering: .relaxed)
        }

        /// Marks the connection busy: a request arrived.
        func setBusy() {
            since.store(0, ordering: .relaxed)
        }

        /// Marks the connection idle from `now`: its last answer is written.
        func setIdle(since now: NIODeadline) {
            since.store(max(1, now.uptimeNanoseconds), ordering: .relaxed)
        }

        /// Since when the connection is idle; `nil` while it serves a request.
        var idleSince: UInt64? {
            let value = since.load(ordering: .relaxed)
            return value == 0 ? nil : value
        }
    }

    private struct Entry {
        let channel: any Channel
        let address: AddressKey?
        let mark: IdleMark
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var perAddress: [AddressKey: Int] = [:]
    }

    /// Connections one address may hold at once; 0: no cap.
    let maximumPerAddress: Int
    /// Connections the server holds at once before it closes idle ones for newcomers.
    let total: Int
    private let state = Mutex(State())
    private let short = Atomic<Bool>(false)

    init(maximumPerAddress: Int, total: Int) {
        self.maximumPerAddress = maximumPerAddress
        self.total = max(1, total)
    }

    /// Whether the process has just run out of descriptors (an `accept` failed): then every
    /// newcomer takes the place of an idle connection, whatever the budget says. Set and cleared
    /// by ``AcceptGuard``.
    var isShortOfDescriptors: Bool { short.load(ordering: .relaxed) }

    func setShortOfDescriptors(_ value: Bool) { short.store(value, ordering: .relaxed) }

    /// How many connections are open.
    var count: Int { state.withLock { $0.entries.count } }

    /// Registers a new connection, idle from now, and returns its mark; `nil` when it must be
    /// closed (its address holds too many, or every other connection is busy and the budget is
    /// spent). When the budget is spent and some connection is idle, the one idle longest is
    /// closed for it.
    func admit(_ channel: any Channel) -> IdleMark? {
        let address = channel.remoteAddress.flatMap(Self.key(of:))
        let mark = IdleMark(idleSince: .now())
        let short = isShortOfDescriptors
        let (admitted, evicted): (Bool, (any Channel)?) = state.withLock { state in
            if let address, maximumPerAddress > 0, state.perAddress[address, default: 0] >= maximumPerAddress
            {
                return (false, nil)
            }
            var evicted: (any Channel)?
            if state.entries.count >= total || short {
                var oldest: (id: ObjectIdentifier, since: UInt64)?
                for (id, entry) in state.entries {
                    guard let since = entry.mark.idleSince else { continue }
                    if oldest.map({ since < $0.since }) ?? true { oldest = (id, since) }
                }
                guard let oldest else { return (false, nil) }
                evicted = Self.remove(oldest.id, from: &state)
            }
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, mark: mark)
            if let address { state.perAddress[address, default: 0] += 1 }
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted ? mark : nil
    }

    /// Forgets a connection that closed.
    func remove(_ channel: any Channel) {
        state.withLock { _ = Self.remove(ObjectIdentifier(channel), from: &$0) }
    }

    /// Closes every open connection (the shutdown deadline): requests still running see their
    /// connection end and unwind, removing their temporary files.
    func closeAll() {
        let channels = state.withLock { state in state.entries.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
    }

    private static func remove(_ id: ObjectIdentifier, from state: inout State) -> (any Channel)? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        if let address = entry.address {
            let left = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = left > 0 ? left : nil
        }
        return entry.channel
    }

    /// The key a remote address counts under; `nil` for a Unix socket (no cap).
    static func key(of address: SocketAddress) -> AddressKey? {
        switch address {
        case .v4(let v4):
            return .v4(UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            // An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) counts as its IPv4 address.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return .v4(bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
            }
            return .v6(bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        case .unixDomainSocket:
            return nil
        }
    }
}
