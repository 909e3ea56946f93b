// Walks a tree the way each contender would and prints one summary line, so a script can time
// whole processes side by side with `find`.
//
//   walk filetree PATH      FileTree's deep read (default metadata), as a tree
//   walk filetree-walk PATH FileTree's streaming walk (no tree kept)
//   walk foundation PATH    FileManager.enumerator asked for size and modification date
import FileTree
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: walk filetree|filetree-walk|foundation PATH\n".utf8))
    exit(2)
}
let mode = arguments[1]
let root = arguments[2]
var count = 0
var bytes: Int64 = 0
var newest: Double = 0

switch mode {
case "filetree":
    let tree = try DirectoryReader().read(at: root, depth: .deep)
    for entry in tree {
        count += 1
        bytes += entry.size
        if let modified = entry.status?.modified { newest = max(newest, Double(modified.seconds)) }
    }
case "filetree-walk":
    try DirectoryReader().walk(at: root) { entry, _ in
        count += 1
        bytes += entry.size
        if let modified = entry.status?.modified { newest = max(newest, Double(modified.seconds)) }
        return .continue
    }
case "list", "list-unsorted":
    // One folder read 50 times, as a listing reads it: per-listing CPU of the FileTree part.
    let reader = DirectoryReader(filter: .visible, order: mode == "list" ? .browsey : nil)
    let clock = ContinuousClock()
    let started = clock.now
    for _ in 0..<50 {
        let entries = try reader.entries(at: root)
        count = entries.count
        bytes += entries.reduce(0) { $0 + $1.size }
    }
    let perListing = (clock.now - started) / 50
    FileHandle.standardError.write(Data("\(mode): \(perListing) per listing of \(count) entries\n".utf8))
case "foundation":
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
    guard
        let enumerator = FileManager.default.enumerator(
            at: URL(fileURLWithPath: root), includingPropertiesForKeys: keys)
    else { exit(1) }
    for case let url as URL in enumerator {
        let values = try url.resourceValues(forKeys: Set(keys))
        count += 1
        bytes += Int64(values.fileSize ?? 0)
        newest = max(newest, values.contentModificationDate?.timeIntervalSince1970 ?? 0)
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
}
print("\(mode) entries=\(count) bytes=\(bytes) newest=\(Int(newest))")
