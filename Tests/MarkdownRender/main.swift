// Prints the HTML of the Markdown read on standard input.
//
//   MarkdownRender [--spec] [--batch] [--repeat N]
//
// --spec keeps link addresses of every scheme (as the specification's examples expect);
// --batch reads many documents separated by U+0001 and writes their HTML separated the same way;
// --repeat N renders N times and prints only the last (for timing).
import Preview

var keepsEveryScheme = false
var batch = false
var repeats = 1
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--spec": keepsEveryScheme = true
    case "--batch": batch = true
    case "--repeat": repeats = Int(arguments.popFirst() ?? "") ?? 1
    default: break
    }
}
var input: [UInt8] = []
while let line = readLine(strippingNewline: false) { input.append(contentsOf: line.utf8) }
let text = String(decoding: input, as: UTF8.self)
let documents = batch ? text.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init) : [text]
var outputs: [String] = []
for _ in 0..<max(repeats, 1) {
    outputs = documents.map { MarkdownRenderer.html($0, keepsEveryScheme: keepsEveryScheme) }
}
print(outputs.joined(separator: "\u{1}"), terminator: "")
