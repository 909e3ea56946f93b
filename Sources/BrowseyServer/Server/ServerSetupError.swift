/// A server that cannot start as configured (an unreadable certificate, say).
public struct ServerSetupError: Error, Sendable, CustomStringConvertible {
    /// What cannot be set up: a closed set, switchable, each with a stable name.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Sendable {
            case certificate, key, accounts, identity, database
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The code's stable name (`certificate`, `key`).
        public var description: String { wrapped.rawValue }

        /// The certificate chain (`--https-cert`) cannot be read, or holds no certificate.
        public static var certificate: Self { Self(.certificate) }
        /// The private key (`--https-key`) cannot be read.
        public static var key: Self { Self(.key) }
        /// The accounts file (`--config`) cannot be read, or says something that cannot be.
        public static var accounts: Self { Self(.accounts) }
        /// The server's identity file cannot be read or written, or holds no identity.
        public static var identity: Self { Self(.identity) }
        /// The database (`--database`) is no PostgreSQL URL, cannot be reached, or its client
        /// library is missing.
        public static var database: Self { Self(.database) }
    }

    /// What cannot be set up.
    public let code: Code
    /// What went wrong, for a person.
    public let message: String

    /// A setup failure with its code and message.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message alone, as the command line prints it after `Error:`.
    public var description: String { message }
}
