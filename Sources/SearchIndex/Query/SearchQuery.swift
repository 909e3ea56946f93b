/// A search: the text to match and the filters users expect.
///
/// ```swift
/// var query = SearchQuery(text: "report")
/// query.extensions = ["pdf"]
/// query.modifiedAfter = lastWeek
/// let hits = index.search(query)
/// ```
public struct SearchQuery: Sendable {
    /// The text, matched against names (may be empty when a filter is given: then the newest
    /// entries that pass the filters come first).
    public var text: String
    /// The folder searched, relative to the root (`""` or `/`: everything).
    public var folder: String = ""
    /// How many hits at most.
    public var limit: Int = 50
    /// Only these kinds; `nil`: any.
    public var kinds: Set<IndexedEntry.Kind>?
    /// Only names with one of these extensions (lowercase, no dot); `nil`: any.
    public var extensions: Set<String>?
    /// Only entries modified at or after this (nanoseconds since 1970).
    public var modifiedAfter: Int64?
    /// Only entries modified before this (nanoseconds since 1970).
    public var modifiedBefore: Int64?
    /// Only files of at least this many bytes (a size filter leaves folders out).
    public var minimumSize: Int64?
    /// Only files of at most this many bytes.
    public var maximumSize: Int64?
    /// Whether hidden names (and what lies below them) may be found.
    public var includesHidden = false

    /// A query for `text`.
    public init(text: String) { self.text = text }

    /// Whether a query without text still asks for something.
    public var hasFilters: Bool {
        kinds != nil || extensions != nil || modifiedAfter != nil || modifiedBefore != nil
            || minimumSize != nil
            || maximumSize != nil
    }

    /// Whether an entry passes every filter.
    public func admits(_ entry: IndexedEntry) -> Bool {
        admits(kind: entry.kind, size: entry.size, modified: entry.modified)
            && admitsName(entry.name, kind: entry.kind)
    }

    /// Whether the entry at `index` of `entries` passes every filter: ``admits(_:)`` read from
    /// the columns, making no string but an extension's when the query names extensions. A name
    /// with any byte outside ASCII is read as characters, as ``admits(_:)`` reads it (a dot with
    /// a combining mark after it, or a prepended mark before it, is no dot there).
    func admits(_ entries: FolderEntries, at index: Int) -> Bool {
        let kind = entries.kinds[index]
        guard admits(kind: kind, size: entries.sizes[index], modified: entries.modified[index]) else {
            return false
        }
        let answer = entries.withName(at: index) { name -> Bool? in
            guard name.allSatisfy({ $0 < 0x80 }) else { return nil }
            if !includesHidden && name.first == UInt8(ascii: ".") { return false }
            if let extensions {
                guard kind != .directory, let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != 0 else {
                    return false
                }
                let suffix = String(
                    decoding: UnsafeBufferPointer(rebasing: name[(dot + 1)...]), as: UTF8.self)
                return extensions.contains(suffix.lowercased())
            }
            return true
        }
        return answer ?? admitsName(entries.name(at: index), kind: kind)
    }

    /// The filters on what an entry is, its size and its date.
    private func admits(kind: IndexedEntry.Kind, size: Int64, modified: Int64) -> Bool {
        if let kinds, !kinds.contains(kind) { return false }
        if let modifiedAfter, modified < modifiedAfter { return false }
        if let modifiedBefore, modified >= modifiedBefore { return false }
        if (minimumSize != nil || maximumSize != nil) && kind == .directory { return false }
        if let minimumSize, size < minimumSize { return false }
        if let maximumSize, size > maximumSize { return false }
        return true
    }

    /// The filters on a name, read as characters: its extension and whether it is hidden.
    private func admitsName(_ name: String, kind: IndexedEntry.Kind) -> Bool {
        if let extensions {
            guard kind != .directory, let dot = name.lastIndex(of: "."), dot != name.startIndex,
                extensions.contains(name[name.index(after: dot)...].lowercased())
            else { return false }
        }
        return includesHidden || !name.hasPrefix(".")
    }
}
