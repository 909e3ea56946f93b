internal import CFileTreeSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension EntryAttribute where Value == String {
    /// The owner's user name (from the user database, cached per user ID).
    public static var ownerName: EntryAttribute<String> {
        EntryAttribute(name: "fileTree.ownerName") { context in
            context.status.flatMap { AccountNames.shared.userName(for: $0.ownerID) }
        }
    }

    /// The group's name (from the group database, cached per group ID).
    public static var groupName: EntryAttribute<String> {
        EntryAttribute(name: "fileTree.groupName") { context in
            context.status.flatMap { AccountNames.shared.groupName(for: $0.groupID) }
        }
    }
}

extension EntryAttribute where Value == Int {
    /// How many entries a folder holds (`.` and `..` not counted); `nil` for other types or when
    /// the folder cannot be read.
    public static var childCount: EntryAttribute<Int> {
        EntryAttribute(name: "fileTree.childCount") { context in
            guard context.type == .directory, let dir = opendir(context.path) else { return nil }
            defer { closedir(dir) }
            var count = 0
            while let entry = readdir(dir) {
                let isDotOrDotDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                    name[0] == UInt8(ascii: ".")
                        && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
                }
                if !isDotOrDotDot { count += 1 }
            }
            return count
        }
    }
}

extension EntryAttribute where Value == [String] {
    /// The names of the item's extended attributes (`user.xdg.origin.url`, `com.apple.quarantine`).
    public static var extendedAttributeNames: EntryAttribute<[String]> {
        EntryAttribute(name: "fileTree.extendedAttributeNames") { context in
            let size = cft_list_extended_attributes(context.path, nil, 0)
            guard size > 0 else { return size == 0 ? [] : nil }
            var buffer = [CChar](repeating: 0, count: size)
            let read = cft_list_extended_attributes(context.path, &buffer, UInt(size))
            guard read > 0 else { return nil }
            return buffer[0..<min(read, size)].split(separator: 0).map { bytes in
                String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}

/// User and group names by ID, looked up once each: the user database can be slow to read.
final class AccountNames: Sendable {
    static let shared = AccountNames()
    private let users = Mutex<[UInt32: String?]>([:])
    private let groups = Mutex<[UInt32: String?]>([:])

    func userName(for id: UInt32) -> String? {
        Self.name(for: id, in: users) { buffer in
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(id, &record, &buffer, buffer.count, &result)
            return (status, status == 0 && result != nil ? String(cString: record.pw_name) : nil)
        }
    }

    func groupName(for id: UInt32) -> String? {
        Self.name(for: id, in: groups) { buffer in
            var record = group()
            var result: UnsafeMutablePointer<group>?
            let status = getgrgid_r(id, &record, &buffer, buffer.count, &result)
            return (status, status == 0 && result != nil ? String(cString: record.gr_name) : nil)
        }
    }

    /// The name `read` finds for `id`, kept in `cache` once looked up. `read` fills the buffer
    /// it is given and says its status and the name; a buffer too small for the record (`ERANGE`:
    /// a group of many members) is doubled, up to 1 MiB, rather than the name being lost.
    private static func name(
        for id: UInt32, in cache: borrowing Mutex<[UInt32: String?]>,
        read: (inout [CChar]) -> (status: Int32, name: String?)
    ) -> String? {
        if let cached = cache.withLock({ $0[id] }) { return cached }
        var buffer = [CChar](repeating: 0, count: 4096)
        var found = read(&buffer)
        while found.status == ERANGE && buffer.count < 1 << 20 {
            buffer = [CChar](repeating: 0, count: buffer.count * 2)
            found = read(&buffer)
        }
        let name = found.name
        cache.withLock { $0[id] = .some(name) }
        return name
    }
}
