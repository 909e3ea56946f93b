import FileTree
import Hummingbird

extension AtomicFileWriter {
    /// Writes a request's body as its chunks come: all of it or nothing. On a failure, a body
    /// longer than `declared`, or one that ends short of it, the write is discarded and the
    /// error thrown (`lengthMismatch` for the lengths; `failure` turns the disk's errors into
    /// the answer's). Returns how many bytes were written; committing is the caller's.
    func write(
        body: RequestBody, declared: Int64?, failure: (FileTreeError) -> APIError
    ) async throws -> Int64 {
        var received: Int64 = 0
        do {
            for try await chunk in body {
                received += Int64(chunk.readableBytes)
                if let declared, received > declared { break }
                let written = Result { () throws(FileTreeError) in
                    try chunk.withUnsafeReadableBytes { bytes throws(FileTreeError) in try write(bytes) }
                }
                if case .failure(let error) = written { throw failure(error) }
            }
        } catch {
            discard()
            throw error
        }
        if let declared, received != declared {
            discard()
            throw APIError(.badRequest, "Body length differs from the declared length", code: .lengthMismatch)
        }
        return received
    }
}
