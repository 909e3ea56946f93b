import FileTree
import TestSupport
import Testing

/// The order by name checked against its rules, written here a second way, over thousands of
/// names built to share long beginnings, differ only in case, accents or number width, and be
/// spelled both NFC and NFD.
@Suite("The order by name")
struct NameOrderTests {
    /// A name's key by the rules: accents dropped, lowercase, each run of digits as `0`, the count
    /// of its significant digits and those digits.
    static func key(of name: String) -> [UInt8] {
        var plain: [UInt8] = []
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\u{301}", "\u{308}": continue
            case "é", "É": plain.append(UInt8(ascii: "e"))
            case "ü", "Ü": plain.append(UInt8(ascii: "u"))
            default:
                let byte = UInt8(scalar.value)
                plain.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
            }
        }
        var key: [UInt8] = []
        var index = 0
        while index < plain.count {
            guard plain[index] >= 0x30 && plain[index] <= 0x39 else {
                key.append(plain[index])
                index += 1
                continue
            }
            var end = index
            while end < plain.count && plain[end] >= 0x30 && plain[end] <= 0x39 { end += 1 }
            var significant = plain[index..<end].drop { $0 == 0x30 }
            if significant.isEmpty { significant = [0x30] }
            key += [0x30, UInt8(significant.count)] + significant
            index = end
        }
        return key
    }

    /// Names from a fixed seed: shared beginnings shorter and longer than 16 bytes, digit runs
    /// with leading zeros, mixed case, and accents in both spellings.
    static func names(count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let beginnings = [
            "", "IMG_", "img_", "file_0", "Report ", "a rather long shared beginning ",
            "a rather long shared beginning", "é", "e\u{301}", "É", "Ü", "u\u{308}",
        ]
        let pieces = ["a", "B", "c", "é", "e\u{301}", "ü", "x", " ", "-", ".", "_", "Zz"]
        var seen: Set<[UInt8]> = []
        var names: [String] = []
        while names.count < count {
            var name = beginnings[next(beginnings.count)]
            for _ in 0..<(1 + next(4)) {
                if next(2) == 0 {
                    name +=
                        String(repeating: "0", count: next(3)) + String(next(next(3) == 0 ? 100_000 : 120))
                } else {
                    name += pieces[next(pieces.count)]
                }
            }
            if next(3) == 0 { name += [".txt", ".JPG", ".md"][next(3)] }
            if name.hasPrefix(".") || name.hasSuffix(" ") { continue }  // hidden, or awkward to see
            if seen.insert(Array(name.utf8)).inserted { names.append(name) }
        }
        return names
    }

    @Test(
        "a folder of 3,000 names is ordered as its rules say, either way, folders first or not",
        arguments: [
            EntryOrder.browsey, EntryOrder(.name, ascending: false),
            EntryOrder(.name, foldersFirst: false), EntryOrder(.name, ascending: false, foldersFirst: false),
        ])
    func generatedNames(order: EntryOrder) throws {
        let names = Self.names(count: 3000)
        let folderNames = Set(
            names.enumerated().filter { $0.offset % 10 == 0 }.map { Array($0.element.utf8) })
        let folder = try TemporaryTreeFixture.make { tree in
            for name in names {
                if folderNames.contains(Array(name.utf8)) {
                    _ = try tree.folder(name)
                } else {
                    try tree.file(name)
                }
            }
        }
        let keys = Dictionary(uniqueKeysWithValues: names.map { (Array($0.utf8), Self.key(of: $0)) })
        let expected = names.map { Array($0.utf8) }.sorted { left, right in
            let (leftFolder, rightFolder) = (folderNames.contains(left), folderNames.contains(right))
            if order.foldersFirst && leftFolder != rightFolder { return leftFolder }
            let (leftKey, rightKey) = (keys[left]!, keys[right]!)
            if leftKey != rightKey { return leftKey.lexicographicallyPrecedes(rightKey) == order.ascending }
            return left.lexicographicallyPrecedes(right) == order.ascending
        }
        let listing = try DirectoryReader(order: order).listing(at: folder.path)
        let listed = listing.items.map { listing.withName(of: $0) { Array($0) } }
        #expect(listed.count == names.count)
        #expect(Self.firstDifference(listed, expected) == nil)
        // The entries of a full read are in the same order.
        let entries = try DirectoryReader(order: order).entries(at: folder.path)
        #expect(Self.firstDifference(entries.map { Array($0.name.utf8) }, expected) == nil)
    }

    /// Where two orders of names first part, said in a line (the whole lists are too long to read).
    static func firstDifference(_ got: [[UInt8]], _ expected: [[UInt8]]) -> String? {
        func text(_ name: [UInt8]) -> String { String(decoding: name, as: UTF8.self).debugDescription }
        guard
            let index = zip(got, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        else {
            return got.count == expected.count ? nil : "\(got.count) names, expected \(expected.count)"
        }
        return
            "at \(index): \(text(got[index])) where \(text(expected[index])) was expected (after \(index > 0 ? text(expected[index - 1]) : "nothing"))"
    }
}
