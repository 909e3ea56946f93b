import ServiceDiscovery
import TestSupport
import Testing

@Suite(
    "Bonjour against the machine's own responder (Avahi)",
    .enabled(if: LocalResponder.testsRun, Comment(rawValue: LocalResponder.skipReason)))
struct BonjourTests {
    @Test("a service published by avahi-publish is found, resolved with its TXT record, and located")
    func findsAndResolvesAnotherPublisher() async throws {
        let name = LocalResponder.uniqueName("Other Server")
        let publisher = try ExternalCommand(
            "avahi-publish",
            ["-s", name, "_browsey._tcp", "8123", "version=9.9", "path=/srv/Fotos #1", "readonly=0"])
        defer { publisher.terminate() }
        let bonjour = try Bonjour()
        let instance = try await firstAppearance(of: name, bonjour: bonjour)
        #expect(instance.type.hasPrefix("_browsey._tcp"))
        let resolved = try await bonjour.resolve(instance)
        #expect(resolved.port == 8123)
        #expect(resolved.txt["path"] == "/srv/Fotos #1")
        #expect(resolved.txt["version"] == "9.9")
        #expect(resolved.hostName.hasSuffix(".local."))
        let addresses = try await bonjour.addresses(
            of: resolved.hostName, interfaceIndex: resolved.interfaceIndex)
        #expect(addresses.contains("127.0.0.1"), "addresses: \(addresses)")
        let server = try await bonjour.browseyServer(instance)
        #expect(server.url == "http://127.0.0.1:8123/")
        #expect(server.folder == "/srv/Fotos #1" && !server.readOnly && !server.requiresToken)
    }

    @Test("a service that goes away is reported as disappeared")
    func reportsDisappearance() async throws {
        let name = LocalResponder.uniqueName("Leaving")
        let publisher = try ExternalCommand("avahi-publish", ["-s", name, "_browsey._tcp", "8124"])
        let bonjour = try Bonjour()
        let events = bonjour.browse(type: "_browsey._tcp")
        let watcher = Task { () throws -> Bool in
            var sawAppear = false
            for try await event in events where event.instance.name == name {
                switch event {
                case .appeared:
                    sawAppear = true
                    publisher.terminate()
                case .disappeared:
                    return sawAppear
                }
            }
            return false
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(15))
            watcher.cancel()
        }
        defer { timeout.cancel() }
        #expect(try await watcher.value, "the browse saw it appear, then go")
    }

    @Test("our announcement is seen by avahi-browse with its TXT record, and withdrawn when cancelled")
    func announcementSeenByAvahi() async throws {
        let name = LocalResponder.uniqueName("Browsey (Ünïcode #1)")
        let bonjour = try Bonjour()
        let advertisement = try bonjour.register(
            ServiceRegistration(
                name: name, type: "_browsey._tcp", port: 8125,
                txt: ["version": "1.2", "path": "/srv/a b", "readonly": "1"]))
        #expect(try await advertisement.established() == name)
        let watcher = try ExternalCommand("avahi-browse", ["-rp", "_browsey._tcp"])
        defer { watcher.terminate() }
        let seen = await watcher.waitFor(";8125;", timeout: .seconds(10))
        let line = seen.split(separator: "\n").first { $0.hasPrefix("=") && $0.contains(";8125;") }
        #expect(line != nil, "avahi-browse printed: \(seen)")
        #expect(line?.contains(ServiceName.escaped(name)) == true)
        #expect(line?.contains("\"path=/srv/a b\"") == true)
        #expect(line?.contains("\"readonly=1\"") == true)
        let cancelled = ContinuousClock.now
        advertisement.cancel()
        let gone = "-;lo;IPv4;\(ServiceName.escaped(name));"
        let after = await watcher.waitFor(gone, timeout: .seconds(10))
        #expect(after.contains(gone), "still announced: \(after)")
        print("withdrawn after \(ContinuousClock.now - cancelled)")
    }

    @Test("a name already taken on the network is announced under another one")
    func nameClash() async throws {
        let name = LocalResponder.uniqueName("Browsey (Same)")
        let bonjour = try Bonjour()
        let first = try bonjour.register(ServiceRegistration(name: name, type: "_browsey._tcp", port: 8126))
        #expect(try await first.established() == name)
        let second = try bonjour.register(ServiceRegistration(name: name, type: "_browsey._tcp", port: 8127))
        let chosen = try await second.established()
        #expect(chosen == name + " (2)")
        #expect(second.name == chosen)
    }

    @Test("bad input is refused before it reaches the responder")
    func badInput() throws {
        let bonjour = try Bonjour()
        #expect {
            try bonjour.register(ServiceRegistration(name: "x", type: "_browsey._tcp", port: 0))
        } throws: {
            ($0 as? ServiceDiscoveryError)?.code == .invalidArgument
        }
        #expect {
            try bonjour.register(ServiceRegistration(name: "", type: "_browsey._tcp", port: 80))
        } throws: {
            ($0 as? ServiceDiscoveryError)?.code == .invalidArgument
        }
    }

    private func firstAppearance(of name: String, bonjour: Bonjour) async throws -> ServiceInstance {
        let events = bonjour.browse(type: "_browsey._tcp")
        let search = Task { () throws -> ServiceInstance? in
            for try await event in events {
                if case .appeared(let instance) = event, instance.name == name { return instance }
            }
            return nil
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            search.cancel()
        }
        defer { timeout.cancel() }
        guard let instance = try await search.value else { throw TestSupportError("\(name) was never seen") }
        return instance
    }
}

/// How avahi-browse's parsable output writes a name (bytes outside letters and digits as
/// `\DDD`).
enum ServiceName {
    static func escaped(_ name: String) -> String {
        var text = ""
        for byte in name.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80
                && (scalar.properties.isAlphabetic || (0x30...0x39).contains(byte) || byte == 0x2D
                    || byte == 0x5F)
            {
                text.unicodeScalars.append(scalar)
            } else {
                text +=
                    "\\" + String(repeating: "0", count: byte < 10 ? 2 : byte < 100 ? 1 : 0) + String(byte)
            }
        }
        return text
    }
}
