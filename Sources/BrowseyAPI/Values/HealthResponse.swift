/// `GET /api/health`: the server is up, its mode, and the machine it runs on.
public struct HealthResponse: Codable, Sendable, Hashable {
    /// The machine.
    public struct Host: Codable, Sendable, Hashable {
        /// The host name.
        public var hostname: String
        /// `linux`, `darwin`, … (Node's `process.platform` names).
        public var platform: String
        /// `x64`, `arm64`, … (Node's `process.arch` names).
        public var arch: String
        /// The kernel release.
        public var osRelease: String
        /// The server's runtime: `swift`.
        public var runtime: String
        /// The runtime's version.
        public var runtimeVersion: String
        /// Seconds since the server started.
        public var uptimeSeconds: Int

        /// Describes a machine.
        public init(
            hostname: String, platform: String, arch: String, osRelease: String, runtime: String,
            runtimeVersion: String, uptimeSeconds: Int
        ) {
            self.hostname = hostname
            self.platform = platform
            self.arch = arch
            self.osRelease = osRelease
            self.runtime = runtime
            self.runtimeVersion = runtimeVersion
            self.uptimeSeconds = uptimeSeconds
        }
    }

    /// Always `true`.
    public var ok: Bool
    /// Whether writes are refused.
    public var readonly: Bool
    /// The machine.
    public var host: Host
    /// Whether every other endpoint needs the token (additive; absent from older servers).
    public var auth: Bool?
    /// Whether hidden (dot) names are listed when a request asks with `hidden=1` (the server
    /// runs with `--hidden`; additive, absent from older servers).
    public var hidden: Bool?
    /// How far the index of what text files say is (additive; absent when the server runs
    /// without it).
    public var contentIndex: ContentIndex?
    /// The server's identity: a UUID that stays the same for one served folder and port across
    /// restarts, so a client that found one server by Bonjour, a QR code and by hand lists it
    /// once (additive; absent from older servers).
    public var serverId: String?
    /// Whether the access-token gate is on: every `/api/` request then carries
    /// `X-Browsey-Access-Token` (additive; absent from older servers).
    public var accessToken: Bool?
    /// Where the server keeps sessions and links, and whether it answered last time it was
    /// asked: present with a shared database (additive; `/api/ready` asks it now).
    public var stateStore: StateStore?

    /// The state store as health reports it.
    public struct StateStore: Codable, Sendable, Hashable {
        /// `postgresql`.
        public var kind: String
        /// Whether the last call to it succeeded.
        public var reachable: Bool

        /// A store of `kind`, reachable or not.
        public init(kind: String, reachable: Bool) {
            self.kind = kind
            self.reachable = reachable
        }
    }

    private enum CodingKeys: String, CodingKey {
        case ok, readonly, host, auth, hidden, contentIndex, serverId, accessToken, stateStore
    }

    /// Reads a health answer. A server with `--auth` asked without the token answers only `ok`
    /// and `auth`: then `readonly` reads `true` and `host` is empty (nothing known).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ok = try container.decode(Bool.self, forKey: .ok)
        readonly = try container.decodeIfPresent(Bool.self, forKey: .readonly) ?? true
        host =
            try container.decodeIfPresent(Host.self, forKey: .host)
            ?? Host(
                hostname: "", platform: "", arch: "", osRelease: "", runtime: "", runtimeVersion: "",
                uptimeSeconds: 0)
        auth = try container.decodeIfPresent(Bool.self, forKey: .auth)
        hidden = try container.decodeIfPresent(Bool.self, forKey: .hidden)
        contentIndex = try container.decodeIfPresent(ContentIndex.self, forKey: .contentIndex)
        serverId = try container.decodeIfPresent(String.self, forKey: .serverId)
        accessToken = try container.decodeIfPresent(Bool.self, forKey: .accessToken)
        stateStore = try container.decodeIfPresent(StateStore.self, forKey: .stateStore)
    }

    /// Makes a health answer.
    public init(ok: Bool = true, readonly: Bool, host: Host, auth: Bool? = nil, hidden: Bool? = nil) {
        self.ok = ok
        self.readonly = readonly
        self.host = host
        self.auth = auth
        self.hidden = hidden
    }
}
