import Synchronization

@testable import SearchIndex

/// The tasks running the indexes the tests started.
private let runningIndexes = Mutex<[ObjectIdentifier: Task<Void, Never>]>([:])

extension NameIndex {
    /// Runs the index as the server's service lifecycle does: ``NameIndex/run()`` in a task,
    /// until ``stop()``.
    func start() {
        let task = Task { await self.run() }
        runningIndexes.withLock { $0[ObjectIdentifier(self)] = task }
    }

    /// Cancels the task ``start()`` made, as a shutdown cancels the server's service.
    func stop() {
        runningIndexes.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }?.cancel()
    }
}

extension NameIndex {
    /// ``stop()``, then waits until the index has ended (its file saved and closed), as a
    /// server's shutdown waits for its services.
    func stopAndWait() async {
        let task = runningIndexes.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
        task?.cancel()
        await task?.value
    }
}
