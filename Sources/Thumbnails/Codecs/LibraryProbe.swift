#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether an optional shared library is installed, without loading it.
///
/// Loading costs memory for as long as the process runs (libheif with its HEVC and AV1
/// decoders: 4.4 MiB resident; libwebp: 0.7 MiB), and a server that never meets a HEIC or
/// WebP picture should not pay it. A listing only needs to know whether such a picture would
/// get a thumbnail, so the file is looked for where the dynamic loader would look; the library
/// is loaded on the first picture that needs it.
enum LibraryProbe {
    /// The folders searched: `LD_LIBRARY_PATH` first, then the usual system folders.
    static var folders: [String] {
        var folders: [String] = []
        if let extra = getenv("LD_LIBRARY_PATH") {
            folders += String(cString: extra).split(separator: ":").map(String.init)
        }
        folders += [
            "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib",
            "/opt/homebrew/lib",
        ]
        return folders
    }

    /// Whether a file with one of `names` (such as `libheif.so.1`) is in one of ``folders``.
    static func isInstalled(_ names: [String]) -> Bool {
        for folder in folders where !folder.isEmpty {
            for name in names where access(folder + "/" + name, F_OK) == 0 { return true }
        }
        return false
    }
}
