extension ContentType {
    /// The root of every type.
    public static let item = ContentTypeRegistry.builtIn("public.item")
    /// Any byte stream: the type of a file whose kind is unknown.
    public static let data = ContentTypeRegistry.builtIn("public.data")
    /// Any folder, packages included.
    public static let directory = ContentTypeRegistry.builtIn("public.directory")
    /// A plain folder.
    public static let folder = ContentTypeRegistry.builtIn("public.folder")
    /// A folder shown as one document.
    public static let package = ContentTypeRegistry.builtIn("com.apple.package")
    /// A symbolic link.
    public static let symbolicLink = ContentTypeRegistry.builtIn("public.symlink")
    /// Any text.
    public static let text = ContentTypeRegistry.builtIn("public.text")
    /// Text with no markup.
    public static let plainText = ContentTypeRegistry.builtIn("public.plain-text")
    /// Source code of any language.
    public static let sourceCode = ContentTypeRegistry.builtIn("public.source-code")
    /// Swift source.
    public static let swiftSource = ContentTypeRegistry.builtIn("public.swift-source")
    /// Markdown.
    public static let markdown = ContentTypeRegistry.builtIn("net.daringfireball.markdown")
    /// JSON.
    public static let json = ContentTypeRegistry.builtIn("public.json")
    /// HTML.
    public static let html = ContentTypeRegistry.builtIn("public.html")
    /// Any image.
    public static let image = ContentTypeRegistry.builtIn("public.image")
    /// PNG.
    public static let png = ContentTypeRegistry.builtIn("public.png")
    /// JPEG.
    public static let jpeg = ContentTypeRegistry.builtIn("public.jpeg")
    /// SVG.
    public static let svg = ContentTypeRegistry.builtIn("public.svg-image")
    /// Any audio.
    public static let audio = ContentTypeRegistry.builtIn("public.audio")
    /// Any movie.
    public static let movie = ContentTypeRegistry.builtIn("public.movie")
    /// PDF.
    public static let pdf = ContentTypeRegistry.builtIn("com.adobe.pdf")
    /// Any archive.
    public static let archive = ContentTypeRegistry.builtIn("public.archive")
    /// ZIP.
    public static let zip = ContentTypeRegistry.builtIn("public.zip-archive")
}
