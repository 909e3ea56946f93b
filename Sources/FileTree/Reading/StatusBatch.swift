internal import CFileTreeSystem

/// One folder's names and their statuses as the status batch read them, before they become a
/// ``FolderListing``: the names NUL-terminated in one buffer, and per entry its `readdir` kind,
/// `statx` result, error and whether a link leads to a folder.
///
/// The order is decided on these arrays, so that each ``FolderListing/Item`` is made once, in its
/// place, rather than made in reading order and copied into sorted order.
struct StatusBatch {
    /// The names, each followed by its NUL: the listing keeps this buffer as its names.
    var names: [UInt8] = []
    /// Where each entry's name starts in ``names``.
    var offsets: [UInt32] = []
    var kinds: [UInt8] = []
    var statuses: [cft_status] = []
    var errors: [Int32] = []
    var leadsToFolder: [UInt8] = []

    var count: Int { offsets.count }

    /// The entry's own type: from its status when it was read, else from `readdir`'s kind.
    func type(_ index: Int) -> EntryType {
        errors[index] == 0 ? EntryType(mode: statuses[index].mode) : EntryType(direntType: kinds[index])
    }

    func status(_ index: Int) -> FileStatus? {
        errors[index] == 0 ? FileStatus(statuses[index]) : nil
    }

    func sortsAsFolder(_ index: Int) -> Bool {
        switch type(index) {
        case .directory: true
        case .symlink: errors[index] == 0 && leadsToFolder[index] != 0
        default: false
        }
    }

    /// The entry's name without its NUL.
    func nameRange(_ index: Int) -> Range<Int> {
        let start = Int(offsets[index])
        let end = (index + 1 < offsets.count ? Int(offsets[index + 1]) : names.count) - 1
        return start..<end
    }

    func withName<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        names.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[nameRange(index)])) }
    }

    func item(_ index: Int) -> FolderListing.Item {
        let range = nameRange(index)
        let status = status(index)
        return FolderListing.Item(
            type: type(index), status: status, errorNumber: errors[index],
            sortsAsFolder: sortsAsFolder(index),
            nameStart: Int32(range.lowerBound), nameLength: Int32(range.count))
    }
}
