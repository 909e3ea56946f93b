#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ListItem {
    /// What a link adds to its item on the wire.
    public struct LinkFields: Sendable {
        /// Whether the target is missing.
        public var broken: Bool
        /// Whether the link leads outside the served folder (then only `true` is written).
        public var outside: Bool
        /// The target as stored.
        public var target: String?
        /// The target's absolute path.
        public var targetAbsolutePath: String?
        /// The target relative to the served root.
        public var targetPath: String?
        /// What the target is.
        public var targetType: ItemType?

        /// A link's fields; a link whose entry could not be read again is `LinkFields(broken: true)`.
        public init(
            broken: Bool, outside: Bool = false, target: String? = nil, targetAbsolutePath: String? = nil,
            targetPath: String? = nil, targetType: ItemType? = nil
        ) {
            self.broken = broken
            self.outside = outside
            self.target = target
            self.targetAbsolutePath = targetAbsolutePath
            self.targetPath = targetPath
            self.targetType = targetType
        }
    }

    /// Writes one item as JSON: the one definition of a list item on the wire, which both this
    /// type's JSON (``write(into:)``) and the server's listings written straight from a folder's
    /// bytes go through. Keys come in the order `JSONEncoder.browsey()` sorts them, so the bytes
    /// are the same as ``encode(to:)`` makes (a test holds them equal); `extension` is always
    /// there (`null` when absent); the link keys only for a link; `thumbnail` only when the
    /// server can make one.
    ///
    /// The three strings are written by the caller (`absolutePath`, `extension` as a string or
    /// `null`, `name`), so that a listing writes them from the names' bytes without making
    /// `String`s.
    @inlinable
    public static func writeJSON(
        into json: inout JSONWriter,
        absolutePath: (inout JSONWriter) -> Void,
        extension: (inout JSONWriter) -> Void,
        name: (inout JSONWriter) -> Void,
        modifiedMilliseconds: Int64, size: Int64, type: ItemType, link: LinkFields?, thumbnail: Bool? = nil
    ) {
        json.raw(#"{"absolutePath":"#)
        absolutePath(&json)
        json.raw(#","extension":"#)
        `extension`(&json)
        if let link {
            json.raw(#","linkBroken":"#)
            json.bool(link.broken)
            if link.outside { json.raw(#","linkOutside":true"#) }
            json.raw(#","linkTarget":"#)
            json.string(orNull: link.target)
        }
        json.raw(#","modified":"#)
        json.date(millisecondsSince1970: modifiedMilliseconds)
        json.raw(#","name":"#)
        name(&json)
        json.raw(#","size":"#)
        json.integer(size)
        if let link {
            json.raw(#","targetAbsolutePath":"#)
            json.string(orNull: link.targetAbsolutePath)
            json.raw(#","targetPath":"#)
            json.string(orNull: link.targetPath)
            json.raw(#","targetType":"#)
            json.string(orNull: link.targetType?.rawValue)
        }
        if let thumbnail {
            json.raw(#","thumbnail":"#)
            json.bool(thumbnail)
        }
        switch type {
        case .file: json.raw(#","type":"file"}"#)
        case .directory: json.raw(#","type":"directory"}"#)
        case .symlink: json.raw(#","type":"symlink"}"#)
        }
    }

    /// Writes this item as JSON through ``writeJSON(into:absolutePath:extension:name:modifiedMilliseconds:size:type:link:thumbnail:)``.
    public func write(into json: inout JSONWriter) {
        let link =
            type == .symlink
            ? LinkFields(
                broken: linkBroken ?? false, outside: linkOutside == true, target: linkTarget,
                targetAbsolutePath: targetAbsolutePath, targetPath: targetPath, targetType: targetType)
            : nil
        Self.writeJSON(
            into: &json,
            absolutePath: { $0.string(absolutePath) },
            extension: { $0.string(orNull: self.extension) },
            name: { $0.string(name) },
            modifiedMilliseconds: Int64((modified.timeIntervalSince1970 * 1000).rounded()),
            size: size, type: type, link: link, thumbnail: thumbnail)
    }
}
