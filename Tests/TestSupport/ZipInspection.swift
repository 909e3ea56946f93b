import Foundation

/// What Python's `zipfile` (an independent reader) makes of an archive: `testzip()`'s verdict
/// and every entry's name, size and CRC.
public func inspectZip(_ path: String) throws -> (ok: Bool, entries: [String: (size: Int, crc: UInt32)]) {
    let script = """
        import json, sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        bad = z.testzip()
        print(json.dumps({"ok": bad is None, "entries": {i.filename: [i.file_size, i.CRC] for i in z.infolist()}}))
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    var entries: [String: (Int, UInt32)] = [:]
    for (name, value) in object["entries"] as? [String: [Any]] ?? [:] {
        entries[name] = ((value[0] as? Int) ?? -1, UInt32((value[1] as? Int) ?? -1))
    }
    return ((object["ok"] as? Bool) ?? false, entries)
}
