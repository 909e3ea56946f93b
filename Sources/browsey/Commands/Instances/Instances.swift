import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey list`: the servers running on this machine.
struct Instances: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The Browsey servers running on this machine (browsey stop ends them)."
    )

    @Flag(help: "Print JSON (one array of records) instead of a table.")
    var json = false

    func run() throws {
        let records = InstanceRegistry.standard()?.running() ?? []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(records)) ?? Data("[]".utf8)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        guard !records.isEmpty else {
            print("No Browsey server is running on this machine.")
            return
        }
        print(Self.table(records))
    }

    /// One line a server: PID, port, mode, HTTPS and the gate, and the folder.
    static func table(_ records: [InstanceRecord]) -> String {
        var rows = [["PID", "PORT", "MODE", "HTTPS", "TOKEN", "FOLDER"]]
        for record in records {
            rows.append([
                String(record.pid), String(record.port), record.mode, record.https ? "yes" : "no",
                record.gated ? "on" : "off", record.root,
            ])
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<5).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined()
                + row[5]
        }.joined(separator: "\n")
    }
}

/// `browsey stop`: ends servers running on this machine, found in the registry only.
struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop Browsey servers on this machine: browsey stop 4321 | :8080 | ~/Notes",
        discussion: """
            Only servers that `browsey serve` registered are stopped, never another process. \
            A target that matches several asks first (or needs --all when there is no terminal).
            """)

    @Argument(
        help: ArgumentHelp(
            "A PID, :PORT, or the served folder; with --all, may be left out.", valueName: "target"))
    var target: String?

    @Flag(help: "Stop every server the target matches (every one, without a target), without asking.")
    var all = false

    @Flag(help: "Kill a server that has not stopped 5 seconds after being asked (SIGKILL).")
    var force = false

    func validate() throws {
        if target == nil && !all {
            throw ValidationError("Name a server (PID, :PORT or folder), or give --all.")
        }
    }

    func run() throws {
        let records = InstanceRegistry.standard()?.running() ?? []
        let matches = try Self.matching(target, in: records)
        guard !matches.isEmpty else {
            throw CommandFailure(
                .noSuchServer, "No Browsey server on this machine matches \(target ?? "--all").")
        }
        if matches.count > 1 && !all {
            let list = Instances.table(matches)
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandFailure(
                    .noSuchServer,
                    "\(matches.count) servers match \(target ?? ""):\n\(list)\nName one by its PID, or give --all."
                )
            }
            print(list)
            print("Stop these \(matches.count) servers? [y/N] ", terminator: "")
            fflush(nil)
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                throw CommandFailure(.noSuchServer, "Nothing stopped.")
            }
        }
        var failed: [String] = []
        for record in matches {
            if stop(record) {
                print("Stopped \(record.pid) (:\(record.port), \(record.root))")
            } else {
                failed.append(String(record.pid))
            }
        }
        if !failed.isEmpty {
            throw CommandFailure(
                .noSuchServer,
                "Still running: \(failed.joined(separator: ", "))\(force ? "" : " (--force kills what does not stop)")"
            )
        }
    }

    /// The records `target` names: a PID, `:PORT`, or a folder (its real path).
    static func matching(_ target: String?, in records: [InstanceRecord]) throws -> [InstanceRecord] {
        guard let target else { return records }
        if let pid = Int32(target) { return records.filter { $0.pid == pid } }
        if target.hasPrefix(":") {
            guard let port = Int(target.dropFirst()) else {
                throw ValidationError("\(target) is not a port: write it as :8080.")
            }
            return records.filter { $0.port == port }
        }
        let real = realPath(target) ?? target
        return records.filter { $0.root == real || realPath($0.root) == real }
    }

    /// Asks the server to stop (SIGTERM: its graceful shutdown) and waits for it; with
    /// `--force`, kills it after 5 seconds. Signals only the process the registry vouches for.
    func stop(_ record: InstanceRecord) -> Bool {
        guard InstanceRegistry.isAlive(record) else { return true }
        kill(record.pid, SIGTERM)
        // The server's own shutdown gives requests 10 s by default.
        let patience = force ? 50 : 150
        for _ in 0..<patience {
            if !InstanceRegistry.isAlive(record) { return true }
            usleep(100_000)
        }
        guard force, InstanceRegistry.isAlive(record) else { return !InstanceRegistry.isAlive(record) }
        kill(record.pid, SIGKILL)
        for _ in 0..<50 {
            if !InstanceRegistry.isAlive(record) {
                InstanceRegistry.standard()?.unregister(pid: record.pid)
                return true
            }
            usleep(100_000)
        }
        return false
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
