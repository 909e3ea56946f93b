#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), which bounds how many
/// connections, open files and watches the server can hold at once.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as far as the system allows, and returns the soft
    /// limit now in force. Many systems start processes at a soft limit of 1,024 (or 256 on
    /// macOS) under a far higher hard one: that is the difference between a server that a LAN
    /// client can fill with idle connections and one that has room to spare.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return current }
        var wanted = limits.rlim_max
        #if canImport(Darwin)
            // macOS refuses a soft limit above OPEN_MAX whatever the hard one says.
            wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if limits.rlim_cur < wanted {
            var raised = limits
            raised.rlim_cur = wanted
            _ = setrlimit(resource, &raised)
        }
        return current
    }

    /// The soft limit in force.
    public static var current: Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return 1024 }
        return Int(clamping: limits.rlim_cur)  // RLIM_INFINITY clamps to Int.max
    }

    /// How many connections a server keeps open at most under a soft limit of `limit`: the
    /// limit less a reserve (an eighth, at least 64) for the files being served, the index,
    /// the watcher and the event loops.
    static func connectionBudget(forLimit limit: Int) -> Int {
        let reserve = max(64, limit / 8)
        return max(16, limit - reserve)
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
