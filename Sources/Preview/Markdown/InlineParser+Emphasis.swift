/// Emphasis, strong emphasis and strikethrough: delimiter runs go on the stack as they are
/// read, and are matched closer by closer (the rule of 3 included) once their scope is known.
extension InlineParser {
    mutating func handleDelimiterRun(_ character: UInt8) {
        let start = position
        while position < end, subject[position] == character { position += 1 }
        let count = position - start
        let before = start == 0 ? nil : MarkdownScalars.scalar(before: start, in: subject)
        let after = MarkdownScalars.scalar(at: position, in: subject, end: end)
        let beforeIsWhitespace = start == 0 || MarkdownScalars.isWhitespace(before)
        let afterIsWhitespace = position >= end || MarkdownScalars.isWhitespace(after)
        let beforeIsPunctuation = MarkdownScalars.isPunctuation(before)
        let afterIsPunctuation = MarkdownScalars.isPunctuation(after)
        let leftFlanking =
            !afterIsWhitespace && (!afterIsPunctuation || beforeIsWhitespace || beforeIsPunctuation)
        let rightFlanking =
            !beforeIsWhitespace && (!beforeIsPunctuation || afterIsWhitespace || afterIsPunctuation)
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if character == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || beforeIsPunctuation)
            canClose = rightFlanking && (!leftFlanking || afterIsPunctuation)
        }
        let node = appendText(subject[start..<position])
        if character == UInt8(ascii: "~"), count > 2 { return }
        guard canOpen || canClose else { return }
        let index = delimiters.count
        delimiters.append(
            Delimiter(
                node: node, character: character, count: count, originalCount: count, canOpen: canOpen,
                canClose: canClose, previous: lastDelimiter, next: -1))
        if lastDelimiter >= 0 { delimiters[lastDelimiter].next = index }
        lastDelimiter = index
    }

    mutating func removeDelimiter(_ index: Int) {
        let previous = delimiters[index].previous
        let next = delimiters[index].next
        if previous >= 0 { delimiters[previous].next = next }
        if next >= 0 { delimiters[next].previous = previous } else { lastDelimiter = previous }
        delimiters[index].previous = -1
        delimiters[index].next = -1
    }

    /// Matches the delimiters above `bottom` (an index into `delimiters`) into emphasis, then
    /// takes them off the stack.
    mutating func processEmphasis(above bottom: Int) {
        // The first delimiter above the bottom.
        var closer = lastDelimiter
        while closer >= 0, delimiters[closer].previous > bottom { closer = delimiters[closer].previous }
        if closer >= 0, closer <= bottom { closer = -1 }
        // Per character, opener flag and length modulo 3: below which no opener can be found.
        var openersBottom = [Int](repeating: bottom, count: 18)

        while closer >= 0 {
            let closing = delimiters[closer]
            guard closing.canClose else {
                closer = closing.next
                continue
            }
            let characterIndex =
                closing.character == UInt8(ascii: "*") ? 0 : closing.character == UInt8(ascii: "_") ? 1 : 2
            let key = characterIndex * 6 + (closing.canOpen ? 3 : 0) + closing.originalCount % 3
            var opener = closing.previous
            var found = false
            while opener >= 0, opener > bottom, opener > openersBottom[key] {
                let opening = delimiters[opener]
                if opening.canOpen, opening.character == closing.character {
                    if closing.character == UInt8(ascii: "~") {
                        if opening.count == closing.count {
                            found = true
                            break
                        }
                    } else {
                        let oddMatch =
                            (closing.canOpen || opening.canClose) && closing.originalCount % 3 != 0
                            && (opening.originalCount + closing.originalCount) % 3 == 0
                        if !oddMatch {
                            found = true
                            break
                        }
                    }
                }
                opener = opening.previous
            }
            guard found else {
                openersBottom[key] = max(closing.previous, bottom)
                let next = closing.next
                if !closing.canOpen { removeDelimiter(closer) }
                closer = next
                continue
            }
            let used: Int
            let kind: MarkdownTree.Kind
            if closing.character == UInt8(ascii: "~") {
                used = closing.count
                kind = .strikethrough
            } else {
                used = closing.count >= 2 && delimiters[opener].count >= 2 ? 2 : 1
                kind = used == 2 ? .strong : .emphasis
            }
            let openerNode = delimiters[opener].node
            let closerNode = closing.node
            delimiters[opener].count -= used
            delimiters[closer].count -= used
            tree.nodes[openerNode].content.removeLast(used)
            tree.nodes[closerNode].content.removeLast(used)
            var emphasis = MarkdownTree.Node(kind: kind)
            emphasis.isOpen = false
            let emphasisIndex = tree.insert(emphasis, after: openerNode)
            tree.moveSiblings(after: emphasisIndex, upTo: closerNode, into: emphasisIndex)
            // Delimiters between the two are now inside the emphasis: they cannot match.
            var between = delimiters[closer].previous
            while between >= 0, between != opener {
                let previous = delimiters[between].previous
                removeDelimiter(between)
                between = previous
            }
            if delimiters[opener].count == 0 {
                tree.unlink(openerNode)
                removeDelimiter(opener)
            }
            if delimiters[closer].count == 0 {
                let next = delimiters[closer].next
                tree.unlink(closerNode)
                removeDelimiter(closer)
                closer = next
            }
        }
        // Whatever is left above the bottom stays text.
        while lastDelimiter > bottom { removeDelimiter(lastDelimiter) }
    }
}
