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
    let printed = try SpawnedProcess.run("python3", ["-c", script, path], output: .standardOutput)
    let object = try JSONSerialization.jsonObject(with: Data(printed.output.utf8)) as? [String: Any] ?? [:]
    var entries: [String: (Int, UInt32)] = [:]
    for (name, value) in object["entries"] as? [String: [Any]] ?? [:] {
        entries[name] = ((value[0] as? Int) ?? -1, UInt32((value[1] as? Int) ?? -1))
    }
    return ((object["ok"] as? Bool) ?? false, entries)
}
