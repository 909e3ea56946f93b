import Foundation
import Preview
import Testing

/// Sample sources, one per language family, written for these tests.
enum Samples {
    static let all: [(language: String, lexer: String, source: String)] = [
        (
            "swift", "swift",
            #"""
            import Foundation

            /// A counter that never goes below zero.
            struct Counter {
                private(set) var value = 0 // starts empty
                let limit: Int = 1_000

                mutating func add(_ amount: Int) throws -> Int {
                    guard amount >= 0 else { throw CounterError.negative }
                    value = min(limit, value + amount)
                    return value
                }
            }

            /* block
               comment */
            let counter = Counter()
            print("count: \(counter.value), ratio \(3.5e2)")
            if counter.value == 0 && true { print("empty") }
            """#
        ),
        (
            "python", "python",
            #"""
            # Reads a file and counts words.
            import sys
            from collections import Counter

            def count(path, limit=10):
                """Counts the words of a file."""
                words = Counter()
                with open(path) as handle:
                    for line in handle:
                        words.update(line.split())
                if limit is None or limit < 0:
                    return []
                return words.most_common(limit)

            class Report:
                ratio = 0.5
                def __init__(self, name):
                    self.name = name + 'x'

            if __name__ == "__main__" and len(sys.argv) > 1:
                print(count(sys.argv[1], 3))
            """#
        ),
        (
            "javascript", "javascript",
            #"""
            // Loads a listing and draws its rows.
            import { draw } from "./draw.js";

            const limit = 50;
            async function load(folder) {
              const response = await fetch("/api/list?path=" + encodeURIComponent(folder));
              if (!response.ok) throw new Error(`failed: ${response.status}`);
              /* the body */
              const body = await response.json();
              for (const item of body.items) {
                if (item.size > 1024 * 1.5 || item.name === 'x') continue;
                draw(item, null, true);
              }
              return typeof body === "object" ? body : undefined;
            }
            export default load;
            """#
        ),
        (
            "go", "go",
            #"""
            package main

            import (
            	"fmt"
            	"os"
            )

            // Size reports a file's size.
            func Size(path string) (int64, error) {
            	info, err := os.Stat(path)
            	if err != nil {
            		return 0, err
            	}
            	return info.Size(), nil
            }

            func main() {
            	for i := 0; i < 3; i++ {
            		size, _ := Size(`raw path`)
            		fmt.Println("size", size, 0x1F, 2.5)
            	}
            }
            """#
        ),
        (
            "rust", "rust",
            #"""
            use std::fs;

            /// Counts the lines of a file.
            pub fn lines(path: &str) -> Result<usize, std::io::Error> {
                let text = fs::read_to_string(path)?; // whole file
                let mut count = 0;
                for line in text.lines() {
                    if !line.is_empty() && line.len() < 1_000 {
                        count += 1;
                    }
                }
                Ok(count)
            }

            fn main() {
                match lines("a.txt") {
                    Ok(n) => println!("{} lines", n),
                    Err(e) => eprintln!("error: {}", e),
                }
            }
            """#
        ),
        (
            "c", "c",
            #"""
            #include <stdio.h>

            /* Prints the arguments, one a line. */
            static int print_all(int count, char **values) {
                for (int index = 1; index < count; index++) {
                    if (values[index] == NULL) break;
                    printf("%d: %s\n", index, values[index]); // one line
                }
                return 0x0;
            }

            int main(int argc, char **argv) {
                const double ratio = 1.5e3;
                unsigned long size = sizeof(ratio);
                return print_all(argc, argv) + (int)size * 'a';
            }
            """#
        ),
        (
            "java", "java",
            #"""
            package demo;

            import java.util.List;

            /** A file listing. */
            public final class Listing {
                private static final int LIMIT = 50;
                private final List<String> names;

                public Listing(List<String> names) {
                    this.names = names; // kept as given
                }

                public int count() {
                    if (names == null || names.isEmpty()) {
                        return 0;
                    }
                    return Math.min(LIMIT, names.size()) + (int) 2.5;
                }

                @Override
                public String toString() { return "Listing of " + count() + " names"; }
            }
            """#
        ),
        (
            "bash", "bash",
            #"""
            #!/usr/bin/env bash
            # Backs a folder up.
            set -euo pipefail

            source_dir="${1:-.}"
            count=0
            for file in "$source_dir"/*; do
                if [ -f "$file" ]; then
                    cp "$file" /tmp/backup/ # copy it
                    count=$((count + 1))
                fi
            done
            while read -r line; do
                printf '%s\n' "$line"
            done < list.txt
            exit 0
            """#
        ),
        (
            "json", "json",
            #"""
            {
              "name": "browsey",
              "version": 1,
              "ratio": 0.75,
              "tags": ["files", "server"],
              "private": true,
              "parent": null,
              "nested": {"count": -3, "size": 1e6}
            }
            """#
        ),
        (
            "sql", "sql",
            #"""
            -- The biggest files of each folder.
            CREATE TABLE entry (
                folder TEXT NOT NULL,
                name TEXT NOT NULL,
                size INTEGER DEFAULT 0
            );

            /* one query */
            SELECT folder, name, size
            FROM entry
            WHERE size > 1024 AND name LIKE '%.md'
            ORDER BY size DESC
            LIMIT 10;
            """#
        ),
        (
            "xml", "html",
            #"""
            <!doctype html>
            <html lang="en">
            <!-- the page -->
            <head><meta charset="utf-8"><title>Files</title></head>
            <body class="list" data-count='3'>
              <ul id="items">
                <li><a href="/docs">docs</a></li>
              </ul>
              <img src="a.png" alt="A picture">
            </body>
            </html>
            """#
        ),
        (
            "typescript", "typescript",
            #"""
            // A typed listing.
            interface Item {
              name: string;
              size: number;
            }

            export async function biggest(items: Item[], limit = 3): Promise<Item[]> {
              const sorted = [...items].sort((a, b) => b.size - a.size);
              /* keep the first few */
              return sorted.slice(0, limit).filter((item) => item.name !== "");
            }

            const label = `found ${items.length} items`;
            let ratio: number | undefined = 0.5;
            """#
        ),
        (
            "kotlin", "kotlin",
            #"""
            package demo

            // A counter.
            data class Counter(val limit: Int = 10) {
                private var value = 0

                fun add(amount: Int): Int {
                    if (amount < 0) throw IllegalArgumentException("negative")
                    value = minOf(limit, value + amount)
                    return value
                }
            }

            fun main() {
                val counter = Counter(limit = 5)
                println("value: ${counter.add(2)} of 1.5")
                when (counter.limit) {
                    5 -> println("five")
                    else -> println('x')
                }
            }
            """#
        ),
        (
            "csharp", "csharp",
            #"""
            using System;
            using System.Collections.Generic;

            namespace Demo
            {
                // A list of names.
                public class Listing
                {
                    private readonly List<string> names = new List<string>();

                    public int Count => names.Count;

                    public void Add(string name)
                    {
                        if (string.IsNullOrEmpty(name)) throw new ArgumentException("empty");
                        names.Add(name); /* kept */
                    }

                    public static void Main() { Console.WriteLine("count " + 3.5); }
                }
            }
            """#
        ),
        (
            "ruby", "ruby",
            #"""
            # Counts words in a file.
            require 'set'

            class Counter
              attr_reader :counts

              def initialize(limit = 10)
                @limit = limit
                @counts = Hash.new(0)
              end

              def add(word)
                return nil if word.nil? || word.empty?
                @counts[word] += 1
              end
            end

            counter = Counter.new(5)
            File.foreach("words.txt") { |line| counter.add(line.strip) }
            puts "total: #{counter.counts.size} at 2.5"
            """#
        ),
        (
            "yaml", "yaml",
            #"""
            # Settings for the server.
            server:
              port: 8080
              host: "0.0.0.0"
              readonly: true
              ignore:
                - node_modules
                - '*.log'
            index:
              enabled: yes
              ratio: 0.75
              path: null
            """#
        ),
        (
            "css", "css",
            #"""
            /* The list's rows. */
            .row {
              display: flex;
              height: 56px;
              padding: 0 4px 0 14px;
              color: #1c1c1e;
              font: 16px/1.4 system-ui, sans-serif;
            }

            .row:hover { background: rgba(0, 0, 0, .05); }

            @media (prefers-color-scheme: dark) {
              .row { color: #ececef !important; content: "dark"; }
            }
            """#
        ),
        (
            "lua", "lua",
            #"""
            -- Counts the lines of a file.
            local function count(path)
              local total = 0
              for line in io.lines(path) do
                if line ~= "" and #line < 1000 then
                  total = total + 1
                end
              end
              return total
            end

            local ratio = 0.5
            print("lines: " .. count('a.txt'), ratio, nil, true)
            """#
        ),
        (
            "cpp", "cpp",
            #"""
            #include <vector>
            #include <string>

            // Keeps the longest names.
            namespace demo {
            template <typename T>
            class Longest {
            public:
                explicit Longest(std::size_t limit) : limit_(limit) {}
                void add(const T& value) {
                    if (values_.size() < limit_ && !value.empty()) {
                        values_.push_back(value); /* kept */
                    }
                }
            private:
                std::vector<T> values_;
                std::size_t limit_ = 10;
            };
            }  // namespace demo

            int main() { demo::Longest<std::string> longest(3); longest.add("a"); return 0; }
            """#
        ),
        (
            "ini", "ini",
            #"""
            ; The server's settings
            [server]
            port = 8080
            host = 0.0.0.0
            readonly = true

            # the index
            [index]
            path = /var/cache/browsey
            enabled = yes
            """#
        ),
    ]

    /// Where Pygments' own choices leave less to agree on: CSS (it reads media features as tags,
    /// `!important` as a comment, and value words it does not know as plain names).
    static let minimums: [String: Double] = ["css": 0.75]
}

@Suite("Code highlighted on the server, held to Pygments")
struct SyntaxHighlighterTests {
    /// Our kind letter for every character (`-` where no token is).
    private func ourKinds(_ source: String, language: String) -> [Character] {
        var kinds = Array(repeating: Character("-"), count: source.count)
        for token in SyntaxHighlighter.tokens(of: source, language: language) {
            for index in token.range { kinds[index] = Character(token.kind.rawValue) }
        }
        return kinds
    }

    @Test(
        "comments, strings, numbers and keywords agree with Pygments on at least 90% of the characters that matter",
        arguments: Samples.all.map(\.lexer))
    func agreesWithPygments(lexer: String) throws {
        let sample = try #require(Samples.all.first { $0.lexer == lexer })
        let theirs = try #require(
            PygmentsReference.kinds[lexer], "Pygments read the samples (pip install pygments)")
        let ours = ourKinds(sample.source, language: sample.language)
        let characters = Array(sample.source)
        try #require(
            theirs.count == characters.count,
            "Pygments gave \(theirs.count) kinds for \(characters.count) characters")
        // What counts: letters, digits and quotes, wherever either side sees a token (plain
        // names and punctuation on both sides are no evidence).
        var compared = 0
        var same = 0
        var differences: [String] = []
        for index in characters.indices
        where
            (characters[index].isLetter || characters[index].isNumber || characters[index] == "\""
            || characters[index] == "'")
            && (theirs[index] != "-" || ours[index] != "-")
        {
            compared += 1
            if theirs[index] == ours[index] {
                same += 1
            } else if differences.count < 12 {
                let line = characters[..<index].filter { $0 == "\n" }.count + 1
                differences.append(
                    "line \(line) '\(characters[index])': Pygments \(theirs[index]), ours \(ours[index])")
            }
        }
        let agreement = Double(same) / Double(max(compared, 1))
        #expect(compared > 50, "the sample has tokens to compare")
        #expect(
            agreement >= Samples.minimums[lexer, default: 0.9],
            "\(lexer): \(Int(agreement * 100))% of \(compared); \(differences)")
    }

    @Test("the HTML is the source, escaped, with each token in a span; unknown languages get none")
    func html() {
        #expect(
            SyntaxHighlighter.html(for: "let a = \"<b>\" // 1 & 2", language: "swift")
                == "<span class=\"hl-k\">let</span> a = <span class=\"hl-s\">&quot;&lt;b&gt;&quot;</span> <span class=\"hl-c\">// 1 &amp; 2</span>"
        )
        #expect(SyntaxHighlighter.html(for: "x", language: "plaintext") == nil)
        #expect(
            SyntaxHighlighter.html(for: "<a href=\"x\">", language: "xml")
                == "<span class=\"hl-t\">&lt;a</span> <span class=\"hl-a\">href</span>=<span class=\"hl-s\">&quot;x&quot;</span><span class=\"hl-t\">&gt;</span>"
        )
        // Template languages: their tags stand out inside the markup; their comments are comments.
        #expect(
            SyntaxHighlighter.html(for: "<p>{{ name }}</p>{# note #}", language: "django")
                == "<span class=\"hl-t\">&lt;p&gt;</span><span class=\"hl-k\">{{ name }}</span><span class=\"hl-t\">&lt;/p&gt;</span><span class=\"hl-c\">{# note #}</span>"
        )
        #expect(
            SyntaxHighlighter.html(for: "<%= user.name %>", language: "erb")
                == "<span class=\"hl-k\">&lt;%= user.name %&gt;</span>")
        for source in ["\"unclosed", "/* unclosed", "<", "<a", "'", "1e", ".5", "\\", "\"\"\""] {
            for language in ["swift", "python", "xml", "bash", "sql", "json"] {
                _ = SyntaxHighlighter.html(for: source, language: language)
            }
        }
    }
}
