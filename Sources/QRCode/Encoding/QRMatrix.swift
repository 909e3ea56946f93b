/// The grid being built: function patterns first, then the data, the mask and the format bits.
struct QRMatrix {
    let version: QRVersion
    var modules: [[Bool]]
    /// Modules that belong to function patterns (never masked, never data).
    var isFunction: [[Bool]]

    init(version: QRVersion) {
        self.version = version
        modules = Array(repeating: Array(repeating: false, count: version.size), count: version.size)
        isFunction = modules
    }

    var size: Int { version.size }

    mutating func setFunction(row: Int, column: Int, _ dark: Bool) {
        modules[row][column] = dark
        isFunction[row][column] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(row: 6, column: index, index % 2 == 0)
            setFunction(row: index, column: 6, index % 2 == 0)
        }
        drawFinder(row: 3, column: 3)
        drawFinder(row: 3, column: size - 4)
        drawFinder(row: size - 4, column: 3)
        let positions = version.alignmentPositions
        for (i, row) in positions.enumerated() {
            for (j, column) in positions.enumerated() {
                let overlapsFinder =
                    (i == 0 && j == 0) || (i == 0 && j == positions.count - 1)
                    || (i == positions.count - 1 && j == 0)
                if !overlapsFinder { drawAlignment(row: row, column: column) }
            }
        }
        drawFormatBits(mask: 0)  // reserves the areas; redrawn with the real mask later
        drawVersionBits()
    }

    /// A finder pattern with its separator, centred at `row`, `column`.
    private mutating func drawFinder(row: Int, column: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let r = row + dy
                let c = column + dx
                guard r >= 0, r < size, c >= 0, c < size else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(row: r, column: c, distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignment(row: Int, column: Int) {
        for dy in -2...2 {
            for dx in -2...2 { setFunction(row: row + dy, column: column + dx, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// The 15 format bits (level M, the mask) in both copies, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let data = 0 << 3 | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(row: index, column: 8, bit(index)) }
        setFunction(row: 7, column: 8, bit(6))
        setFunction(row: 8, column: 8, bit(7))
        setFunction(row: 8, column: 7, bit(8))
        for index in 9..<15 { setFunction(row: 8, column: 14 - index, bit(index)) }
        for index in 0..<8 { setFunction(row: 8, column: size - 1 - index, bit(index)) }
        for index in 8..<15 { setFunction(row: size - 15 + index, column: 8, bit(index)) }
        setFunction(row: size - 8, column: 8, true)
    }

    /// The 18 version bits, for versions 7 and up.
    private mutating func drawVersionBits() {
        guard version.number >= 7 else { return }
        var remainder = version.number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version.number << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            setFunction(row: b, column: a, dark)
            setFunction(row: a, column: b, dark)
        }
    }

    /// Places the codewords in the zigzag order, two columns at a time from the bottom right.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        let totalBits = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let column = right - offset
                    let row = upward ? size - 1 - vertical : vertical
                    guard !isFunction[row][column] else { continue }
                    if index < totalBits {
                        modules[row][column] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    mutating func applyMask(_ mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !isFunction[row][column] {
                let x = column
                let y = row
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { modules[row][column].toggle() }
            }
        }
    }

    /// The standard's four penalty rules: runs, 2×2 blocks, finder-like patterns, balance.
    func penalty() -> Int {
        var total = 0
        func lines() -> [[Bool]] {
            var result = modules
            for column in 0..<size { result.append((0..<size).map { modules[$0][column] }) }
            return result
        }
        let finderLike: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true],
        ]
        for line in lines() {
            var runLength = 1
            for index in 1..<line.count {
                if line[index] == line[index - 1] {
                    runLength += 1
                } else {
                    if runLength >= 5 { total += 3 + runLength - 5 }
                    runLength = 1
                }
            }
            if runLength >= 5 { total += 3 + runLength - 5 }
            if line.count >= 11 {
                for start in 0...(line.count - 11) {
                    for pattern in finderLike where Array(line[start..<(start + 11)]) == pattern {
                        total += 40
                    }
                }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let color = modules[row][column]
                if color == modules[row][column + 1] && color == modules[row + 1][column]
                    && color == modules[row + 1][column + 1]
                {
                    total += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let cells = size * size
        let k = (abs(dark * 20 - cells * 10) + cells - 1) / cells - 1
        total += k * 10
        return total
    }
}
