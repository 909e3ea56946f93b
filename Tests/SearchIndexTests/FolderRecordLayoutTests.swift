import Testing

@testable import SearchIndex

@Suite("A folder's record keeps what a search reads of each name together")
struct FolderRecordLayoutTests {
    @Test(
        "the hidden mark, the name count, the folded names, their ends and their summaries lie in bytes 16 to 47"
    )
    func searchFieldsComeFirst() {
        let record = FolderRecord(
            path: "/a/.b",
            entries: ["report.txt", "notes.md"].map {
                IndexedEntry(name: $0, kind: .file, size: 1, modified: 0, inode: 0)
            })
        withExtendedLifetime(record) {
            let object = UnsafeRawPointer(Unmanaged.passUnretained(record).toOpaque())
            func elements<Element>(_ array: [Element]) -> UInt {
                array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            }
            // An array is one reference to its storage, whose elements follow a 32-byte head.
            func elements(at offset: Int) -> UInt { object.load(fromByteOffset: offset, as: UInt.self) + 32 }
            // After the object's own 16 bytes (its type and its counts of references).
            #expect(object.load(fromByteOffset: 16, as: Bool.self) == record.isHidden && record.isHidden)
            #expect(object.load(fromByteOffset: 20, as: Int32.self) == 2)
            #expect(elements(at: 24) == elements(record.folded))
            #expect(elements(at: 32) == elements(record.foldedEnds))
            #expect(elements(at: 40) == elements(record.masks))
        }
    }
}
