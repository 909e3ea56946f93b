#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket on 127.0.0.1 and a port the system chose, for the test servers.
enum LoopbackListener {
    /// Opens the socket; `receiveBuffer` sets `SO_RCVBUF` for the connections it accepts.
    static func open(receiveBuffer: Int32? = nil) throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        if var size = receiveBuffer {
            setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard bound == 0, named == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw TestSupportError("cannot listen on the loopback")
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
