#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The DNS-SD C API of the system's mDNS responder, found at run time.
///
/// On Linux the calls live in Avahi's compatibility library (`libdns_sd.so.1`), on Apple
/// platforms in the system library. Loading them with `dlopen` keeps the build free of either:
/// a machine without them still builds and serves, and says Bonjour is not available.
struct DNSServiceLibrary: Sendable {
    typealias Ref = OpaquePointer
    typealias RegisterReply =
        @convention(c) (
            Ref?, UInt32, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutableRawPointer?
        ) -> Void
    typealias BrowseReply =
        @convention(c) (
            Ref?, UInt32, UInt32, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutableRawPointer?
        ) -> Void
    typealias ResolveReply =
        @convention(c) (
            Ref?, UInt32, UInt32, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt16, UInt16,
            UnsafePointer<UInt8>?, UnsafeMutableRawPointer?
        ) -> Void
    typealias QueryRecordReply =
        @convention(c) (
            Ref?, UInt32, UInt32, Int32, UnsafePointer<CChar>?, UInt16, UInt16, UInt16, UnsafeRawPointer?,
            UInt32,
            UnsafeMutableRawPointer?
        ) -> Void

    typealias Register =
        @convention(c) (
            UnsafeMutablePointer<Ref?>?, UInt32, UInt32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt16, UInt16, UnsafeRawPointer?, RegisterReply?,
            UnsafeMutableRawPointer?
        ) -> Int32
    typealias Browse =
        @convention(c) (
            UnsafeMutablePointer<Ref?>?, UInt32, UInt32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            BrowseReply?,
            UnsafeMutableRawPointer?
        ) -> Int32
    typealias Resolve =
        @convention(c) (
            UnsafeMutablePointer<Ref?>?, UInt32, UInt32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, ResolveReply?, UnsafeMutableRawPointer?
        ) -> Int32
    typealias QueryRecord =
        @convention(c) (
            UnsafeMutablePointer<Ref?>?, UInt32, UInt32, UnsafePointer<CChar>?, UInt16, UInt16,
            QueryRecordReply?,
            UnsafeMutableRawPointer?
        ) -> Int32
    typealias SocketOf = @convention(c) (Ref?) -> Int32
    typealias ProcessResult = @convention(c) (Ref?) -> Int32
    typealias Deallocate = @convention(c) (Ref?) -> Void

    let register: Register
    let browse: Browse
    let resolve: Resolve
    let queryRecord: QueryRecord
    let socket: SocketOf
    let processResult: ProcessResult
    let deallocate: Deallocate

    /// Where the calls are looked for, in order.
    static var candidates: [String] {
        #if canImport(Darwin)
            ["/usr/lib/libSystem.B.dylib"]
        #else
            ["libdns_sd.so.1", "libdns_sd.so"]
        #endif
    }

    /// The library, loaded once per process; the error says what is missing.
    static let shared: Result<DNSServiceLibrary, ServiceDiscoveryError> = load()

    private static func load() -> Result<DNSServiceLibrary, ServiceDiscoveryError> {
        // Avahi's compatibility layer prints a warning to every program that uses it unless
        // AVAHI_COMPAT_NOWARN is set. The `browsey` executable sets it as it starts: a library
        // must not change the environment, since `setenv` on one thread while another spawns a
        // process (which reads `environ`) can crash the process.
        guard let handle = candidates.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            return .failure(
                ServiceDiscoveryError(
                    .libraryMissing,
                    "the DNS-SD library is not installed (on Debian and Ubuntu: apt install libavahi-compat-libdnssd1 avahi-daemon)"
                ))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(ServiceDiscoveryError) -> T {
            guard let pointer = dlsym(handle, name) else {
                throw ServiceDiscoveryError(.libraryMissing, "the DNS-SD library has no \(name)")
            }
            return unsafeBitCast(pointer, to: type)
        }
        do {
            return .success(
                DNSServiceLibrary(
                    register: try symbol("DNSServiceRegister", as: Register.self),
                    browse: try symbol("DNSServiceBrowse", as: Browse.self),
                    resolve: try symbol("DNSServiceResolve", as: Resolve.self),
                    queryRecord: try symbol("DNSServiceQueryRecord", as: QueryRecord.self),
                    socket: try symbol("DNSServiceRefSockFD", as: SocketOf.self),
                    processResult: try symbol("DNSServiceProcessResult", as: ProcessResult.self),
                    deallocate: try symbol("DNSServiceRefDeallocate", as: Deallocate.self)))
        } catch {
            return .failure(error)
        }
    }
}

/// Constants of the DNS-SD API.
enum DNSService {
    static let moreComing: UInt32 = 0x1
    static let add: UInt32 = 0x2
    static let noError: Int32 = 0
    static let nameConflict: Int32 = -65548
    static let classIN: UInt16 = 1
    static let typeA: UInt16 = 1
    static let typeAAAA: UInt16 = 28

    /// A sentence for a DNS-SD error code.
    static func describe(_ code: Int32) -> String {
        switch code {
        case -65537: "the mDNS responder is not running or refused the request (error -65537)"
        case -65540: "a bad parameter (error -65540)"
        case -65548: "the name is already taken (error -65548)"
        case -65563: "the mDNS responder is not running (error -65563)"
        case -65568: "the request timed out (error -65568)"
        default: "DNS-SD error \(code)"
        }
    }
}
