extension StringProtocol {
    /// The text without the spaces and tabs (any Unicode space) at either end; line breaks are
    /// kept, as Foundation's `trimmingCharacters(in: .whitespaces)` keeps them.
    func trimmingSpaces() -> String {
        func isSpace(_ character: Character) -> Bool { character.isWhitespace && !character.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
