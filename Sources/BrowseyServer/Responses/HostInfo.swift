import BrowseyAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine, in the names Node (and so Browsey) gives: `linux`, `x64`, …
enum HostInfo {
    static func current(since start: ContinuousClock.Instant) -> HealthResponse.Host {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        #if os(Linux)
            let platform = "linux"
        #elseif os(macOS) || os(iOS)
            let platform = "darwin"
        #else
            let platform = "unknown"
        #endif
        #if arch(x86_64)
            let arch = "x64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "unknown"
        #endif
        #if swift(>=6.3)
            let version = "6.3"
        #elseif swift(>=6.2)
            let version = "6.2"
        #else
            let version = "6"
        #endif
        let uptime = ContinuousClock.now - start
        return HealthResponse.Host(
            hostname: String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            platform: platform, arch: arch, osRelease: release, runtime: "swift", runtimeVersion: version,
            uptimeSeconds: Int(uptime.components.seconds))
    }
}
