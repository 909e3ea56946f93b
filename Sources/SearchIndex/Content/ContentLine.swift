/// One line of a file that matches a content search: its number, a snippet of it and where the
/// matches are in the snippet.
public struct ContentLine: Sendable, Hashable {
    /// The line's number, from 1.
    public var number: Int
    /// The line, or the part of a long line around its first match.
    public var text: String
    /// Where in ``text`` the matches are: UTF-16 offsets (as JavaScript counts), start
    /// inclusive, end exclusive, in order.
    public var matches: [Range<Int>]
    /// How well the line matches: 4 the whole phrase as whole words, 3 the phrase, 2 every
    /// word as a whole word, 1 every word, 0 some of them (a regular expression's lines are 1).
    public var score: Int

    /// Makes a line.
    public init(number: Int, text: String, matches: [Range<Int>], score: Int) {
        self.number = number
        self.text = text
        self.matches = matches
        self.score = score
    }
}
