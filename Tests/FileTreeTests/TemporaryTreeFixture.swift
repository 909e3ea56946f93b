import TestSupport

/// Builds a tree in a fresh temporary folder.
enum TemporaryTreeFixture {
    static func make(_ build: (TemporaryFolder) throws -> Void) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try build(folder)
        return folder
    }
}
