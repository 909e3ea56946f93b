import ServiceDiscovery
import Testing

@Suite("TXT records as DNS-SD writes them")
struct TXTRecordTests {
    @Test("pairs survive the wire form in order, with unicode values and flags")
    func roundTrip() throws {
        var record: TXTRecord = ["version": "0.1.0", "path": "/srv/Photos 2024 #1 100%", "name": "Café ☕"]
        record["auth"] = "1"
        let read = TXTRecord(bytes: try record.encoded())
        #expect(read == record)
        #expect(read["PATH"] == "/srv/Photos 2024 #1 100%")
        #expect(read["name"] == "Café ☕")
        let flag = TXTRecord(bytes: [4] + Array("beta".utf8) + [5] + Array("a=b=c".utf8))
        #expect(flag.contains("beta") && flag["beta"] == nil)
        #expect(flag["a"] == "b=c")
    }

    @Test("a malformed record keeps what is whole and drops the rest, never reading past the end")
    func malformed() {
        let bytes: [UInt8] = [3] + Array("a=1".utf8) + [0] + [200] + Array("b=2".utf8)
        let read = TXTRecord(bytes: bytes)
        #expect(read.pairs.count == 1)
        #expect(read["a"] == "1")
        #expect(TXTRecord(bytes: [2, UInt8(ascii: "="), UInt8(ascii: "x")]).pairs.isEmpty)
        let twice = TXTRecord(bytes: [3] + Array("a=1".utf8) + [3] + Array("A=2".utf8))
        #expect(twice["a"] == "1" && twice.pairs.count == 1)
    }

    @Test("an entry over 255 bytes or a key with '=' is refused with a clear error")
    func limits() {
        let long: TXTRecord = ["path": String(repeating: "x", count: 251)]
        #expect(throws: ServiceDiscoveryError.self) { try long.encoded() }
        let fits: TXTRecord = ["path": String(repeating: "x", count: 250)]
        #expect((try? fits.encoded())?.count == 256)
        let bad: TXTRecord = ["a=b": "c"]
        #expect { try bad.encoded() } throws: { ($0 as? ServiceDiscoveryError)?.code == .invalidArgument }
    }

    @Test("a Browsey instance name is the folder's, trimmed to DNS-SD's 63 bytes")
    func instanceNames() {
        #expect(BrowseyService.instanceName(servedFolder: "/home/ana/Photos") == "Browsey (Photos)")
        #expect(BrowseyService.instanceName(servedFolder: "/") == "Browsey (/)")
        let long = BrowseyService.instanceName(servedFolder: "/srv/" + String(repeating: "é", count: 40))
        #expect(long.utf8.count <= 63 && long.hasPrefix("Browsey (é") && long.hasSuffix("é)"))
    }
}
