import Testing

@testable import FileTree

@Suite("Handing changes to a slow reader")
struct ChangeSinkTests {
    @Test(
        "a reader that stays behind loses batches, gets one rescan for them, and each loss counts as a change"
    )
    func slowReader() async {
        // Room for two batches, as the watcher's stream has room for sixteen.
        let (stream, continuation) = AsyncStream.makeStream(
            of: DirectoryChanges.self, bufferingPolicy: .bufferingNewest(2))
        let sink = ChangeSink(continuation: continuation, coalescing: .zero)
        for name in ["a", "b", "c"] {
            sink.add("/" + name)
            sink.flushIfDue()  // the third batch pushes out the first
        }
        #expect(sink.timeUntilDue() != nil, "the rescan that makes up for the lost batch is due")
        // The rescan pushes out the second batch; as it is queued behind every loss, no rescan
        // follows it, however often the sink is asked.
        for _ in 0..<10 { sink.flushIfDue() }
        #expect(sink.timeUntilDue() == nil)
        sink.finish()

        var batches: [DirectoryChanges] = []
        for await batch in stream { batches.append(batch) }
        #expect(batches.map(\.paths) == [["/c"], []])
        #expect(batches.map(\.needsRescan) == [false, true])
        // Three paths and two lost batches: no batch delivered claims the last loss.
        #expect(sink.reported == 5)
        #expect(batches.map(\.sequence) == [3, 4])
    }
}
