extension QRSymbol {
    /// The code drawn with Unicode half blocks, two modules a character row, with a quiet zone of
    /// `border` modules. Colours are set explicitly (black on white), so it scans whatever the
    /// terminal's theme; `colors: false` leaves them out (dark modules drawn as blocks).
    public func terminalString(border: Int = 2, colors: Bool = true) -> String {
        let start = -border
        let end = size + border
        var lines: [String] = []
        var row = start
        while row < end {
            var line = colors ? "\u{1B}[30;47m" : ""
            for column in start..<end {
                let top = isDark(row: row, column: column)
                let bottom = row + 1 < end && isDark(row: row + 1, column: column)
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            if colors { line += "\u{1B}[0m" }
            lines.append(line)
            row += 2
        }
        return lines.joined(separator: "\n")
    }
}
