import Synchronization

/// A value shared between a request's callbacks and its owner, behind a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}
