/// `POST /api/move` and `POST /api/copy`: puts an item into another folder.
public struct TransferRequest: Codable, Sendable, Hashable {
    /// The item.
    public var path: String
    /// The folder it goes into.
    public var destination: String

    /// Makes a move or copy request.
    public init(path: String, destination: String) {
        self.path = path
        self.destination = destination
    }
}
