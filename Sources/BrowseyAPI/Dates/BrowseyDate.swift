#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The contract's dates: ISO-8601 in UTC with milliseconds (`2024-01-15T10:30:00.000Z`).
/// Writing is done by hand (a tenth of the cost of a formatter); reading accepts the date with or
/// without fractional seconds, since Swift's plain `.iso8601` strategy rejects them.
public enum BrowseyDate {
    /// The date as the contract writes it; milliseconds are truncated, not rounded.
    public static func string(from date: Date) -> String {
        // The tiny nudge keeps an exact millisecond, stored inexactly as a Double, from truncating down.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000 + 0.000_001).rounded(.down))
        return string(millisecondsSince1970: milliseconds)
    }

    /// The contract's form of a time given in milliseconds since 1970.
    public static func string(millisecondsSince1970 milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(millisecondsSince1970: milliseconds, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the contract's form of a time (24 bytes) to `bytes`, without making a string.
    public static func write(millisecondsSince1970 milliseconds: Int64, into bytes: inout [UInt8]) {
        write(millisecondsSince1970: milliseconds) { bytes.append($0) }
    }

    /// Hands the contract's form of a time to `append`, one byte at a time.
    @inline(__always)
    static func write(millisecondsSince1970 milliseconds: Int64, _ append: (UInt8) -> Void) {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let days = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        let secondOfDay = Int(seconds - Int64(days) * 86400)
        let (year, month, day) = civilDate(daysSince1970: days)
        func two(_ value: Int) {
            append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
            append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
        }
        let clampedYear = min(max(year, 0), 9999)
        two(clampedYear / 100)
        two(clampedYear % 100)
        append(UInt8(ascii: "-"))
        two(month)
        append(UInt8(ascii: "-"))
        two(day)
        append(UInt8(ascii: "T"))
        two(secondOfDay / 3600)
        append(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        append(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        append(UInt8(ascii: "."))
        append(UInt8(truncatingIfNeeded: 0x30 + millis / 100))
        two(millis % 100)
        append(UInt8(ascii: "Z"))
    }

    /// The day a ``write(millisecondsSince1970:to:day:)`` wrote last, with its `YYYY-MM-DD`:
    /// the files of one folder mostly share days, and the calendar sum is most of the cost.
    struct LastDay {
        var day = Int.min
        var text: (UInt64, UInt16) = (0, 0)
    }

    /// Writes the contract's form of a time, 24 bytes, at `target`, which has room for them.
    static func write(
        millisecondsSince1970 milliseconds: Int64, to target: UnsafeMutablePointer<UInt8>,
        day last: inout LastDay
    ) {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let days = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        let secondOfDay = Int(seconds - Int64(days) * 86400)
        if days != last.day {
            var index = 0
            withUnsafeMutableBytes(of: &last.text) { text in
                write(millisecondsSince1970: Int64(days) * 86_400_000) { byte in
                    if index < 10 { text[index] = byte }
                    index += 1
                }
            }
            last.day = days
        }
        withUnsafeBytes(of: last.text) { text in
            UnsafeMutableRawBufferPointer(start: target, count: 10).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: text.prefix(10)))
        }
        @inline(__always) func two(_ value: Int, at offset: Int) {
            target[offset] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
            target[offset + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
        }
        target[10] = UInt8(ascii: "T")
        two(secondOfDay / 3600, at: 11)
        target[13] = UInt8(ascii: ":")
        two(secondOfDay / 60 % 60, at: 14)
        target[16] = UInt8(ascii: ":")
        two(secondOfDay % 60, at: 17)
        target[19] = UInt8(ascii: ".")
        target[20] = UInt8(truncatingIfNeeded: 0x30 + millis / 100)
        two(millis % 100, at: 21)
        target[23] = UInt8(ascii: "Z")
    }

    /// Year, month and day of a count of days since 1970-01-01 (proleptic Gregorian).
    public static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`; `nil` for anything else.
    public static func date(from string: String) -> Date? {
        let utf8 = Array(string.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= utf8.count else { return nil }
            var value = 0
            for byte in utf8[start..<(start + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard utf8.count >= 20, utf8[4] == 45, utf8[7] == 45, utf8[10] == 84 || utf8[10] == 116,
            utf8[13] == 58, utf8[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < utf8.count, utf8[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 {
                fraction += Double(utf8[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        guard index < utf8.count else { return nil }
        switch utf8[index] {
        case 90, 122:  // Z
            index += 1
        case 43, 45:  // + -
            guard let hours = number(index + 1, 2), utf8.count > index + 3 else { return nil }
            let minutesStart = utf8[index + 3] == 58 ? index + 4 : index + 3
            guard let minutes = number(minutesStart, 2) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (utf8[index] == 45 ? -1 : 1)
            index = minutesStart + 2
        default:
            return nil
        }
        guard index == utf8.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// Encodes dates the contract's way.
    public static let encodingStrategy: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(string(from: date))
    }

    /// Decodes dates with or without milliseconds.
    public static let decodingStrategy: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = date(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(text) is not an ISO-8601 date")
        }
        return date
    }
}

extension JSONEncoder {
    /// An encoder for the contract: compact, keys sorted (stable output), Browsey's dates.
    public static func browsey() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = BrowseyDate.encodingStrategy
        return encoder
    }
}

extension JSONDecoder {
    /// A decoder for the contract, taking dates with or without milliseconds.
    public static func browsey() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = BrowseyDate.decodingStrategy
        return decoder
    }
}
