/// Text made safe to place inside HTML: the one escaper the Markdown renderer, the syntax
/// highlighter and anything else that writes HTML use.
///
/// ```swift
/// HTMLText.escaped("<b>Tom & \"Jerry\"</b>")  // &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;
/// ```
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, so it is safe both between
    /// tags and inside a quoted attribute value.
    public static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
