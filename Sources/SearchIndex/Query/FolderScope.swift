/// Which folders a search looks in: the folder searched or below it, and hidden folders only
/// when asked for. A small value of its own, so that a loop asks it of each folder without
/// copying the hits it gathers (``NameGathering`` is large, and holds references).
struct FolderScope: Sendable {
    /// The folder searched (`""` for the root).
    let folder: String
    let includesHidden: Bool

    /// Whether the search looks in `record`.
    @inline(__always)
    func looks(in record: FolderRecord) -> Bool {
        record.lies(in: folder) && (includesHidden || !record.isHidden)
    }
}
