/// A QR code symbol (ISO/IEC 18004's word for the printed square) of some bytes: byte mode,
/// error correction level M (15% of the code may be lost), versions 1 to 10 (up to 213 bytes),
/// the mask chosen by the standard's penalty rules.
///
/// ```swift
/// let code = try QRSymbol(text: "http://192.168.1.23:8080/")
/// print(code.terminalString())     // scan it from a phone
/// let png = code.pngData(scale: 8) // or save it as an image
/// ```
public struct QRSymbol: Sendable, Hashable {
    /// The version, 1–10: the code is `17 + 4 × version` modules wide.
    public let version: Int
    /// The mask pattern used, 0–7.
    public let mask: Int
    /// Modules row by row; `true` is dark. `modules[row][column]`.
    public let modules: [[Bool]]

    /// The width (and height) in modules, without the quiet zone.
    public var size: Int { modules.count }

    /// Encodes text as UTF-8.
    public init(text: String) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Encodes bytes in the smallest version that holds them.
    ///
    /// - Throws: ``QRCodeError`` `.tooLong` when more than 213 bytes are given.
    public init(bytes: [UInt8]) throws(QRCodeError) {
        guard let version = QRVersion.smallest(holding: bytes.count) else {
            throw QRCodeError(.tooLong, "\(bytes.count) bytes do not fit a version 10 QR code (213 at most)")
        }
        let codewords = QRVersion.codewords(for: bytes, version: version)
        var matrix = QRMatrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(codewords)
        func masked(_ mask: Int) -> QRMatrix {
            var candidate = matrix
            candidate.applyMask(mask)
            candidate.drawFormatBits(mask: mask)
            return candidate
        }
        var chosen = (penalty: masked(0).penalty(), mask: 0, matrix: masked(0))
        for mask in 1..<8 {
            let candidate = masked(mask)
            let penalty = candidate.penalty()
            if penalty < chosen.penalty { chosen = (penalty, mask, candidate) }
        }
        self.version = version.number
        self.mask = chosen.mask
        self.modules = chosen.matrix.modules
    }

    /// Whether the module at `row`, `column` is dark; outside the code (the quiet zone) is light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard row >= 0, column >= 0, row < size, column < size else { return false }
        return modules[row][column]
    }
}
