/// Every indexed folder, by relative path. A value: a search copies it (a few retains) and
/// scans its copy while changes build the next one.
struct Catalog: Sendable {
    private(set) var folders: [FolderRecord] = []
    private var positions: [String: Int] = [:]

    /// How many entries it holds.
    private(set) var entryCount = 0

    func record(at path: String) -> FolderRecord? { positions[path].map { folders[$0] } }

    mutating func put(_ record: FolderRecord) {
        entryCount += record.entries.count
        if let position = positions[record.path] {
            entryCount -= folders[position].entries.count
            folders[position] = record
        } else {
            positions[record.path] = folders.count
            folders.append(record)
        }
    }

    mutating func remove(_ path: String) {
        guard let position = positions.removeValue(forKey: path) else { return }
        entryCount -= folders[position].entries.count
        let last = folders.removeLast()
        if position < folders.count {
            folders[position] = last
            positions[last.path] = position
        }
    }

    /// The folders at `path` and below it.
    func subtree(_ path: String) -> [FolderRecord] {
        folders.filter { $0.path == path || $0.path.hasPrefix(path + "/") }
    }

    mutating func removeSubtree(_ path: String) {
        for record in subtree(path) { remove(record.path) }
    }

    /// Moves the folders at `from` and below to `to`, keeping their entries.
    mutating func moveSubtree(from: String, to: String) {
        let moving = subtree(from)
        for record in moving { remove(record.path) }
        for record in moving {
            put(FolderRecord(moving: record, to: to + record.path.dropFirst(from.count)))
        }
    }
}
