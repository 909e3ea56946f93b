public import BrowseyAPI
public import FileTree

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ListItem {
    /// The contract's item for an entry, as ``ListingJSON`` writes it: a link's target is told
    /// only when `safePath` may reveal it (otherwise `linkOutside`).
    public init(_ entry: FileEntry, under safePath: SafePath) {
        self.init(
            name: entry.name, type: ItemType(entry.type), size: entry.size,
            modified: Date(timeIntervalSince1970: Double(entry.status?.modified.milliseconds ?? 0) / 1000),
            extension: entry.type == .directory ? nil : entry.pathExtension, absolutePath: entry.path)
        if entry.type == .symlink {
            linkBroken = false
        }
        if entry.type == .symlink, entry.symlink.map(safePath.mayReveal) != true {
            linkOutside = true
        } else if let link = entry.symlink {
            linkTarget = link.target
            targetAbsolutePath = link.resolvedPath
            targetPath = safePath.relativePath(of: link.resolvedPath)
            targetType = link.targetType.map(ItemType.init)
            linkBroken = link.isBroken
            // What the link leads to, reached again below the root held open: the entry read
            // it by following the link, before the check, so a link that leads out now is told
            // as outside, its target's type never.
            if let relative = safePath.relativePath(of: entry.path), let reach = safePath.reach(relative) {
                switch reach {
                case .inside(let status):
                    targetType = ItemType(status.type)
                    linkBroken = false
                case .outside:
                    (linkTarget, targetAbsolutePath, targetPath, targetType) = (nil, nil, nil, nil)
                    (linkOutside, linkBroken) = (true, false)
                case .nowhere:
                    targetType = nil
                    linkBroken = true
                }
            }
        }
    }
}
