extension Bonjour {
    /// The Browsey servers announced on the network within `duration`, by name: each one seen
    /// is resolved and its addresses looked up as soon as it appears; one that went away, or
    /// could not be resolved, is left out.
    public func discoverBrowseyServers(
        for duration: Duration = .seconds(3)
    ) async throws -> [DiscoveredServer] {
        let events = browse(type: BrowseyService.type)
        let collector = Task { [self] () throws -> [String: Task<DiscoveredServer?, Never>] in
            var found: [String: Task<DiscoveredServer?, Never>] = [:]
            for try await event in events {
                let instance = event.instance
                switch event {
                case .appeared:
                    guard found[instance.name] == nil else { continue }
                    found[instance.name] = Task { try? await self.browseyServer(instance) }
                case .disappeared:
                    found.removeValue(forKey: instance.name)?.cancel()
                }
            }
            return found
        }
        // The browse runs until the deadline; cancelling it ends the stream.
        try? await Task.sleep(for: duration)
        collector.cancel()
        var servers: [DiscoveredServer] = []
        for (_, resolution) in try await collector.value {
            if let server = await resolution.value { servers.append(server) }
        }
        return servers.sorted { ($0.name, $0.url) < ($1.name, $1.url) }
    }

    /// Resolves one `_browsey._tcp` instance and looks up its host's addresses.
    public func browseyServer(
        _ instance: ServiceInstance, timeout: Duration = .seconds(3)
    ) async throws(ServiceDiscoveryError)
        -> DiscoveredServer
    {
        let resolved = try await resolve(instance, timeout: timeout)
        let addresses =
            (try? await self.addresses(
                of: resolved.hostName, interfaceIndex: resolved.interfaceIndex, timeout: timeout)) ?? []
        return DiscoveredServer(resolved: resolved, addresses: addresses)
    }
}
