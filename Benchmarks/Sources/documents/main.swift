// Times the document browser's index on a documents folder and prints one JSON object, so
// Benchmarks/Scripts/document_bench.py can put it beside `find` and Foundation's enumerator.
//
//   documents ROOT EXTENSION [ROUNDS]
//
// first scan:   DocumentIndex.scan + the root's items sorted newest first (what a browser shows)
// one change:   a document rewritten, then apply(that path) + the root's items again
// full re-read: the same change answered by scanning everything again (what incremental avoids)
// foundation:   FileManager.enumerator with size, date and directory keys, keeping the extension
// live:         a DocumentBrowserModel watching the folder: file written → shown (includes the
//               watcher's 50 ms coalescing)
import DocumentBrowser
import FileTree
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: documents ROOT EXTENSION [ROUNDS]\n".utf8))
    exit(2)
}
let root = arguments[1]
let library = DocumentLibrary(root: root, documentExtensions: [arguments[2]], excludedFolderNames: ["Inbox"])
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 15 : 15
let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

var scans: [Double] = []
var shown = 0
var documents = 0
for _ in 0..<rounds {
    let started = clock.now
    let index = try DocumentIndex.scan(library)
    shown = index.items(in: "", order: .newestFirst).count
    scans.append(milliseconds(clock.now - started))
    documents = index.documentCount
}

// One document rewritten at a time, each change applied on its own.
var index = try DocumentIndex.scan(library)
let candidates = index.items(in: "", order: .byName).filter { $0.kind == .document && !$0.isPackage }
var changes: [Double] = []
var fullRereads: [Double] = []
for round in 0..<rounds * 4 {
    guard !candidates.isEmpty else { break }
    let target = candidates[(round * 37) % candidates.count]
    try FileOperations.writeAtomically(Array("changed \(round)".utf8), to: target.path)
    let started = clock.now
    let touched = index.apply(DirectoryChanges(paths: [target.path]))
    _ = index.items(in: "", order: .newestFirst)
    changes.append(milliseconds(clock.now - started))
    precondition(touched == [target.id], "the change was not seen")
    if round < rounds {
        let again = clock.now
        _ = try DocumentIndex.scan(library).items(in: "", order: .newestFirst)
        fullRereads.append(milliseconds(clock.now - again))
    }
}

var foundation: [Double] = []
let ext = arguments[2].lowercased()
for _ in 0..<rounds {
    let started = clock.now
    var found = 0
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isDirectoryKey]
    if let enumerator = FileManager.default.enumerator(
        at: URL(fileURLWithPath: root), includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    {
        for case let url as URL in enumerator where url.pathExtension.lowercased() == ext {
            let values = try url.resourceValues(forKeys: Set(keys))
            if values.isDirectory == true { enumerator.skipDescendants() }
            _ = values.fileSize
            found += 1
        }
    }
    precondition(found > 0)
    foundation.append(milliseconds(clock.now - started))
}

// Live: the model watching the folder, a new document written, the time until it is shown.
let model = DocumentBrowserModel(library: library)
await model.load()
try model.startMonitoring()
var live: [Double] = []
for round in 0..<5 {
    let name = "Live \(round).\(arguments[2])"
    let started = clock.now
    try FileOperations.createFile(Array("live".utf8), at: root + "/" + name)
    while !model.items.contains(where: { $0.id == name }) {
        try await Task.sleep(for: .milliseconds(1))
        if clock.now - started > .seconds(10) { break }
    }
    live.append(milliseconds(clock.now - started))
    try FileOperations.remove(root + "/" + name)
    try await Task.sleep(for: .milliseconds(200))
}
model.stopMonitoring()

let result: [String: Any] = [
    "documents": documents, "shown": shown,
    "scan_ms": median(scans), "scan_min_ms": scans.min() ?? 0,
    "change_ms": median(changes), "change_max_ms": changes.max() ?? 0,
    "full_reread_ms": median(fullRereads),
    "foundation_ms": median(foundation),
    "live_ms": median(live),
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
