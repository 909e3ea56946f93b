import Dispatch
import Synchronization

/// What the responder answered to one request, copied out of the C callback's buffers.
enum DNSReply: Sendable {
    case registered(name: String)
    case browsed(flags: UInt32, interface: UInt32, name: String, type: String, domain: String)
    case resolved(interface: UInt32, host: String, port: UInt16, txt: [UInt8])
    case record(flags: UInt32, type: UInt16, data: [UInt8])
    /// The responder reported an error (in a reply, or while its results were processed).
    case failure(Int32)
}

/// Where the C callbacks send their replies: the context pointer of every request is one of
/// these, kept alive by the connection until its ref is deallocated.
final class ReplyBox: Sendable {
    let deliver: @Sendable (DNSReply) -> Void
    init(_ deliver: @escaping @Sendable (DNSReply) -> Void) { self.deliver = deliver }

    static func from(_ context: UnsafeMutableRawPointer?) -> ReplyBox? {
        context.map { Unmanaged<ReplyBox>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// One DNS-SD request (a registration, a browse, a resolve or a record query) and its ref.
///
/// The ref's socket is read by a Dispatch source on one serial queue, where the library's
/// callbacks run; cancelling the connection deallocates the ref on that same queue, after any
/// callback in progress, so a ref is never used and freed at once. A connection that goes away
/// cancels itself.
final class ServiceConnection: Sendable {
    /// A Dispatch source may be cancelled from any thread (Dispatch's own guarantee), which
    /// its Swift overlay does not declare.
    private struct Source: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    private struct State {
        var source: Source?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// All requests share one queue: the library is not thread-safe across refs on every
    /// platform, and the work per reply is tiny.
    static let sharedQueue = DispatchQueue(label: "browsey.service-discovery")

    /// Starts a request: `open` calls the library with the ref to fill and the context to pass
    /// to the callback; a non-zero result is thrown as an error saying what it means.
    init(
        library: DNSServiceLibrary, box: ReplyBox, queue: DispatchQueue = ServiceConnection.sharedQueue,
        open: (UnsafeMutablePointer<DNSServiceLibrary.Ref?>, UnsafeMutableRawPointer) -> Int32
    ) throws(ServiceDiscoveryError) {
        self.queue = queue
        let context = Unmanaged.passRetained(box).toOpaque()
        var ref: DNSServiceLibrary.Ref?
        let status = queue.sync { open(&ref, context) }
        guard status == DNSService.noError, let ref else {
            Unmanaged<ReplyBox>.fromOpaque(context).release()
            if let ref { queue.sync { library.deallocate(ref) } }
            throw ServiceDiscoveryError.fromStatus(status)
        }
        let descriptor = library.socket(ref)
        guard descriptor >= 0 else {
            queue.sync { library.deallocate(ref) }
            Unmanaged<ReplyBox>.fromOpaque(context).release()
            throw ServiceDiscoveryError(.failed, "the DNS-SD request has no socket to read")
        }
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(ref)))
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in
            guard let ref = OpaquePointer(bitPattern: address) else { return }
            let status = library.processResult(ref)
            if status != DNSService.noError {
                box.deliver(.failure(status))
                self?.cancel()
            }
        }
        source.setCancelHandler {
            if let ref = OpaquePointer(bitPattern: address) { library.deallocate(ref) }
            Unmanaged<ReplyBox>.fromOpaque(context).release()
        }
        source.activate()
        // A failure in the first reply may have cancelled the connection already.
        let wrapped = Source(source: source)
        let cancelledEarly = state.withLock { state in
            state.source = wrapped
            return state.cancelled
        }
        if cancelledEarly { wrapped.source.cancel() }
    }

    /// Stops the request; the responder forgets it (a registration is withdrawn).
    func cancel() {
        let source: Source? = state.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            return state.source
        }
        source?.source.cancel()
    }

    deinit { cancel() }
}

extension ServiceDiscoveryError {
    /// The error for a DNS-SD status code.
    static func fromStatus(_ status: Int32) -> ServiceDiscoveryError {
        switch status {
        case -65537, -65563:
            ServiceDiscoveryError(
                .responderUnavailable,
                "no mDNS responder is running (on Linux, start avahi-daemon; DNS-SD error \(status))")
        case -65540: ServiceDiscoveryError(.invalidArgument, DNSService.describe(status))
        case DNSService.nameConflict: ServiceDiscoveryError(.nameConflict, DNSService.describe(status))
        default: ServiceDiscoveryError(.failed, DNSService.describe(status))
        }
    }
}
