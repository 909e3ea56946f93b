import CFileTreeSystem
import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The properties clients set with PROPPATCH ("dead" properties: the server stores them and
/// gives them back, nothing more), kept in one extended attribute of the file itself,
/// `user.browsey.dav`.
///
/// Extended attributes and not a table: they go wherever the file goes (a rename, a move, the
/// trash) and vanish with it, so no second store can drift from the tree, and the server keeps
/// no state beside the folder. The price: a file system without user attributes (some network
/// mounts, tmpfs before Linux 6.6) refuses PROPPATCH (507), and the whole set of a file is
/// bounded by what one attribute holds (ext4: about 4 KiB; more is refused, 507).
///
/// The value is a sequence of records `namespace NUL local-name NUL value NUL`; values are XML
/// text (see ``DAVXMLElement/innerXML``), which never holds a NUL.
enum DAVDeadProperties {
    /// The attribute's name.
    static let attributeName = "user.browsey.dav"
    /// The most a file's set may take.
    static let maximumBytes = 64 * 1024

    /// The properties of the file open at `descriptor` (none when it has no attribute or the
    /// file system keeps none).
    static func read(descriptor: Int32) -> [DAVName: String] {
        var size = cft_get_attribute(descriptor, attributeName, nil, 0)
        guard size > 0 else { return [:] }
        var bytes = [UInt8](repeating: 0, count: size)
        size = bytes.withUnsafeMutableBytes {
            cft_get_attribute(descriptor, attributeName, $0.baseAddress, UInt($0.count))
        }
        guard size > 0 else { return [:] }
        return decode(bytes.prefix(size))
    }

    /// The properties of `name` in the open folder `folder`, never through a link there: one
    /// system call an entry where the system allows (what a PROPFIND of a large folder pays).
    static func read(named name: String, in folder: Int32) -> [DAVName: String] {
        // Most files have none: the first try reads into the stack, nothing allocated or cleared.
        let first = withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) {
            buffer -> ([DAVName: String]?, Int32) in
            let size = cft_get_attribute_at(
                folder, name, attributeName, buffer.baseAddress, UInt(buffer.count))
            if size > 0 { return (decode(UnsafeRawBufferPointer(rebasing: buffer[..<size])), 0) }
            return (nil, size < 0 ? errno : 0)
        }
        if let properties = first.0 { return properties }
        guard first.1 == ERANGE else { return [:] }
        let needed = cft_get_attribute_at(folder, name, attributeName, nil, 0)
        guard needed > 0 else { return [:] }
        var bytes = [UInt8](repeating: 0, count: needed)
        let size = bytes.withUnsafeMutableBytes {
            cft_get_attribute_at(folder, name, attributeName, $0.baseAddress, UInt($0.count))
        }
        guard size > 0 else { return [:] }
        return decode(bytes.prefix(size))
    }

    /// Stores `properties` on the file open at `descriptor` (the attribute removed when empty).
    static func write(_ properties: [DAVName: String], descriptor: Int32) throws(FileTreeError) {
        if properties.isEmpty {
            if cft_remove_attribute(descriptor, attributeName) != 0 && errno != ENODATA {
                throw FileTreeError(errno: errno, path: attributeName)
            }
            return
        }
        let bytes = encode(properties)
        guard bytes.count <= maximumBytes else {
            throw FileTreeError(
                .noSpace, "Too many properties on one file", path: attributeName, errno: E2BIG)
        }
        let result = bytes.withUnsafeBytes {
            cft_set_attribute(descriptor, attributeName, $0.baseAddress, UInt($0.count))
        }
        guard result == 0 else {
            let code = errno
            // No room in the attribute, or a file system without user attributes.
            if code == E2BIG || code == ENOSPC || code == EOPNOTSUPP || code == ERANGE {
                throw FileTreeError(
                    .noSpace, "The properties cannot be stored here", path: attributeName, errno: code)
            }
            throw FileTreeError(errno: code, path: attributeName)
        }
    }

    /// Copies the set of one file to another (a COPY keeps dead properties).
    static func copy(from source: Int32, to destination: Int32) {
        let properties = read(descriptor: source)
        if !properties.isEmpty { try? write(properties, descriptor: destination) }
    }

    static func encode(_ properties: [DAVName: String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in properties.sorted(by: { $0.key.description < $1.key.description }) {
            bytes += Array(name.namespace.utf8) + [0] + Array(name.local.utf8) + [0] + Array(value.utf8) + [0]
        }
        return bytes
    }

    /// The records of `bytes`, each checked as it is read: the attribute is the user's (anyone
    /// with a shell can set it), so a record whose name or value does not make exactly one
    /// well-formed element is dropped, and a kept value is written back the way the server writes
    /// values, so nothing in it can break the answer it goes into.
    static func decode(_ bytes: some Collection<UInt8>) -> [DAVName: String] {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var properties: [DAVName: String] = [:]
        var index = 0
        while index + 2 < fields.count {
            let name = DAVName(fields[index], fields[index + 1])
            if let value = checked(name, fields[index + 2]) { properties[name] = value }
            index += 3
        }
        return properties
    }

    /// `value` as the server would store it, or `nil` when `name` with `value` is not one
    /// well-formed element of that name.
    static func checked(_ name: DAVName, _ value: String) -> String? {
        // `D` is bound as in every answer, so a value written with that prefix still reads.
        let document = "<w xmlns:D=\"DAV:\">" + DAVXMLWriter.element(name, innerXML: value) + "</w>"
        guard let root = try? DAVXMLParser.parse(Array(document.utf8)), root.children.count == 1,
            let element = root.elements.first, element.name == name
        else { return nil }
        return element.innerXML
    }
}
