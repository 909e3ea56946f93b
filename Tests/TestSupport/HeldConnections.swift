#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many TCP connections to a loopback server, each from a chosen source address (any of
/// `127.0.0.0/8` on Linux), held open by the test: clients that only hold connections, as an
/// attacker on the LAN would.
///
/// ```swift
/// let held = try HeldConnections(count: 1000, port: port, sources: ["127.0.0.2", "127.0.0.3"],
///                                sending: Array("GET /api/hea".utf8))
/// #expect(held.closedByServer() == 0)
/// ```
public final class HeldConnections {
    /// The connected sockets (the test's ends).
    public private(set) var descriptors: [Int32] = []

    /// Opens `count` connections to `127.0.0.1:port`, spread over `sources` in turn, and sends
    /// `sending` on each. Raises this process's own descriptor limit first when it is too low.
    public init(count: Int, port: Int, sources: [String], sending: [UInt8] = []) throws {
        Self.ensureDescriptors(count + 256)
        for index in 0..<count {
            let source = sources[index % sources.count]
            guard let descriptor = Self.connect(port: port, from: source) else {
                close()
                throw TestSupportError("connection \(index) from \(source) failed: errno \(errno)")
            }
            descriptors.append(descriptor)
            if !sending.isEmpty { _ = RawSocket.sendAll(sending, on: descriptor) }
        }
    }

    deinit { close() }

    /// How many of the connections the server has closed (an end of stream or a reset is
    /// waiting on them). Never blocks.
    public func closedByServer() -> Int {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 0)
        var closed = 0
        var byte: UInt8 = 0
        for entry in fds where entry.revents != 0 {
            if entry.revents & Int16(POLLHUP | POLLERR) != 0 {
                closed += 1
                continue
            }
            let peeked = recv(entry.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { closed += 1 }
        }
        return closed
    }

    /// Closes every connection from the test's side.
    public func close() {
        for descriptor in descriptors {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
        descriptors = []
    }

    /// One connection from `source` (bound before connecting), with a 5 s connect timeout.
    public static func connect(port: Int, from source: String) -> Int32? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = local
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
        }
        let connected =
            bound == 0
            && withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, size) }
            } == 0
        guard connected else {
            let saved = errno
            _ = Glibc.close(descriptor)
            errno = saved
            return nil
        }
        return descriptor
    }

    /// Raises this process's soft descriptor limit to at least `needed` (up to the hard limit).
    static func ensureDescriptors(_ needed: Int) {
        var limits = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limits) == 0, limits.rlim_cur < rlim_t(needed) else { return }
        limits.rlim_cur = min(limits.rlim_max, rlim_t(needed))
        _ = setrlimit(resource, &limits)
    }
}
