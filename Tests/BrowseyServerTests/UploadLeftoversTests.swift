import Foundation
import TestSupport
import Testing

@testable import BrowseyServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Leftovers of interrupted uploads")
struct UploadLeftoversTests {
    static let day: Int64 = 24 * 3600

    /// Sets a file's modification time to `days` days before `now`.
    static func age(_ path: String, days: Int64, now: Int64) {
        var times = [
            timespec(tv_sec: Int(now - days * day), tv_nsec: 0),
            timespec(tv_sec: Int(now - days * day), tv_nsec: 0),
        ]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    @Test(
        "part files untouched for 7 days and temporary files untouched for a day are removed; fresh ones, look-alikes and anything behind a link stay"
    )
    func sweep() throws {
        let root = try TemporaryFolder()
        let outside = try TemporaryFolder(prefix: "browsey-outside")
        let now = UploadLeftovers.wallClockNow()
        let old: [String] = [
            ".browsey-upload-1a2b3c-1000.part", "deep/er/.browsey-upload-ffff-5.part",
            ".video.mp4.browsey-k2j4h5g6f7d8s",
            "docs/.notes.md.browsey-1",
        ]
        let kept: [(name: String, days: Int64)] = [
            (".browsey-upload-1a2b3c-2000.part", 6),  // a part file from last week: may still be resumed
            (".video.mp4.browsey-abc", 0),  // a write in progress
            (".config.browsey-settings!", 30),  // not our name
            (".browsey-Xyz", 30),  // no stem
            ("visible.part", 30),
            ("docs/.browsey-upload-notes.txt", 30),
        ]
        for name in old {
            try root.file(name, "left over")
            Self.age(root.path(name), days: name.hasSuffix(".part") ? 8 : 2, now: now)
        }
        for (name, days) in kept {
            try root.file(name, "keep")
            Self.age(root.path(name), days: days, now: now)
        }
        // A folder named like a leftover is not a file: it stays.
        try root.folder(".photos.browsey-abc")
        // An old part file outside, reached through a link: never touched.
        try outside.file(".browsey-upload-aaaa-10.part", "outside")
        Self.age(outside.path(".browsey-upload-aaaa-10.part"), days: 30, now: now)
        try root.symlink("linked", to: outside.path)

        let removed = UploadLeftovers.sweep(root: root.path, now: now)
        #expect(removed == UploadLeftovers.Removed(count: old.count, bytes: Int64(old.count * 9)))
        for name in old { #expect(!root.exists(name), "\(name)") }
        for (name, _) in kept { #expect(root.exists(name), "\(name)") }
        #expect(root.exists(".photos.browsey-abc"))
        #expect(outside.exists(".browsey-upload-aaaa-10.part"))
    }

    @Test("the names of leftovers: part files, and hidden temporary files with a base-36 suffix")
    func names() {
        #expect(UploadLeftovers.age(ofLeftover: ".browsey-upload-0f-12.part") == UploadLeftovers.partAge)
        #expect(UploadLeftovers.age(ofLeftover: ".a.browsey-z") == UploadLeftovers.temporaryAge)
        #expect(UploadLeftovers.age(ofLeftover: ".a.b.browsey-3w5e11264sgsf") == UploadLeftovers.temporaryAge)
        #expect(UploadLeftovers.age(ofLeftover: ".a.browsey-3w5e11264sgsfx") == nil)  // 14 characters
        #expect(UploadLeftovers.age(ofLeftover: "a.browsey-z") == nil)
        #expect(UploadLeftovers.age(ofLeftover: ".a.browsey-Z") == nil)
        #expect(UploadLeftovers.age(ofLeftover: "..browsey-z") == nil)
    }
}
