// The built-in content types. One row a type: identifier, supertypes, extensions, MIME types,
// description, whole file names. Parents come before their children.

extension ContentTypeRegistry {
    /// The built-in types: every extension of Browsey's contract and the common document, media,
    /// archive and package types, with Apple's identifiers where Apple has one and
    /// `dev.browsey.*` where it has none.
    public static let standard: ContentTypeRegistry = {
        do {
            return try ContentTypeRegistry(declarations: standardDeclarations)
        } catch {
            preconditionFailure("the standard content-type table is inconsistent: \(error)")
        }
    }()

    static let standardDeclarations: [ContentTypeDeclaration] = [
        .init(identifier: "public.content", conformsTo: ["public.item"], description: "Content"),
        .init(
            identifier: "public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"],
            description: "Data"),
        .init(identifier: "public.directory", conformsTo: ["public.item"], description: "Directory"),
        .init(identifier: "public.folder", conformsTo: ["public.directory"], description: "Folder"),
        .init(identifier: "public.symlink", conformsTo: ["public.item"], description: "Symbolic link"),
        .init(identifier: "com.apple.package", conformsTo: ["public.directory"], description: "Package"),
        .init(
            identifier: "com.apple.bundle", conformsTo: ["public.directory", "com.apple.package"],
            filenameExtensions: ["bundle"], description: "Bundle"),
        .init(
            identifier: "com.apple.application-bundle", conformsTo: ["com.apple.bundle"],
            filenameExtensions: ["app"], description: "Application"),
        .init(
            identifier: "com.apple.framework", conformsTo: ["com.apple.bundle"],
            filenameExtensions: ["framework"], description: "Framework"),
        .init(
            identifier: "com.apple.plugin", conformsTo: ["com.apple.bundle"], filenameExtensions: ["plugin"],
            description: "Plug-in"),
        .init(
            identifier: "com.apple.xcode.project", conformsTo: ["com.apple.package"],
            filenameExtensions: ["xcodeproj"], description: "Xcode project"),
        .init(
            identifier: "com.apple.dt.document.workspace", conformsTo: ["com.apple.package"],
            filenameExtensions: ["xcworkspace"], description: "Xcode workspace"),
        .init(
            identifier: "com.apple.dt.playground", conformsTo: ["com.apple.package"],
            filenameExtensions: ["playground"], description: "Swift playground"),
        .init(
            identifier: "com.apple.xcode.archive", conformsTo: ["com.apple.package"],
            filenameExtensions: ["xcarchive"], description: "Xcode archive"),
        .init(
            identifier: "com.apple.iwork.pages.sffpages", conformsTo: ["com.apple.package"],
            filenameExtensions: ["pages"], description: "Pages document"),
        .init(
            identifier: "com.apple.iwork.numbers.sffnumbers", conformsTo: ["com.apple.package"],
            filenameExtensions: ["numbers"], description: "Numbers spreadsheet"),
        .init(
            identifier: "com.apple.iwork.keynote.sffkey", conformsTo: ["com.apple.package"],
            filenameExtensions: ["key"], description: "Keynote presentation"),
        .init(
            identifier: "com.apple.rtfd", conformsTo: ["com.apple.package"], filenameExtensions: ["rtfd"],
            description: "Rich text with attachments"),
        .init(
            identifier: "com.apple.photos.library", conformsTo: ["com.apple.package"],
            filenameExtensions: ["photoslibrary"], description: "Photos library"),
        .init(
            identifier: "public.text", conformsTo: ["public.data", "public.content"],
            mimeTypes: ["text/plain"], description: "Text"),
        .init(
            identifier: "public.plain-text", conformsTo: ["public.text"],
            filenameExtensions: ["txt", "text"], mimeTypes: ["text/plain"], description: "Plain text"),
        .init(
            identifier: "public.log", conformsTo: ["public.plain-text"], filenameExtensions: ["log"],
            mimeTypes: ["text/plain"], description: "Log"),
        .init(
            identifier: "public.source-code", conformsTo: ["public.plain-text"], mimeTypes: ["text/plain"],
            description: "Source code"),
        .init(identifier: "public.script", conformsTo: ["public.source-code"], description: "Script"),
        .init(
            identifier: "public.shell-script", conformsTo: ["public.script"],
            filenameExtensions: ["sh", "command"], mimeTypes: ["application/x-sh", "text/x-shellscript"],
            description: "Shell script"),
        .init(
            identifier: "public.bash-script", conformsTo: ["public.shell-script"],
            filenameExtensions: ["bash"], mimeTypes: ["application/x-sh"], description: "Bash script"),
        .init(
            identifier: "public.zsh-script", conformsTo: ["public.shell-script"], filenameExtensions: ["zsh"],
            mimeTypes: ["application/x-sh"], description: "Zsh script"),
        .init(
            identifier: "dev.browsey.fish-script", conformsTo: ["public.shell-script"],
            filenameExtensions: ["fish"], mimeTypes: ["text/plain"], description: "Fish script"),
        .init(
            identifier: "com.microsoft.powershell-script", conformsTo: ["public.script"],
            filenameExtensions: ["ps1", "psm1"], mimeTypes: ["text/plain"], description: "PowerShell script"),
        .init(
            identifier: "com.microsoft.batch-file", conformsTo: ["public.script"],
            filenameExtensions: ["bat", "cmd"], mimeTypes: ["text/plain"], description: "Batch file"),
        .init(
            identifier: "public.python-script", conformsTo: ["public.script"],
            filenameExtensions: ["py", "pyw", "pyi"], mimeTypes: ["text/x-python"],
            description: "Python script"),
        .init(
            identifier: "public.ruby-script", conformsTo: ["public.script"],
            filenameExtensions: ["rb", "rake", "gemspec"], mimeTypes: ["text/x-ruby"],
            description: "Ruby script"),
        .init(
            identifier: "public.php-script", conformsTo: ["public.script"], filenameExtensions: ["php"],
            mimeTypes: ["application/x-httpd-php"], description: "PHP script"),
        .init(
            identifier: "public.perl-script", conformsTo: ["public.script"],
            filenameExtensions: ["pl", "pm"], mimeTypes: ["text/x-perl"], description: "Perl script"),
        .init(
            identifier: "dev.browsey.lua-source", conformsTo: ["public.script"], filenameExtensions: ["lua"],
            mimeTypes: ["text/x-lua"], description: "Lua script"),
        .init(
            identifier: "dev.browsey.r-source", conformsTo: ["public.script"], filenameExtensions: ["r"],
            mimeTypes: ["text/x-r"], description: "R script"),
        .init(
            identifier: "com.netscape.javascript-source",
            conformsTo: ["public.source-code", "public.script"], filenameExtensions: ["js", "mjs", "cjs"],
            mimeTypes: ["text/javascript", "application/javascript"], description: "JavaScript"),
        .init(
            identifier: "dev.browsey.jsx-source", conformsTo: ["com.netscape.javascript-source"],
            filenameExtensions: ["jsx"], mimeTypes: ["text/javascript"], description: "JavaScript (JSX)"),
        .init(
            identifier: "com.microsoft.typescript", conformsTo: ["public.source-code"],
            filenameExtensions: ["ts", "mts", "cts"], mimeTypes: ["application/typescript"],
            description: "TypeScript"),
        .init(
            identifier: "dev.browsey.tsx-source", conformsTo: ["com.microsoft.typescript"],
            filenameExtensions: ["tsx"], mimeTypes: ["application/typescript"],
            description: "TypeScript (TSX)"),
        .init(
            identifier: "public.html", conformsTo: ["public.text"],
            filenameExtensions: ["html", "htm", "xhtml"], mimeTypes: ["text/html"], description: "HTML"),
        .init(
            identifier: "public.css", conformsTo: ["public.source-code"], filenameExtensions: ["css"],
            mimeTypes: ["text/css"], description: "CSS"),
        .init(
            identifier: "dev.browsey.scss-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["scss"], mimeTypes: ["text/x-scss"], description: "SCSS"),
        .init(
            identifier: "dev.browsey.sass-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["sass"], mimeTypes: ["text/x-sass"], description: "Sass"),
        .init(
            identifier: "dev.browsey.less-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["less"], mimeTypes: ["text/x-less"], description: "Less"),
        .init(
            identifier: "public.xml", conformsTo: ["public.text"],
            filenameExtensions: ["xml", "xsd", "xsl", "xslt"], mimeTypes: ["application/xml", "text/xml"],
            description: "XML"),
        .init(
            identifier: "public.yaml", conformsTo: ["public.text"], filenameExtensions: ["yaml", "yml"],
            mimeTypes: ["application/yaml", "text/yaml"], description: "YAML"),
        .init(
            identifier: "public.json", conformsTo: ["public.text"],
            filenameExtensions: ["json", "jsonc", "json5", "geojson", "webmanifest"],
            mimeTypes: ["application/json"], description: "JSON"),
        .init(
            identifier: "dev.browsey.toml", conformsTo: ["public.text"], filenameExtensions: ["toml"],
            mimeTypes: ["application/toml"], description: "TOML"),
        .init(
            identifier: "dev.browsey.configuration-file", conformsTo: ["public.plain-text"],
            filenameExtensions: ["ini", "conf", "cfg", "config"], mimeTypes: ["text/plain"],
            description: "Configuration file"),
        .init(
            identifier: "public.swift-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["swift"], mimeTypes: ["text/x-swift"], description: "Swift source"),
        .init(
            identifier: "public.c-source", conformsTo: ["public.source-code"], filenameExtensions: ["c"],
            mimeTypes: ["text/x-c"], description: "C source"),
        .init(
            identifier: "public.c-header", conformsTo: ["public.source-code"], filenameExtensions: ["h"],
            mimeTypes: ["text/x-c"], description: "C header"),
        .init(
            identifier: "public.c-plus-plus-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["cpp", "cc", "cxx", "c++"], mimeTypes: ["text/x-c++"],
            description: "C++ source"),
        .init(
            identifier: "public.c-plus-plus-header", conformsTo: ["public.source-code"],
            filenameExtensions: ["hpp", "hxx", "hh", "h++"], mimeTypes: ["text/x-c++"],
            description: "C++ header"),
        .init(
            identifier: "public.objective-c-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["m"], mimeTypes: ["text/x-objective-c"], description: "Objective-C source"),
        .init(
            identifier: "public.objective-c-plus-plus-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["mm"], mimeTypes: ["text/x-objective-c++"],
            description: "Objective-C++ source"),
        .init(
            identifier: "com.sun.java-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["java"], mimeTypes: ["text/x-java"], description: "Java source"),
        .init(
            identifier: "dev.browsey.kotlin-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["kt", "kts"], mimeTypes: ["text/x-kotlin"], description: "Kotlin source"),
        .init(
            identifier: "dev.browsey.scala-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["scala", "sc"], mimeTypes: ["text/x-scala"], description: "Scala source"),
        .init(
            identifier: "dev.browsey.clojure-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["clj", "cljs", "cljc", "edn"], mimeTypes: ["text/x-clojure"],
            description: "Clojure source"),
        .init(
            identifier: "dev.browsey.csharp-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["cs", "csx"], mimeTypes: ["text/x-csharp"], description: "C# source"),
        .init(
            identifier: "dev.browsey.fsharp-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["fs", "fsx", "fsi"], mimeTypes: ["text/x-fsharp"], description: "F# source"),
        .init(
            identifier: "dev.browsey.go-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["go"], mimeTypes: ["text/x-go"], description: "Go source"),
        .init(
            identifier: "dev.browsey.rust-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["rs"], mimeTypes: ["text/x-rust"], description: "Rust source"),
        .init(
            identifier: "dev.browsey.zig-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["zig"], mimeTypes: ["text/x-zig"], description: "Zig source"),
        .init(
            identifier: "dev.browsey.nim-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["nim"], mimeTypes: ["text/x-nim"], description: "Nim source"),
        .init(
            identifier: "dev.browsey.v-source", conformsTo: ["public.source-code"], filenameExtensions: ["v"],
            mimeTypes: ["text/x-v"], description: "V source"),
        .init(
            identifier: "dev.browsey.odin-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["odin"], mimeTypes: ["text/x-odin"], description: "Odin source"),
        .init(
            identifier: "dev.browsey.dart-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["dart"], mimeTypes: ["text/x-dart"], description: "Dart source"),
        .init(
            identifier: "dev.browsey.haskell-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["hs", "lhs"], mimeTypes: ["text/x-haskell"], description: "Haskell source"),
        .init(
            identifier: "dev.browsey.elixir-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["ex", "exs"], mimeTypes: ["text/x-elixir"], description: "Elixir source"),
        .init(
            identifier: "dev.browsey.erlang-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["erl", "hrl"], mimeTypes: ["text/x-erlang"], description: "Erlang source"),
        .init(
            identifier: "dev.browsey.ocaml-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["ml", "mli"], mimeTypes: ["text/x-ocaml"], description: "OCaml source"),
        .init(
            identifier: "dev.browsey.julia-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["jl"], mimeTypes: ["text/x-julia"], description: "Julia source"),
        .init(
            identifier: "public.assembly-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["s", "asm"], mimeTypes: ["text/x-asm"], description: "Assembly source"),
        .init(
            identifier: "dev.browsey.sql-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["sql"], mimeTypes: ["application/sql"], description: "SQL"),
        .init(
            identifier: "dev.browsey.graphql", conformsTo: ["public.source-code"],
            filenameExtensions: ["graphql", "gql"], mimeTypes: ["application/graphql"], description: "GraphQL"
        ),
        .init(
            identifier: "dev.browsey.protobuf-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["proto"], mimeTypes: ["text/plain"], description: "Protocol Buffers"),
        .init(
            identifier: "dev.browsey.dotenv", conformsTo: ["public.plain-text"],
            filenameExtensions: ["env", "envrc"], mimeTypes: ["text/plain"],
            filenames: [".env", ".envrc", ".env.local", ".env.example"], description: "Environment file"),
        .init(
            identifier: "dev.browsey.git-configuration", conformsTo: ["public.plain-text"],
            filenameExtensions: ["gitignore", "gitattributes", "gitmodules"], mimeTypes: ["text/plain"],
            filenames: [".gitignore", ".gitattributes", ".gitmodules", ".gitconfig", ".gitkeep"],
            description: "Git configuration"),
        .init(
            identifier: "dev.browsey.dockerignore", conformsTo: ["public.plain-text"],
            filenameExtensions: ["dockerignore"], mimeTypes: ["text/plain"], filenames: [".dockerignore"],
            description: "Docker ignore file"),
        .init(
            identifier: "dev.browsey.editorconfig", conformsTo: ["public.plain-text"],
            filenameExtensions: ["editorconfig"], mimeTypes: ["text/plain"], filenames: [".editorconfig"],
            description: "EditorConfig file"),
        .init(
            identifier: "dev.browsey.dockerfile", conformsTo: ["public.source-code"],
            filenameExtensions: ["dockerfile", "containerfile"], mimeTypes: ["text/plain"],
            filenames: ["Dockerfile", "Containerfile"], description: "Dockerfile"),
        .init(
            identifier: "public.make-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["makefile", "mk", "mak"], mimeTypes: ["text/x-makefile"],
            filenames: ["Makefile", "GNUmakefile", "makefile"], description: "Makefile"),
        .init(
            identifier: "dev.browsey.cmake-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["cmake"], mimeTypes: ["text/x-cmake"], filenames: ["CMakeLists.txt"],
            description: "CMake file"),
        .init(
            identifier: "dev.browsey.gradle-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["gradle"], mimeTypes: ["text/x-gradle"], description: "Gradle build file"),
        .init(
            identifier: "dev.browsey.properties", conformsTo: ["public.plain-text"],
            filenameExtensions: ["properties"], mimeTypes: ["text/plain"], description: "Properties file"),
        .init(
            identifier: "public.patch-file", conformsTo: ["public.plain-text"],
            filenameExtensions: ["diff", "patch"], mimeTypes: ["text/x-diff"], description: "Patch"),
        .init(
            identifier: "dev.browsey.vue-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["vue"], mimeTypes: ["text/plain"], description: "Vue component"),
        .init(
            identifier: "dev.browsey.svelte-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["svelte"], mimeTypes: ["text/plain"], description: "Svelte component"),
        .init(
            identifier: "dev.browsey.astro-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["astro"], mimeTypes: ["text/plain"], description: "Astro component"),
        .init(
            identifier: "dev.browsey.template-source", conformsTo: ["public.source-code"],
            filenameExtensions: [
                "hbs", "handlebars", "mustache", "ejs", "pug", "jade", "njk", "jinja", "jinja2", "j2",
                "liquid", "erb", "twig", "tmpl", "tpl", "hbs",
            ], mimeTypes: ["text/plain"], description: "Template"),
        .init(
            identifier: "net.daringfireball.markdown", conformsTo: ["public.plain-text"],
            filenameExtensions: ["md", "markdown", "mdown", "mkd", "mdx"], mimeTypes: ["text/markdown"],
            description: "Markdown text"),
        .init(
            identifier: "dev.browsey.restructured-text", conformsTo: ["public.plain-text"],
            filenameExtensions: ["rst"], mimeTypes: ["text/x-rst"], description: "reStructuredText"),
        .init(
            identifier: "dev.browsey.asciidoc", conformsTo: ["public.plain-text"],
            filenameExtensions: ["adoc", "asciidoc"], mimeTypes: ["text/asciidoc"], description: "AsciiDoc"),
        .init(
            identifier: "dev.browsey.org-mode", conformsTo: ["public.plain-text"],
            filenameExtensions: ["org"], mimeTypes: ["text/plain"], description: "Org document"),
        .init(
            identifier: "dev.browsey.tex-source", conformsTo: ["public.source-code"],
            filenameExtensions: ["tex", "sty", "cls", "bib"], mimeTypes: ["application/x-tex"],
            description: "TeX source"),
        .init(
            identifier: "public.comma-separated-values-text", conformsTo: ["public.text"],
            filenameExtensions: ["csv"], mimeTypes: ["text/csv"], description: "CSV"),
        .init(
            identifier: "public.tab-separated-values-text", conformsTo: ["public.text"],
            filenameExtensions: ["tsv"], mimeTypes: ["text/tab-separated-values"], description: "TSV"),
        .init(
            identifier: "public.rtf", conformsTo: ["public.text"], filenameExtensions: ["rtf"],
            mimeTypes: ["application/rtf", "text/rtf"], description: "Rich text"),
        .init(
            identifier: "dev.browsey.subtitles", conformsTo: ["public.plain-text"],
            filenameExtensions: ["srt", "vtt"], mimeTypes: ["text/vtt"], description: "Subtitles"),
        .init(
            identifier: "com.apple.property-list", conformsTo: ["public.data"], filenameExtensions: ["plist"],
            mimeTypes: ["application/x-plist"], description: "Property list"),
        .init(
            identifier: "public.image", conformsTo: ["public.data", "public.content"], description: "Image"),
        .init(
            identifier: "public.png", conformsTo: ["public.image"], filenameExtensions: ["png"],
            mimeTypes: ["image/png"], description: "PNG image"),
        .init(
            identifier: "public.jpeg", conformsTo: ["public.image"],
            filenameExtensions: ["jpg", "jpeg", "jpe", "jfif"], mimeTypes: ["image/jpeg"],
            description: "JPEG image"),
        .init(
            identifier: "com.compuserve.gif", conformsTo: ["public.image"], filenameExtensions: ["gif"],
            mimeTypes: ["image/gif"], description: "GIF image"),
        .init(
            identifier: "org.webmproject.webp", conformsTo: ["public.image"], filenameExtensions: ["webp"],
            mimeTypes: ["image/webp"], description: "WebP image"),
        .init(
            identifier: "public.svg-image", conformsTo: ["public.image"],
            filenameExtensions: ["svg", "svgz"], mimeTypes: ["image/svg+xml"], description: "SVG image"),
        .init(
            identifier: "com.microsoft.ico", conformsTo: ["public.image"], filenameExtensions: ["ico"],
            mimeTypes: ["image/vnd.microsoft.icon", "image/x-icon"], description: "Windows icon"),
        .init(
            identifier: "com.microsoft.bmp", conformsTo: ["public.image"], filenameExtensions: ["bmp"],
            mimeTypes: ["image/bmp"], description: "BMP image"),
        .init(
            identifier: "public.avif", conformsTo: ["public.image"], filenameExtensions: ["avif"],
            mimeTypes: ["image/avif"], description: "AVIF image"),
        .init(
            identifier: "public.heic", conformsTo: ["public.image"], filenameExtensions: ["heic", "heif"],
            mimeTypes: ["image/heic"], description: "HEIC image"),
        .init(
            identifier: "public.tiff", conformsTo: ["public.image"], filenameExtensions: ["tif", "tiff"],
            mimeTypes: ["image/tiff"], description: "TIFF image"),
        .init(
            identifier: "public.audiovisual-content", conformsTo: ["public.data", "public.content"],
            description: "Audiovisual content"),
        .init(identifier: "public.audio", conformsTo: ["public.audiovisual-content"], description: "Audio"),
        .init(
            identifier: "public.mp3", conformsTo: ["public.audio"], filenameExtensions: ["mp3"],
            mimeTypes: ["audio/mpeg"], description: "MP3 audio"),
        .init(
            identifier: "public.mpeg-4-audio", conformsTo: ["public.audio"], filenameExtensions: ["m4a"],
            mimeTypes: ["audio/mp4"], description: "MPEG-4 audio"),
        .init(
            identifier: "com.microsoft.waveform-audio", conformsTo: ["public.audio"],
            filenameExtensions: ["wav"], mimeTypes: ["audio/wav", "audio/x-wav"], description: "WAVE audio"),
        .init(
            identifier: "org.xiph.flac", conformsTo: ["public.audio"], filenameExtensions: ["flac"],
            mimeTypes: ["audio/flac"], description: "FLAC audio"),
        .init(
            identifier: "org.xiph.ogg-audio", conformsTo: ["public.audio"],
            filenameExtensions: ["ogg", "oga"], mimeTypes: ["audio/ogg"], description: "Ogg audio"),
        .init(
            identifier: "org.xiph.opus", conformsTo: ["public.audio"], filenameExtensions: ["opus"],
            mimeTypes: ["audio/opus"], description: "Opus audio"),
        .init(
            identifier: "public.aac-audio", conformsTo: ["public.audio"], filenameExtensions: ["aac"],
            mimeTypes: ["audio/aac"], description: "AAC audio"),
        .init(
            identifier: "public.aiff-audio", conformsTo: ["public.audio"],
            filenameExtensions: ["aiff", "aif"], mimeTypes: ["audio/aiff"], description: "AIFF audio"),
        .init(identifier: "public.movie", conformsTo: ["public.audiovisual-content"], description: "Movie"),
        .init(identifier: "public.video", conformsTo: ["public.movie"], description: "Video"),
        .init(
            identifier: "public.mpeg-4", conformsTo: ["public.movie"], filenameExtensions: ["mp4", "m4v"],
            mimeTypes: ["video/mp4"], description: "MPEG-4 movie"),
        .init(
            identifier: "com.apple.quicktime-movie", conformsTo: ["public.movie"],
            filenameExtensions: ["mov", "qt"], mimeTypes: ["video/quicktime"], description: "QuickTime movie"),
        .init(
            identifier: "org.webmproject.webm", conformsTo: ["public.movie"], filenameExtensions: ["webm"],
            mimeTypes: ["video/webm"], description: "WebM movie"),
        .init(
            identifier: "public.avi", conformsTo: ["public.movie"], filenameExtensions: ["avi"],
            mimeTypes: ["video/x-msvideo"], description: "AVI movie"),
        .init(
            identifier: "org.matroska.mkv", conformsTo: ["public.movie"], filenameExtensions: ["mkv"],
            mimeTypes: ["video/x-matroska"], description: "Matroska movie"),
        .init(
            identifier: "com.adobe.pdf", conformsTo: ["public.data", "public.content"],
            filenameExtensions: ["pdf"], mimeTypes: ["application/pdf"], description: "PDF document"),
        .init(identifier: "public.archive", conformsTo: ["public.data"], description: "Archive"),
        .init(
            identifier: "public.zip-archive", conformsTo: ["public.archive"], filenameExtensions: ["zip"],
            mimeTypes: ["application/zip"], description: "ZIP archive"),
        .init(
            identifier: "public.tar-archive", conformsTo: ["public.archive"], filenameExtensions: ["tar"],
            mimeTypes: ["application/x-tar"], description: "tar archive"),
        .init(
            identifier: "org.gnu.gnu-zip-archive", conformsTo: ["public.archive"],
            filenameExtensions: ["gz", "gzip"], mimeTypes: ["application/gzip"], description: "gzip archive"),
        .init(
            identifier: "org.gnu.gnu-zip-tar-archive", conformsTo: ["org.gnu.gnu-zip-archive"],
            filenameExtensions: ["tgz"], mimeTypes: ["application/gzip"], description: "gzip tar archive"),
        .init(
            identifier: "public.bzip2-archive", conformsTo: ["public.archive"], filenameExtensions: ["bz2"],
            mimeTypes: ["application/x-bzip2"], description: "bzip2 archive"),
        .init(
            identifier: "org.tukaani.xz-archive", conformsTo: ["public.archive"], filenameExtensions: ["xz"],
            mimeTypes: ["application/x-xz"], description: "xz archive"),
        .init(
            identifier: "org.7-zip.7-zip-archive", conformsTo: ["public.archive"], filenameExtensions: ["7z"],
            mimeTypes: ["application/x-7z-compressed"], description: "7-Zip archive"),
        .init(
            identifier: "com.rarlab.rar-archive", conformsTo: ["public.archive"], filenameExtensions: ["rar"],
            mimeTypes: ["application/vnd.rar"], description: "RAR archive"),
        .init(
            identifier: "dev.browsey.zstd-archive", conformsTo: ["public.archive"],
            filenameExtensions: ["zst"], mimeTypes: ["application/zstd"], description: "Zstandard archive"),
        .init(identifier: "public.font", conformsTo: ["public.data"], description: "Font"),
        .init(
            identifier: "public.truetype-ttf-font", conformsTo: ["public.font"], filenameExtensions: ["ttf"],
            mimeTypes: ["font/ttf"], description: "TrueType font"),
        .init(
            identifier: "public.opentype-font", conformsTo: ["public.font"], filenameExtensions: ["otf"],
            mimeTypes: ["font/otf"], description: "OpenType font"),
        .init(
            identifier: "dev.browsey.woff-font", conformsTo: ["public.font"], filenameExtensions: ["woff"],
            mimeTypes: ["font/woff"], description: "WOFF font"),
        .init(
            identifier: "dev.browsey.woff2-font", conformsTo: ["public.font"], filenameExtensions: ["woff2"],
            mimeTypes: ["font/woff2"], description: "WOFF2 font"),
        .init(
            identifier: "dev.browsey.webassembly", conformsTo: ["public.data"], filenameExtensions: ["wasm"],
            mimeTypes: ["application/wasm"], description: "WebAssembly module"),
        .init(
            identifier: "org.openxmlformats.wordprocessingml.document",
            conformsTo: ["public.data", "public.content"], filenameExtensions: ["docx"],
            mimeTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
            description: "Word document"),
        .init(
            identifier: "org.openxmlformats.spreadsheetml.sheet",
            conformsTo: ["public.data", "public.content"], filenameExtensions: ["xlsx"],
            mimeTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
            description: "Excel spreadsheet"),
        .init(
            identifier: "org.openxmlformats.presentationml.presentation",
            conformsTo: ["public.data", "public.content"], filenameExtensions: ["pptx"],
            mimeTypes: ["application/vnd.openxmlformats-officedocument.presentationml.presentation"],
            description: "PowerPoint presentation"),
        .init(
            identifier: "org.oasis-open.opendocument.text", conformsTo: ["public.data", "public.content"],
            filenameExtensions: ["odt"], mimeTypes: ["application/vnd.oasis.opendocument.text"],
            description: "OpenDocument text"),
        .init(
            identifier: "public.disk-image", conformsTo: ["public.data"],
            filenameExtensions: ["iso", "img", "dmg"], mimeTypes: ["application/octet-stream"],
            description: "Disk image"),
    ]
}
