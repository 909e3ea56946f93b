import Foundation

/// What Pygments (an independent highlighter) makes of a source: one kind letter per character
/// (`c` comment, `s` string, `n` number, `k` keyword, `t` tag, `a` attribute, `-` anything else).
func pygmentsKinds(of source: String, lexer: String) throws -> [Character] {
    let script = """
        import json, sys
        from pygments.lexers import get_lexer_by_name
        from pygments.token import Comment, String, Number, Keyword, Name, Operator
        lexer_name = sys.argv[1]
        source = sys.stdin.read()
        kinds = []
        for kind, text in get_lexer_by_name(lexer_name, stripnl=False, ensurenl=False).get_tokens(source):
            if kind in Comment: letter = "c"
            elif kind in String.Doc and text.lstrip().startswith(("//", "#", "/*")): letter = "c"  # doc comments
            elif kind in String or (lexer_name == "json" and kind in Name.Tag): letter = "s"
            elif kind in Number: letter = "n"
            elif kind in Keyword or kind in Operator.Word: letter = "k"
            elif kind in Name.Tag: letter = "t"
            elif kind in Name.Attribute: letter = "a"
            else: letter = "-"
            kinds.append(letter * len(text))
        print("".join(kinds))
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, lexer]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(source.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
}
