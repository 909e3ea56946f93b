import BrowseyServer
import Dispatch
import QRCode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The start-up banner: where to point a browser, what is served, and how.
enum Banner {
    static func print(
        configuration: ServerConfiguration, port: Int, showsQRCode: Bool, bonjour: String,
        accessTokenSource: String? = nil
    ) {
        // With --auth, the URLs carry the token: opening one is signing in.
        let suffix = configuration.token.map { "?token=" + $0 } ?? ""
        let scheme = configuration.tls == nil ? "http" : "https"
        // The address another machine reaches: the network's when every address is served,
        // the one asked for when it is another, none when only this machine's is.
        let wildcard = configuration.host == "0.0.0.0" || configuration.host == "::"
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(configuration.host)
        let asked = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let networkHost = wildcard ? NetworkAddress.firstExternalIPv4() : loopback ? nil : asked
        let network = networkHost.map { "\(scheme)://\($0):\(port)/" + suffix }
        var lines = ["", "  Browsey is serving \(configuration.root)", ""]
        lines.append("  Local:    \(scheme)://localhost:\(port)/" + suffix)
        if !loopback {
            lines.append("  Network:  \(network ?? "no network interface found")")
        }
        lines.append("  Mode:     \(configuration.readOnly ? "read-only" : "read-write")")
        if let token = configuration.token {
            lines.append("  Token:    \(token) (apps send it as Authorization: Bearer)")
        }
        lines.append("  Access:   " + accessLine(configuration, source: accessTokenSource))
        if configuration.servesWebDAV {
            let host = networkHost ?? "localhost"
            lines.append("  WebDAV:   \(scheme)://\(host):\(port)/dav/" + Self.davHint(configuration))
        }
        lines.append("  Bonjour:  \(bonjour)")
        if !configuration.readOnly {
            lines.append("  Trash:    \(configuration.trashFolder ?? "off (deletes are permanent)")")
        }
        lines.append("")
        if showsQRCode, let network, let code = try? QRSymbol(text: network) {
            lines.append(code.terminalString(border: 2))
            lines.append("  Scan to open \(network)")
            lines.append("")
        }
        Swift.print(lines.joined(separator: "\n"))
        fflush(nil)
    }

    /// Whether the access-token gate is on, naming the header and where the token came from,
    /// never the token itself.
    static func accessLine(_ configuration: ServerConfiguration, source: String?) -> String {
        guard configuration.accessToken?.isEmpty == false else {
            return "token off (anyone who reaches this address gets in; see --access-token)"
        }
        return
            "token on: every API and WebDAV request sends X-Browsey-Access-Token (from \(source ?? "the configuration"))"
    }

    /// How a WebDAV client signs in, after the address.
    static func davHint(_ configuration: ServerConfiguration) -> String {
        if configuration.accessToken?.isEmpty == false {
            let rest =
                configuration.token != nil
                ? ", a colon, then the token"
                : configuration.accounts != nil ? ", a colon, then an app password" : ""
            return " (any user name; the password: the access token\(rest))"
        }
        guard configuration.token != nil else {
            return " (Finder: Go > Connect to Server; Explorer: Map network drive)"
        }
        let basic =
            configuration.tls != nil || configuration.davAllowsInsecureBasic
            ? "" : " (from this machine, or with HTTPS)"
        return " (any user name, the token as the password\(basic))"
    }

    static func openBrowser(_ url: String) {
        #if os(macOS)
            let opener = "/usr/bin/open"
        #else
            let opener = "/usr/bin/xdg-open"
        #endif
        // posix_spawn rather than Foundation's Process, which would bring all of Foundation
        // (and ICU) into the server's memory for one call.
        var pid = pid_t()
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup(url), nil]
        defer { arguments.forEach { free($0) } }
        guard posix_spawn(&pid, opener, nil, nil, arguments, environ) == 0 else { return }
        let child = pid
        DispatchQueue.global().async { _ = waitpid(child, nil, 0) }
    }
}

/// The machine's addresses.
enum NetworkAddress {
    /// The first IPv4 address of an interface that is up and not loopback.
    static func firstExternalIPv4() -> String? {
        InterfaceAddress.all().first { $0.isIPv4 && $0.isUp && !$0.isLoopback }?.text
    }
}

/// Whether a port can be bound, asked by binding it for a moment.
enum PortProbe {
    static func isFree(_ port: Int, host: String) -> Bool {
        #if os(Linux)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        // As the server binds: a port whose last connections linger in TIME_WAIT (a server just
        // restarted) is free, not busy.
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(
            host == "localhost" ? "127.0.0.1" : (host.contains(":") ? "0.0.0.0" : host))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }
}
