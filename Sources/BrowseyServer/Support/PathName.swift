/// The last component of an absolute path.
enum PathName {
    static func last(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "/"
    }
}
