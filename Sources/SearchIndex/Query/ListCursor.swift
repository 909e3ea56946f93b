/// Reads one list of ``NameGrams`` from its first name: a bitmap's set bits, or a list of gaps
/// decoded one by one. Holds no reference to the lists: they are lent to each call, so a loop
/// that reads them lends them once.
struct ListCursor {
    /// Where the next byte (a list of gaps) or the next 64-bit word (a bitmap) is read.
    private var position: Int
    private let end: Int
    private let dense: Bool
    /// A list of gaps: the last number read, plus one.
    private var previous: UInt32 = 0
    /// A bitmap: the bits of the word being read not yet returned.
    private var word: UInt64 = 0
    /// A bitmap: the number of that word's first bit.
    private var base = -64

    /// A reader from byte `start`; for a list of gaps read from partway, `previous` is the
    /// number before `start`'s plus one.
    init(start: Int, end: Int, dense: Bool, previous: UInt32 = 0) {
        position = start
        self.end = end
        self.dense = dense
        self.previous = previous
    }

    /// The next name's number, ascending, or `nil` at the list's end.
    @inline(__always)
    mutating func next(in postings: UnsafeBufferPointer<UInt8>) -> UInt32? {
        if dense {
            while word == 0 {
                guard position < end else { return nil }
                word = Self.word(at: position, in: postings)
                position += 8
                base += 64
            }
            let bit = word.trailingZeroBitCount
            word &= word &- 1
            return UInt32(base + bit)
        }
        guard position < end else { return nil }
        var gap: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = postings[position]
            position += 1
            gap |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        previous &+= gap
        return previous - 1
    }

    /// The 64-bit word of a bitmap at byte `position`, bit 0 its first name's.
    @inline(__always)
    private static func word(at position: Int, in postings: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(
            littleEndian: UnsafeRawBufferPointer(postings).loadUnaligned(
                fromByteOffset: position, as: UInt64.self))
    }

    /// Adds one to the count, kept in `planes` as bits, of every name the list holds whose bit
    /// lies in the words `range` (see ``NameGrams/scatteredHits(for:matcher:under:inHalves:)``),
    /// a bitmap's word at a time. A list of gaps is first set as a bitmap in `scratch` (all zero,
    /// and left so): one bit a name, where adding each name on its own would carry it through
    /// the planes. (Gathering a word's bits in a register instead mispredicts a branch at every
    /// word the names pass to: slower.) `planes` holds `planeCount` planes of `words` words
    /// each, the lowest first, and `scratch` one, their first word being word `origin` of the
    /// whole numbering; `range` lies within them. A count that would pass the highest plane wraps.
    mutating func count(
        into planes: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutableBufferPointer<UInt64>,
        words: Int, origin: Int, planeCount: Int, from postings: UnsafeBufferPointer<UInt8>,
        within range: Range<Int>
    ) {
        if dense {
            var index = range.lowerBound
            position += 8 * index
            while position < end && index < range.upperBound {
                Self.add(
                    Self.word(at: position, in: postings), at: index - origin, to: planes, words: words,
                    planeCount: planeCount)
                position += 8
                index += 1
            }
            return
        }
        while let number = next(in: postings) {
            let index = Int(number >> 6)
            guard index < range.upperBound else { break }  // numbers ascend
            if index >= range.lowerBound { scratch[index - origin] |= 1 << UInt64(number & 63) }
        }
        for index in (range.lowerBound - origin)..<(range.upperBound - origin) where scratch[index] != 0 {
            Self.add(scratch[index], at: index, to: planes, words: words, planeCount: planeCount)
            scratch[index] = 0
        }
    }

    /// Adds the bits of `carry` to word `index` of the count in `planes`, carrying from plane
    /// to plane.
    @inline(__always)
    private static func add(
        _ carry: UInt64, at index: Int, to planes: UnsafeMutableBufferPointer<UInt64>, words: Int,
        planeCount: Int
    ) {
        var carry = carry
        var plane = 0
        while carry != 0 && plane < planeCount {
            let slot = plane * words + index
            let next = planes[slot] & carry
            planes[slot] ^= carry
            carry = next
            plane += 1
        }
    }
}
