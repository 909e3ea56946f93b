import Foundation

/// The machine's mDNS responder (Avahi), which the discovery tests use for real.
///
/// `Scripts/test` starts one restricted to loopback when none runs, and sets
/// `BROWSEY_REQUIRE_MDNS=1`: there a missing responder fails the tests. A plain `swift test` on
/// a machine without one skips them, saying how to start it.
public enum LocalResponder {
    /// Whether `avahi-daemon --check` finds a daemon running.
    public static let isRunning: Bool = {
        (try? SpawnedProcess.run("avahi-daemon", ["--check"]))?.status == 0
    }()

    /// Whether the discovery tests run: a responder runs, or the run requires one.
    public static var testsRun: Bool {
        isRunning || ProcessInfo.processInfo.environment["BROWSEY_REQUIRE_MDNS"] == "1"
    }

    /// Why they are skipped otherwise.
    public static let skipReason =
        "no mDNS responder runs here: `Scripts/mdns/loopback start` starts Avahi on loopback (Scripts/test does)"

    /// A name no other test or run uses, for services published by tests.
    public static func uniqueName(_ base: String) -> String {
        "\(base) \(UInt32.random(in: 0...UInt32.max))"
    }
}
