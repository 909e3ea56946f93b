internal import CFileTreeSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of a folder that are not all ASCII, remembered for large folders: what
/// ``SystemNames`` reads to find a name that is not valid UTF-8 by how it reads. Reading a folder
/// of 100,000 names takes the system about 30 ms, and a request for a path spelled with U+FFFD
/// asks for its folder's names several times (each check that the path stays inside the root,
/// then the open), so anyone could make the server read a large folder over and over.
///
/// A folder is remembered by its device, inode, modification and change times: any name added,
/// removed or renamed in it changes them. A folder changed in the last second is not remembered,
/// since a change within the file system's clock tick would leave its times as they were.
final class FolderNamesMemo: Sendable {
    /// The one memo of the process.
    static let shared = FolderNamesMemo()

    /// A folder, by device and inode.
    private struct Folder: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A folder's names as they were at its modification and change times, and when they were
    /// last asked for (a count of asks, for forgetting the least recently used).
    private struct Remembered {
        var modified: Timestamp
        var changed: Timestamp
        var names: [[UInt8]]
        var used: UInt64
    }

    /// The remembered folders, and the count of asks so far.
    private struct State {
        var folders: [Folder: Remembered] = [:]
        var asks: UInt64 = 0
    }

    private let state = Mutex(State())
    private let readCount = Atomic<Int>(0)
    private let secondsNow: @Sendable () -> Int64
    private let capacity: Int

    /// A memo of at most `capacity` folders that reads the time from `secondsNow` (seconds of the
    /// realtime clock, the clock file times are written by).
    init(
        capacity: Int = FolderNamesMemo.capacity,
        secondsNow: @escaping @Sendable () -> Int64 = FolderNamesMemo.realtimeSeconds
    ) {
        self.capacity = capacity
        self.secondsNow = secondsNow
    }

    /// Seconds of the system's realtime clock.
    static func realtimeSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// How many times a folder's names were read (not remembered).
    var reads: Int { readCount.load(ordering: .relaxed) }

    /// Folders with fewer names are read each time (cheap), not remembered.
    static let smallestRemembered = 1_000
    /// How many folders the process's memo remembers at once (past it, the least recently asked
    /// for is forgotten for each new one).
    static let capacity = 32
    /// A folder whose names not all ASCII take more bytes than this is not remembered.
    static let largestRemembered = 1 << 20

    /// The names in the open folder `descriptor` (closed here) with a byte from 0x80, as bytes;
    /// `nil` when the folder cannot be read.
    func namesNotASCII(in descriptor: Int32) -> [[UInt8]]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            return nil
        }
        let folder = Folder(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        let modified = Timestamp(
            seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int32(status.st_mtim.tv_nsec))
        let changed = Timestamp(
            seconds: Int64(status.st_ctim.tv_sec), nanoseconds: Int32(status.st_ctim.tv_nsec))
        let known = state.withLock { state -> [[UInt8]]? in
            guard let known = state.folders[folder], known.modified == modified, known.changed == changed
            else { return nil }
            state.asks += 1
            state.folders[folder]?.used = state.asks
            return known.names
        }
        if let known {
            close(descriptor)
            return known
        }
        let now = secondsNow()
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(directory) }
        readCount.add(1, ordering: .relaxed)
        var names: [[UInt8]] = []
        var count = 0
        var bytes = 0
        while true {
            var kind: UInt8 = 0
            var number: Int32 = 0
            guard let cName = cft_next_entry(directory, &kind, &number) else { break }
            count += 1
            let length = strlen(cName)
            let name = cName.withMemoryRebound(to: UInt8.self, capacity: length) {
                UnsafeBufferPointer(start: $0, count: length)
            }
            guard name.contains(where: { $0 >= 0x80 }) else { continue }
            names.append(Array(name))
            bytes += length
        }
        let settled = max(modified.seconds, changed.seconds) + 1 < now
        if count >= Self.smallestRemembered && bytes <= Self.largestRemembered && settled {
            state.withLock { state in
                if state.folders[folder] == nil && state.folders.count >= capacity,
                    let oldest = state.folders.min(by: { $0.value.used < $1.value.used })?.key
                {
                    state.folders[oldest] = nil
                }
                state.asks += 1
                state.folders[folder] = Remembered(
                    modified: modified, changed: changed, names: names, used: state.asks)
            }
        }
        return names
    }
}
