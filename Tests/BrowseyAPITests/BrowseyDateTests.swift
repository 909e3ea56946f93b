import BrowseyAPI
import Foundation
import Testing

@Suite("The contract's dates")
struct BrowseyDateTests {
    @Test("dates are written in UTC with exactly three truncated fractional digits")
    func writing() {
        #expect(BrowseyDate.string(millisecondsSince1970: 1_705_314_600_000) == "2024-01-15T10:30:00.000Z")
        #expect(BrowseyDate.string(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(BrowseyDate.string(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
        #expect(BrowseyDate.string(millisecondsSince1970: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        #expect(BrowseyDate.string(from: Date(timeIntervalSince1970: 1.2349)) == "1970-01-01T00:00:01.234Z")
        #expect(
            BrowseyDate.string(from: Date(timeIntervalSince1970: 1_700_000_000.123))
                == "2023-11-14T22:13:20.123Z")
    }

    @Test("every day of four centuries is written as the system's calendar writes it")
    func agreesWithGmtime() {
        var day: Int64 = -36_524 * 2
        while day < 36_524 * 2 {
            let milliseconds = day * 86_400_000 + 45_296_789
            var seconds = time_t(day * 86_400 + 45_296)  // floor of milliseconds / 1000
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.789Z", parts.tm_year + 1900, parts.tm_mon + 1,
                parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec)
            #expect(BrowseyDate.string(millisecondsSince1970: milliseconds) == expected)
            day += 97
        }
    }

    @Test("the JSON writer writes each date as the contract does, whatever day the one before it was on")
    func jsonWriterRemembersOnlyTheRightDay() {
        var generator = SystemRandomNumberGenerator()
        // Runs of one day, jumps between days (before 1970 too), a day boundary, the year 9999's end.
        var times: [Int64] = [0, -1, 86_399_999, 86_400_000, -86_400_000, -86_400_001, 253_402_300_799_999]
        for _ in 0..<2_000 {
            let day = Int64.random(in: -40_000...40_000, using: &generator)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                times.append(day * 86_400_000 + Int64.random(in: 0..<86_400_000, using: &generator))
            }
        }
        var json = JSONWriter(capacity: 16)
        for (index, time) in times.enumerated() {
            if index > 0 { json.raw(",") }
            json.date(millisecondsSince1970: time)
        }
        let expected = times.map { "\"" + BrowseyDate.string(millisecondsSince1970: $0) + "\"" }.joined(
            separator: ",")
        #expect(json.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test("dates are read with or without milliseconds, and with offsets")
    func reading() throws {
        let exact = try #require(BrowseyDate.date(from: "2024-01-15T10:30:00.000Z"))
        #expect(exact.timeIntervalSince1970 == 1_705_314_600)
        #expect(BrowseyDate.date(from: "2024-01-15T10:30:00Z") == exact)
        #expect(BrowseyDate.date(from: "2024-01-15T11:30:00+01:00") == exact)
        #expect(BrowseyDate.date(from: "2024-01-15T10:30:00.5Z")?.timeIntervalSince1970 == 1_705_314_600.5)
        for bad in [
            "", "2024-01-15", "2024-13-01T00:00:00Z", "2024-01-15T10:30:00", "yesterday",
            "2024-01-15T10:30:00.Z",
        ] {
            #expect(BrowseyDate.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test("a decoder takes both forms and an encoder writes milliseconds")
    func coding() throws {
        struct Stamp: Codable, Equatable { let at: Date }
        let decoder = JSONDecoder.browsey()
        let withMillis = try decoder.decode(
            Stamp.self, from: Data(#"{"at":"2024-01-15T10:30:00.250Z"}"#.utf8))
        let without = try decoder.decode(Stamp.self, from: Data(#"{"at":"2024-01-15T10:30:00Z"}"#.utf8))
        #expect(withMillis.at.timeIntervalSince(without.at) == 0.25)
        let encoded = String(decoding: try JSONEncoder.browsey().encode(withMillis), as: UTF8.self)
        #expect(encoded == #"{"at":"2024-01-15T10:30:00.250Z"}"#)
        #expect(throws: DecodingError.self) {
            try decoder.decode(Stamp.self, from: Data(#"{"at":"soon"}"#.utf8))
        }
    }
}
