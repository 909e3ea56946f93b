/// A failed `open` or `pread`.
struct FileBodyError: Error {
    let number: Int32
}
