import Crypto
import _CryptoExtras

/// A password as the accounts file keeps it: never the password, only a slow, salted scrypt hash
/// of it (swift-crypto's `KDF.Scrypt`), written `scrypt$LOG2N$R$P$SALT$KEY` with the salt and the
/// key in lowercase hex.
///
/// The default work factor (N = 2^15, r = 8, p = 1: 32 MiB and about a tenth of a second per
/// try on a laptop) is the one RFC 7914 and OWASP give for interactive logins. Checking a
/// password derives the key again with the stored parameters and compares in constant time
/// (``TokenAuthentication/constantTimeEqual(_:_:)``).
public struct PasswordHash: Sendable, Hashable, CustomStringConvertible {
    /// log2 of scrypt's cost N.
    let logN: Int
    /// scrypt's block size r.
    let blockSize: Int
    /// scrypt's parallelism p.
    let parallelism: Int
    let salt: [UInt8]
    let key: [UInt8]

    /// The stored form.
    public var description: String {
        "scrypt$\(logN)$\(blockSize)$\(parallelism)$\(Hex.encode(salt))$\(Hex.encode(key))"
    }

    /// Reads a stored hash; `nil` when it is not one this server writes.
    public init?(_ text: String) {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt",
            let logN = Int(parts[1]), (10...22).contains(logN),
            let blockSize = Int(parts[2]), (1...32).contains(blockSize),
            let parallelism = Int(parts[3]), (1...16).contains(parallelism),
            let salt = Hex.decode(parts[4]), salt.count >= 16,
            let key = Hex.decode(parts[5]), key.count >= 16
        else { return nil }
        self.init(logN: logN, blockSize: blockSize, parallelism: parallelism, salt: salt, key: key)
    }

    init(logN: Int, blockSize: Int, parallelism: Int, salt: [UInt8], key: [UInt8]) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.key = key
    }

    /// Hashes `password` with a fresh 128-bit salt from the system's secure generator.
    /// `logN` below the default is for tests.
    public static func make(password: String, logN: Int = 15) throws -> PasswordHash {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = try derive(password, salt: salt, logN: logN, blockSize: 8, parallelism: 1)
        return PasswordHash(logN: logN, blockSize: 8, parallelism: 1, salt: salt, key: key)
    }

    /// Whether `password` is the one hashed. Slow on purpose; run it off the event loops.
    public func verify(_ password: String) -> Bool {
        guard
            let derived = try? Self.derive(
                password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        else { return false }
        return TokenAuthentication<FileServerContext>.constantTimeEqual(derived, key)
    }

    private static func derive(
        _ password: String, salt: [UInt8], logN: Int, blockSize: Int, parallelism: Int
    ) throws -> [UInt8] {
        let rounds = 1 << logN
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: rounds,
            blockSize: blockSize, parallelism: parallelism,
            maxMemory: 128 * rounds * blockSize * parallelism + (1 << 20))
        return key.withUnsafeBytes { Array($0) }
    }
}
