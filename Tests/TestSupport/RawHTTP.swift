#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to the loopback, for requests a polite client would not make (a body
/// cut short) and for clients that must keep going while the server is killed under them.
public final class RawSocket {
    /// The connected socket.
    public let descriptor: Int32

    /// Connects to `127.0.0.1:port`; `nil` when nothing listens there.
    public init?(port: Int) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            _ = Self.closeDescriptor(descriptor)
            return nil
        }
    }

    /// Sends everything; returns false when the connection broke.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        Self.sendAll(bytes, on: descriptor)
    }

    /// Sends everything on `descriptor`; returns false when the connection broke.
    public static func sendAll(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer -> Int in
                #if canImport(Glibc)
                    return Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                    return Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads a request's head (its line and fields, through the blank line) from `descriptor`,
    /// one byte at a time so that nothing of the body is read with it; `nil` when the
    /// connection ends first.
    public static func receiveHead(on descriptor: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !(head.count >= 4 && head[(head.count - 4)...].elementsEqual([13, 10, 13, 10])) {
            guard recv(descriptor, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
        }
        return head
    }

    /// Reads until the other side closes.
    public func receiveAll() -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return received
    }

    /// Closes the connection.
    /// Reads what arrives until `seen` holds for everything read so far, or `seconds` pass;
    /// returns what was read (as text). Waits by sleeping, never blocking a thread that an
    /// in-process server may need.
    public func receive(for seconds: Double, until seen: (String) -> Bool) async -> String {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { break }
            if count < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK else { break }
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            bytes += buffer[..<count]
            if seen(String(decoding: bytes, as: UTF8.self)) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Closes the socket.
    public func close() { _ = Self.closeDescriptor(descriptor) }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    /// One HTTP/1.1 request with `Connection: close`; the status code, or `nil` when the
    /// connection failed or broke.
    public static func request(
        port: Int, method: String, target: String, host: String = "127.0.0.1",
        headers: [String: String] = [:],
        body: [UInt8] = []
    ) -> Int? {
        guard let socket = RawSocket(port: port) else { return nil }
        defer { socket.close() }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard socket.send(Array(head.utf8) + body) else { return nil }
        let answer = socket.receiveAll()
        let statusLine = answer.prefix { $0 != 13 }
        let parts = String(decoding: statusLine, as: UTF8.self).split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
