/// What a video's container says about it: how long it plays and its picture's size as shown.
public struct VideoDetails: Sendable, Hashable {
    /// How long it plays, in seconds; `nil` when the container does not say (a live stream).
    public var duration: Double?
    /// The picture's width as shown (after the container's rotation), in pixels.
    public var width: Int?
    /// The picture's height as shown, in pixels.
    public var height: Int?

    /// Makes a video's description.
    public init(duration: Double? = nil, width: Int? = nil, height: Int? = nil) {
        self.duration = duration
        self.width = width
        self.height = height
    }

    /// Reads `ffprobe`'s `key=value` lines (`-of default=noprint_wrappers=1`): `width`, `height`,
    /// `rotation` and `duration`; anything else, and any value that is not a finite,
    /// non-negative number, is left out. `nil` when nothing was found.
    static func parse(ffprobeOutput output: some Collection<UInt8>) -> VideoDetails? {
        var details = VideoDetails()
        var rotation = 0
        for line in output.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            let key = text[..<equals]
            let value = text[text.index(after: equals)...].trimmingSuffix(while: { $0 == "\r" })
            switch key {
            case "width": details.width = Int(value).flatMap { $0 > 0 ? $0 : nil }
            case "height": details.height = Int(value).flatMap { $0 > 0 ? $0 : nil }
            case "rotation": rotation = Int(value) ?? Double(value).map { Int($0) } ?? 0
            case "duration":
                if let seconds = Double(value), seconds.isFinite, seconds >= 0 { details.duration = seconds }
            default: continue
            }
        }
        // A phone held upright stores its frames sideways and says so with a quarter turn.
        if abs(rotation) % 180 == 90 { (details.width, details.height) = (details.height, details.width) }
        if details.duration == nil && details.width == nil && details.height == nil { return nil }
        return details
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
