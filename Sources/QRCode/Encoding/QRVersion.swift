/// The capacities of versions 1–10 at error correction level M, and how bytes become the final
/// sequence of codewords (data, padding, Reed–Solomon error correction, interleaving).
struct QRVersion {
    let number: Int
    /// Error-correction codewords per block.
    let ecPerBlock: Int
    /// Data codewords of each block (groups of short blocks, then long ones).
    let blockDataLengths: [Int]
    /// Where alignment patterns are centred (rows and columns).
    let alignmentPositions: [Int]

    var dataCodewords: Int { blockDataLengths.reduce(0, +) }
    var size: Int { 17 + 4 * number }
    /// Bits of the byte-mode character count.
    var countBits: Int { number < 10 ? 8 : 16 }
    /// How many bytes of input fit: 4 mode bits and the count, then 8 bits a byte.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    static let all: [QRVersion] = [
        QRVersion(number: 1, ecPerBlock: 10, blockDataLengths: [16], alignmentPositions: []),
        QRVersion(number: 2, ecPerBlock: 16, blockDataLengths: [28], alignmentPositions: [6, 18]),
        QRVersion(number: 3, ecPerBlock: 26, blockDataLengths: [44], alignmentPositions: [6, 22]),
        QRVersion(number: 4, ecPerBlock: 18, blockDataLengths: [32, 32], alignmentPositions: [6, 26]),
        QRVersion(number: 5, ecPerBlock: 24, blockDataLengths: [43, 43], alignmentPositions: [6, 30]),
        QRVersion(
            number: 6, ecPerBlock: 16, blockDataLengths: [27, 27, 27, 27], alignmentPositions: [6, 34]),
        QRVersion(
            number: 7, ecPerBlock: 18, blockDataLengths: [31, 31, 31, 31], alignmentPositions: [6, 22, 38]),
        QRVersion(
            number: 8, ecPerBlock: 22, blockDataLengths: [38, 38, 39, 39], alignmentPositions: [6, 24, 42]),
        QRVersion(
            number: 9, ecPerBlock: 22, blockDataLengths: [36, 36, 36, 37, 37],
            alignmentPositions: [6, 26, 46]),
        QRVersion(
            number: 10, ecPerBlock: 26, blockDataLengths: [43, 43, 43, 43, 44],
            alignmentPositions: [6, 28, 50]),
    ]

    static func smallest(holding count: Int) -> QRVersion? {
        all.first { $0.byteCapacity >= count }
    }

    /// The codewords to place: the data bit stream cut into blocks, each with its error
    /// correction, interleaved.
    static func codewords(for bytes: [UInt8], version: QRVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)  // byte mode
        bits.append(bytes.count, count: version.countBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))  // terminator
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < version.dataCodewords {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }

        let divisor = ReedSolomon.divisor(degree: version.ecPerBlock)
        var blocks: [[UInt8]] = []
        var errorCorrection: [[UInt8]] = []
        var offset = 0
        for length in version.blockDataLengths {
            let block = Array(data[offset..<(offset + length)])
            blocks.append(block)
            errorCorrection.append(ReedSolomon.remainder(of: block, divisor: divisor))
            offset += length
        }
        var result: [UInt8] = []
        for index in 0..<(version.blockDataLengths.max() ?? 0) {
            for block in blocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<version.ecPerBlock {
            for block in errorCorrection { result.append(block[index]) }
        }
        return result
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            var byte: UInt8 = 0
            for index in start..<min(start + 8, bits.count) where bits[index] {
                byte |= 0x80 >> (index - start)
            }
            return byte
        }
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(shift)) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The generator polynomial's coefficients (highest degree dropped), for `degree` codewords.
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }
}
