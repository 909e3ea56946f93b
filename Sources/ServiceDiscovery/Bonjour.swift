/// Bonjour through the system's own mDNS responder: announce a service, browse for a type,
/// resolve an instance, look up a host's addresses.
///
/// It drives the DNS-SD C API of the responder the system already runs (Avahi on Linux,
/// mDNSResponder on Apple platforms), loaded at run time: ``init()`` throws `libraryMissing`
/// where the library is absent, and a request throws `responderUnavailable` when no responder
/// answers. Nothing here opens port 5353 itself.
///
/// ```swift
/// let bonjour = try Bonjour()
/// let ad = try bonjour.register(ServiceRegistration(name: "Browsey (Photos)", type: "_browsey._tcp", port: 8080))
/// print(try await ad.established())   // the name announced
/// for try await event in bonjour.browse(type: "_browsey._tcp") { print(event) }
/// ```
public struct Bonjour: Sendable {
    let library: DNSServiceLibrary

    /// Loads the DNS-SD library; throws `libraryMissing` (with what to install) when it is not
    /// on this machine.
    public init() throws(ServiceDiscoveryError) {
        library = try DNSServiceLibrary.shared.get()
    }

    /// Announces `service`. Throws `responderUnavailable` at once when no responder runs; the
    /// responder then probes the name on the network, and ``Advertisement/established(timeout:)``
    /// waits for it to confirm (with the name it chose when the one asked for was taken). The
    /// announcement is withdrawn when the ``Advertisement`` is cancelled or released.
    public func register(_ service: ServiceRegistration) throws(ServiceDiscoveryError) -> Advertisement {
        guard (1...65_535).contains(service.port) else {
            throw ServiceDiscoveryError(
                .invalidArgument, "the port \(service.port) is not between 1 and 65535")
        }
        guard !service.name.isEmpty, service.name.utf8.count <= 63 else {
            throw ServiceDiscoveryError(
                .invalidArgument, "a service name has 1 to 63 bytes: \"\(service.name)\"")
        }
        let advertisement = Advertisement(library: library, service: service, txt: try service.txt.encoded())
        try advertisement.announce(attempt: 1)
        return advertisement
    }

    /// The instances of `type` on the network as they come and go, until the task that reads
    /// them is cancelled or stops reading. A responder that fails ends the sequence with the
    /// error.
    public func browse(type: String, domain: String? = nil) -> AsyncThrowingStream<BrowseEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: BrowseEvent.self, throwing: (any Error).self)
        let box = ReplyBox { reply in
            switch reply {
            case .browsed(let flags, let interface, let name, let type, let domain):
                let instance = ServiceInstance(
                    name: name, type: type, domain: domain, interfaceIndex: interface)
                continuation.yield(flags & DNSService.add != 0 ? .appeared(instance) : .disappeared(instance))
            case .failure(let status):
                continuation.finish(throwing: ServiceDiscoveryError.fromStatus(status))
            default:
                break
            }
        }
        let library = library
        do {
            let connection = try ServiceConnection(library: library, box: box) { ref, context in
                library.browse(ref, 0, 0, type, domain, ReplyCallbacks.browse, context)
            }
            continuation.onTermination = { _ in connection.cancel() }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// The host, port and TXT record of `instance`, waiting at most `timeout`.
    public func resolve(
        _ instance: ServiceInstance, timeout: Duration = .seconds(5)
    ) async throws(ServiceDiscoveryError) -> ResolvedService {
        let first = FirstAnswer<ResolvedService>()
        let box = ReplyBox { reply in
            switch reply {
            case .resolved(let interface, let host, let port, let txt):
                first.settle(
                    .success(
                        ResolvedService(
                            instance: instance, hostName: host, port: Int(port), txt: TXTRecord(bytes: txt),
                            interfaceIndex: interface)))
            case .failure(let status):
                first.settle(.failure(ServiceDiscoveryError.fromStatus(status)))
            default:
                break
            }
        }
        let library = library
        let connection = try ServiceConnection(library: library, box: box) { ref, context in
            library.resolve(
                ref, 0, instance.interfaceIndex, instance.name, instance.type, instance.domain,
                ReplyCallbacks.resolve,
                context)
        }
        defer { connection.cancel() }
        return try await first.value(timeout: timeout, message: "\(instance) did not resolve")
    }

    /// The IPv4 and IPv6 addresses of `hostName` (such as `laptop.local.`), as text, IPv4 first.
    /// Waits at most `timeout` for the first address, then a moment for the other family.
    public func addresses(
        of hostName: String, interfaceIndex: UInt32 = 0, timeout: Duration = .seconds(5)
    ) async throws(ServiceDiscoveryError) -> [String] {
        let found = Locked<[String]>([])
        let first = FirstAnswer<Void>()
        let box = ReplyBox { reply in
            switch reply {
            case .record(_, let type, let data):
                guard let address = IPAddressText.format(type: type, data: data) else { return }
                found.withLock { if !$0.contains(address) { $0.append(address) } }
                first.settle(.success(()))
            case .failure(let status):
                first.settle(.failure(ServiceDiscoveryError.fromStatus(status)))
            default:
                break
            }
        }
        let library = library
        var connections: [ServiceConnection] = []
        for type in [DNSService.typeA, DNSService.typeAAAA] {
            connections.append(
                try ServiceConnection(library: library, box: box) { ref, context in
                    library.queryRecord(
                        ref, 0, interfaceIndex, hostName, type, DNSService.classIN,
                        ReplyCallbacks.queryRecord, context)
                })
        }
        defer { connections.forEach { $0.cancel() } }
        try await first.value(timeout: timeout, message: "no address for \(hostName)")
        try? await Task.sleep(for: .milliseconds(50))
        return found.value.sorted { !$0.contains(":") && $1.contains(":") }
    }
}
