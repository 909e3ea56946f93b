#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The contract's dates: ISO-8601 in UTC with milliseconds (`2024-01-15T10:30:00.000Z`).
/// Writing is done by hand (a tenth of the cost of a formatter); reading accepts the date with or
/// without fractional seconds, since Swift's plain `.iso8601` strategy rejects them.
public enum BrowseyDate {
    /// The date as the contract writes it; milliseconds are truncated, not rounded.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return string(millisecondsSince1970: milliseconds)
    }

    /// The contract's form of a time given in milliseconds since 1970.
    public static func string(millisecondsSince1970 milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            for _ in 0..<count {
                bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(millis, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
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
