import Foundation
import TestSupport

/// What Pygments (an independent highlighter) makes of the samples: one kind letter per character
/// (`c` comment, `s` string, `n` number, `k` keyword, `t` tag, `a` attribute, `-` anything else),
/// by lexer name. One Python process reads them all, once: a process per sample would hold the
/// test run's few threads for seconds and starve the timing-sensitive suites running beside it.
enum PygmentsReference {
    static let kinds: [String: [Character]] = {
        let script = """
            import json, sys
            from pygments.lexers import get_lexer_by_name
            from pygments.token import Comment, String, Number, Keyword, Name, Operator
            answers = {}
            for sample in json.load(sys.stdin):
                lexer_name, source = sample["lexer"], sample["source"]
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
                answers[lexer_name] = "".join(kinds)
            print(json.dumps(answers))
            """
        let samples = Samples.all.map { ["lexer": $0.lexer, "source": $0.source] }
        guard let input = try? JSONSerialization.data(withJSONObject: samples) else { return [:] }
        guard
            let printed = try? SpawnedProcess.run(
                "python3", ["-c", script], input: Array(input), output: .standardOutput)
        else { return [:] }
        let answers =
            (try? JSONSerialization.jsonObject(with: Data(printed.output.utf8))) as? [String: String] ?? [:]
        return answers.mapValues { Array($0) }
    }()
}
