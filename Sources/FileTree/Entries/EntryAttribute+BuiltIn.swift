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
        if let cached = users.withLock({ $0[id] }) { return cached }
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let name: String? =
            getpwuid_r(id, &record, &buffer, buffer.count, &result) == 0 && result != nil
            ? String(cString: record.pw_name) : nil
        users.withLock { $0[id] = .some(name) }
        return name
    }

    func groupName(for id: UInt32) -> String? {
        if let cached = groups.withLock({ $0[id] }) { return cached }
        var record = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let name: String? =
            getgrgid_r(id, &record, &buffer, buffer.count, &result) == 0 && result != nil
            ? String(cString: record.gr_name) : nil
        groups.withLock { $0[id] = .some(name) }
        return name
    }
}
