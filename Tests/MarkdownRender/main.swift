// Prints the HTML of the Markdown read on standard input.
//
//   MarkdownRender [--spec] [--batch] [--repeat N]
//
// --spec renders the specification's flavour (every link scheme kept, nested strong nested);
// --batch reads many documents separated by U+0001 and writes their HTML separated the same way;
// --repeat N renders N times and prints only the last; --time also writes the median time of one
// render, in milliseconds, on standard error (Benchmarks/Scripts/markdown_bench.py reads it).
import Preview

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

var flavor = MarkdownRenderer.Flavor.github
var batch = false
var repeats = 1
var timing = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--spec": flavor = .specification
    case "--batch": batch = true
    case "--repeat": repeats = Int(arguments.popFirst() ?? "") ?? 1
    case "--time": timing = true
    default: break
    }
}
var input: [UInt8] = []
while let line = readLine(strippingNewline: false) { input.append(contentsOf: line.utf8) }
let text = String(decoding: input, as: UTF8.self)
let documents =
    batch ? text.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init) : [text]
var outputs: [String] = []
var times: [Duration] = []
let clock = ContinuousClock()
for _ in 0..<max(repeats, 1) {
    let start = clock.now
    outputs = documents.map { MarkdownRenderer.html($0, flavor: flavor) }
    times.append(clock.now - start)
}
if timing {
    let median = times.sorted()[times.count / 2]
    let milliseconds = Double(median.components.seconds) * 1e3 + Double(median.components.attoseconds) / 1e15
    writeToStandardError("\(milliseconds)\n")
}
print(outputs.joined(separator: "\u{1}"), terminator: "")

/// Writes `text` to standard error, without Foundation.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
