import Testing

@testable import FileTree

@Suite("User and group names by ID")
struct AccountNamesTests {
    @Test("the system's user and group 0 are named, an ID nobody has is not, whether asked once or twice")
    func names() {
        let names = AccountNames()
        for _ in 0..<2 {
            #expect(names.userName(for: 0) == "root")
            #expect(names.groupName(for: 0) == "root")
            #expect(names.userName(for: 4_000_000_000) == nil)
            #expect(names.groupName(for: 4_000_000_000) == nil)
        }
    }
}
