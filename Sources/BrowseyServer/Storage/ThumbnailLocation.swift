import Thumbnails

/// Where a server keeps its thumbnails: in the user's cache folder, one folder per served root,
/// never inside the served tree.
public enum ThumbnailLocation {
    /// `$XDG_CACHE_HOME/browsey/thumbs/<root>/` (by default `~/.cache/…`;
    /// `~/Library/Caches/Browsey/Thumbs/…` on Apple platforms), else
    /// `/var/tmp/browsey-<uid>/thumbs/…`; `nil` when each lies inside the root.
    public static func defaultFolder(forRoot root: String) -> String? {
        let bases = TrashLocation.userFolders(
            apple: "Library/Caches/Browsey/Thumbs", xdgVariable: "XDG_CACHE_HOME", xdgDefault: ".cache",
            leaf: "thumbs")
        return folder(in: bases, forRoot: root)
    }

    /// The thumbnail folder for `root` in `folder` (`--thumb-dir`); `nil` inside the root.
    public static func folder(inFolder folder: String, forRoot root: String) -> String? {
        self.folder(in: [folder], forRoot: root)
    }

    private static func folder(in bases: [String], forRoot root: String) -> String? {
        let name = TrashLocation.identifier(ofRoot: SafePath.realPath(root) ?? root)
        return TrashLocation.firstOutside(root, among: bases.map { $0 + "/" + name })
    }
}

extension ServerConfiguration {
    /// `ffmpeg`, `pdftoppm` and `ffprobe` as found on `PATH`, for ``posterTools``.
    public static func findPosterTools() -> (ffmpeg: String?, pdftoppm: String?, ffprobe: String?) {
        let tools = PosterTools.find()
        return (tools.ffmpeg, tools.pdftoppm, tools.ffprobe)
    }
}
