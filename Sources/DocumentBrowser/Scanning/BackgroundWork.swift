import Dispatch

/// Runs blocking file-system work on a Dispatch thread, so neither the main actor nor Swift's
/// cooperative pool waits for the disk.
enum BackgroundWork {
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
