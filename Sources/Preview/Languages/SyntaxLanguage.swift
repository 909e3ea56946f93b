/// The highlighter language names Browsey's web UI uses, by extension or whole file name.
public enum SyntaxLanguage {
    /// The language of a file name, `plaintext` when none applies.
    public static func name(forFileName fileName: String) -> String {
        let lower = fileName.lowercased()
        if let byName = names[lower] { return byName }
        guard let dot = lower.lastIndex(of: "."), dot != lower.startIndex else {
            return names[String(lower.drop { $0 == "." })] ?? "plaintext"
        }
        return extensions[String(lower[lower.index(after: dot)...])] ?? "plaintext"
    }

    static let names: [String: String] = [
        "makefile": "makefile", "gnumakefile": "makefile", "dockerfile": "dockerfile",
        "containerfile": "dockerfile",
        "cmakelists.txt": "cmake", "gitignore": "bash", "env": "bash", "envrc": "bash", "bashrc": "bash",
        "zshrc": "bash", "gitattributes": "plaintext", "dockerignore": "plaintext", "editorconfig": "ini",
    ]

    static let extensions: [String: String] = [
        "swift": "swift", "py": "python", "pyw": "python", "pyi": "python", "js": "javascript",
        "mjs": "javascript",
        "cjs": "javascript", "jsx": "javascript", "ts": "typescript", "mts": "typescript",
        "cts": "typescript",
        "tsx": "typescript", "md": "markdown", "markdown": "markdown", "mdx": "markdown", "sh": "bash",
        "bash": "bash", "zsh": "bash", "fish": "bash", "ps1": "powershell", "bat": "dos", "cmd": "dos",
        "json": "json", "jsonc": "json", "json5": "json", "yaml": "yaml", "yml": "yaml", "toml": "ini",
        "ini": "ini", "conf": "ini", "cfg": "ini", "properties": "properties", "html": "xml", "htm": "xml",
        "xhtml": "xml",
        "xml": "xml", "svg": "xml", "vue": "xml", "svelte": "xml", "astro": "xml", "css": "css",
        "scss": "scss",
        "sass": "scss", "less": "less", "c": "c", "h": "c", "cpp": "cpp", "cc": "cpp", "cxx": "cpp",
        "hpp": "cpp",
        "hxx": "cpp", "hh": "cpp", "m": "objectivec", "mm": "objectivec", "go": "go", "rs": "rust",
        "java": "java", "kt": "kotlin", "kts": "kotlin", "scala": "scala", "clj": "clojure",
        "cljs": "clojure",
        "cs": "csharp", "fs": "fsharp", "fsx": "fsharp", "rb": "ruby", "php": "php", "pl": "perl",
        "pm": "perl",
        "lua": "lua", "r": "r", "zig": "zig", "nim": "nim", "v": "v", "odin": "odin", "sql": "sql",
        "graphql": "graphql", "gql": "graphql", "dockerfile": "dockerfile", "makefile": "makefile",
        "cmake": "cmake", "gradle": "gradle", "diff": "diff", "patch": "diff", "log": "plaintext",
        "txt": "plaintext", "dart": "dart", "hs": "haskell", "ex": "elixir", "exs": "elixir", "erl": "erlang",
        "jl": "julia", "tex": "latex", "proto": "protobuf", "hbs": "handlebars", "handlebars": "handlebars",
        "mustache": "handlebars", "ejs": "xml", "erb": "erb", "twig": "twig", "liquid": "liquid",
        "njk": "django",
        "jinja": "django", "jinja2": "django", "j2": "django", "pug": "pug",
    ]
}
