internal import CFileTreeSystem

/// Asking memory ahead for what reading a name touches.
///
/// A search by pair reads names scattered over the whole catalog, and each read is three
/// fetches from memory one after the other: the folder's record (for its arrays), the end of
/// the name in its folder's ends, then the name's bytes. Read one name at a time, a core waits
/// for each in turn. A loop that knows the numbers it will read next asks for the record of the
/// one `recordDistance` ahead, the ends of the one `endsDistance` ahead (its record is in cache
/// by then) and the bytes of the one `bytesDistance` ahead (its ends are), so that the three
/// fetches of several names are under way at once.
///
/// These are hints: a hint for a name the loop then passes by costs a fetch and nothing else,
/// and no hint reads anything a loop relies on (a prefetch does not fault, and what the hints
/// touch is held by ``folders``).
extension NameOrder {
    /// How far ahead of the name being read each fetch is asked for, in names a loop reads.
    static let recordDistance = 12
    static let endsDistance = 6
    static let bytesDistance = 3

    /// The first step for the name at `place` (its folder and its place there): its folder's
    /// record.
    @inline(__always)
    func askForRecord(at place: (folder: Int, index: Int)) {
        let folder = place.folder
        folders.withUnsafeBufferPointer { records in
            // What a search reads of it lies in its bytes 16 to 47: one line, or two.
            let record = UnsafeRawPointer(Unmanaged.passUnretained(records[folder]).toOpaque())
            cft_prefetch(record + 16)
            cft_prefetch(record + 47)
        }
    }

    /// The second step: where the name ends, and its character summary.
    @inline(__always)
    func askForEnds(at place: (folder: Int, index: Int)) {
        withRecord(place.folder) { record in
            record.foldedEnds.withUnsafeBufferPointer { ends in
                guard let base = ends.baseAddress else { return }
                // The end of the name before it is where it starts, one line before at most.
                cft_prefetch(base + max(place.index - 1, 0))
                cft_prefetch(base + place.index)
            }
            record.masks.withUnsafeBufferPointer { masks in
                if let base = masks.baseAddress { cft_prefetch(base + place.index) }
            }
        }
    }

    /// The third step: the name's folded bytes, when its character summary holds `mask` (the
    /// summary was asked for with its ends).
    @inline(__always)
    func askForBytes(at place: (folder: Int, index: Int), mask: UInt64) {
        withRecord(place.folder) { record in
            guard record.mask(at: place.index) & mask == mask else { return }
            let start = record.foldedBounds(at: place.index).lowerBound
            record.folded.withUnsafeBufferPointer { folded in
                if let base = folded.baseAddress { cft_prefetch(base + start) }
            }
        }
    }

    /// Lends the record of `folder` without counting a reference to it (``folders`` holds it):
    /// the count is a write on the record's first line, which a hint is asked for precisely not
    /// to wait on, and which two searches reading the same folders would contend on.
    @inline(__always)
    func withRecord<Result>(_ folder: Int, _ body: (FolderRecord) -> Result) -> Result {
        folders.withUnsafeBufferPointer { records in
            Unmanaged.passUnretained(records[folder])._withUnsafeGuaranteedRef(body)
        }
    }
}
