import Synchronization

/// A value shared between a request's callbacks and its owner, behind a lock: a `Mutex` in a
/// box, for the one case a `Mutex` cannot serve alone, a value captured by an escaping callback
/// (a noncopyable value cannot be). A class's own state is a plain `Mutex` property.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}
