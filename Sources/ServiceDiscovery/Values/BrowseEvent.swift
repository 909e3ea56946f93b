/// What a browse reports: an instance appeared on the network or went away.
public enum BrowseEvent: Sendable, Hashable {
    /// The instance is announced (it may be resolved now).
    case appeared(ServiceInstance)
    /// The instance was withdrawn, or its host stopped answering.
    case disappeared(ServiceInstance)

    /// The instance concerned.
    public var instance: ServiceInstance {
        switch self {
        case .appeared(let instance), .disappeared(let instance): instance
        }
    }
}
