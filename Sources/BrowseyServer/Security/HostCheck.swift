public import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses requests addressed to a name that is not this server's, which is how a page on
/// another site reaches a server on the local network by DNS rebinding: its own name, resolved
/// anew to 192.168.x.y, sends that name in `Host`. Allowed: `localhost`, the loopback and every
/// address of the machine's interfaces, the host name (and `NAME.local`), the bound address,
/// and whatever `--allowed-host` adds. A request without a `Host` (HTTP/1.0) passes.
public struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let allowed: Set<String>

    /// Allows the machine's own names and `extra`.
    public init(extra: [String], boundHost: String) {
        var names = Self.machineNames()
        names.insert(boundHost.lowercased())
        for name in extra { names.insert(Self.hostPart(of: name)) }
        allowed = names
    }

    /// Lets the request through to `next` or answers it here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let authority = request.head.authority, !allowed.contains(Self.hostPart(of: authority)) {
            throw APIError(
                .forbidden, "Host not allowed (start the server with --allowed-host to add a name)",
                code: .hostNotAllowed)
        }
        return try await next(request, context)
    }

    /// `Example.COM.:8080` → `example.com`; `[::1]:80` → `::1`.
    static func hostPart(of authority: String) -> String {
        var text = authority.lowercased()
        if text.hasPrefix("[") {
            if let close = text.firstIndex(of: "]") {
                text = String(text[text.index(after: text.startIndex)..<close])
            }
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            text = String(text[..<colon])
        }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The names a client on the network may use for this machine.
    static func machineNames() -> Set<String> {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1", "0.0.0.0"]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let host = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self
            ).lowercased()
            if !host.isEmpty {
                names.insert(host)
                names.insert(host.hasSuffix(".local") ? host : host + ".local")
                if let short = host.split(separator: ".").first { names.insert(String(short)) }
            }
        }
        for address in InterfaceAddress.all() {
            var numeric = address.text
            // A zone (fe80::1%eth0) is not part of the name a browser sends.
            if let zone = numeric.firstIndex(of: "%") { numeric = String(numeric[..<zone]) }
            names.insert(numeric.lowercased())
        }
        return names
    }
}
