import ArgumentParser
import ServiceDiscovery

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey discover`: the Browsey servers announced on the local network.
struct Discover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the Browsey servers on the local network (Bonjour).",
        discussion: """
            Browses for _browsey._tcp through the system's mDNS responder (Avahi on Linux) for \
            --timeout seconds, then prints each server's name, URL, folder, mode and whether it \
            asks for a token. Finding none is not an error; no responder is (exit status 1).
            """)

    @Option(help: "How long to listen, in seconds.")
    var timeout: Double = 3

    @Flag(
        help:
            "Print a JSON array (name, url, hostName, port, addresses, folder, readOnly, requiresToken, version, serverId, txt)."
    )
    var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout takes more than 0 and at most 600 seconds.")
        }
    }

    func run() async throws {
        let bonjour: Bonjour
        do {
            bonjour = try Bonjour()
        } catch {
            throw CommandFailure(.discoveryUnavailable, "Bonjour is not available: \(error.message)")
        }
        let servers: [DiscoveredServer]
        do {
            servers = try await bonjour.discoverBrowseyServers(for: .milliseconds(Int(timeout * 1000)))
        } catch let error as ServiceDiscoveryError {
            throw CommandFailure(.discoveryUnavailable, "Bonjour is not available: \(error.message)")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(servers), as: UTF8.self))
            return
        }
        guard !servers.isEmpty else {
            print("No Browsey server answered within \(Self.seconds(timeout)).")
            return
        }
        let rows =
            [["NAME", "URL", "FOLDER", "MODE", "AUTH"]]
            + servers.map { server in
                [
                    Output.visible(server.name), Output.visible(server.url),
                    Output.visible(server.folder ?? "?"),
                    server.readOnly ? "read-only" : "read-write",
                    server.requiresToken ? "token" : "open",
                ]
            }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == 4 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            print(cells.joined(separator: "  "))
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
