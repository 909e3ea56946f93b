extension Array where Element == UInt32 {
    /// Where `value` stands in this ascending array, if it is there (a binary search).
    func place(of value: UInt32) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value ? low : nil
    }

    /// The number of each folder's first name when the names of `folders` are numbered in
    /// order, folder after folder, then the count of names.
    static func firstNumbers(of folders: [FolderRecord]) -> [UInt32] {
        var starts: [UInt32] = []
        starts.reserveCapacity(folders.count + 1)
        var total: UInt32 = 0
        for record in folders {
            starts.append(total)
            total += UInt32(record.entries.count)
        }
        starts.append(total)
        return starts
    }
}
