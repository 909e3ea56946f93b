#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// PostgreSQL's own client library, libpq, loaded when a server is first told to use a database
/// (as the thumbnail codecs are), so that a server without one never maps it.
///
/// Why libpq and not postgres-nio: postgres-nio imports all of Foundation, which the server
/// never links (its idle memory would grow by about 28 MB); libpq is the maintained reference
/// client, parses `postgresql://` URLs itself (TLS when `sslmode` asks) and costs nothing until
/// loaded. Its calls block, so ``PostgresStateStore`` makes them on threads of its own.
struct LibPQ: @unchecked Sendable {
    // Each is the C function of the same name without `PQ`; handles are `PGconn *` and
    // `PGresult *`.
    let connectdb: @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    let status: @convention(c) (OpaquePointer?) -> Int32
    let errorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (OpaquePointer?) -> Void
    let execParams:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    let prepare:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?
        ) -> OpaquePointer?
    let execPrepared:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    let resultStatus: @convention(c) (OpaquePointer?) -> Int32
    let resultErrorField: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    let resultErrorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let ntuples: @convention(c) (OpaquePointer?) -> Int32
    let nfields: @convention(c) (OpaquePointer?) -> Int32
    let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let cmdTuples: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let clear: @convention(c) (OpaquePointer?) -> Void
    let socket: @convention(c) (OpaquePointer?) -> Int32
    let consumeInput: @convention(c) (OpaquePointer?) -> Int32
    let notifies: @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// `CONNECTION_OK`.
    static let connectionOK: Int32 = 0
    /// `PGRES_COMMAND_OK` and `PGRES_TUPLES_OK`.
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    /// `PG_DIAG_SQLSTATE`.
    static let sqlState = Int32(UInt8(ascii: "C"))

    /// The library, loaded once; `nil` when the system has none (Debian's `libpq5`).
    static let shared: LibPQ? = load()

    private static func load() -> LibPQ? {
        #if canImport(Darwin)
            let names = ["libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib"]
        #else
            let names = ["libpq.so.5"]
        #endif
        guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
            return nil
        }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        typealias Text = UnsafeMutablePointer<CChar>?
        typealias Parameters = UnsafePointer<UnsafePointer<CChar>?>?
        typealias Execute =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?, Parameters,
                UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
            ) -> OpaquePointer?
        typealias Prepare =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?
            ) -> OpaquePointer?
        typealias ExecutePrepared =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, Int32, Parameters, UnsafePointer<Int32>?,
                UnsafePointer<Int32>?,
                Int32
            ) -> OpaquePointer?
        typealias Count = @convention(c) (OpaquePointer?) -> Int32
        typealias Message = @convention(c) (OpaquePointer?) -> Text
        typealias Cell = @convention(c) (OpaquePointer?, Int32, Int32) -> Text
        typealias Free = @convention(c) (OpaquePointer?) -> Void
        guard
            let connectdb = symbol(
                "PQconnectdb", (@convention(c) (UnsafePointer<CChar>) -> OpaquePointer?).self),
            let status = symbol("PQstatus", Count.self),
            let errorMessage = symbol("PQerrorMessage", Message.self),
            let finish = symbol("PQfinish", Free.self),
            let execParams = symbol("PQexecParams", Execute.self),
            let prepare = symbol("PQprepare", Prepare.self),
            let execPrepared = symbol("PQexecPrepared", ExecutePrepared.self),
            let resultStatus = symbol("PQresultStatus", Count.self),
            let resultErrorField = symbol(
                "PQresultErrorField", (@convention(c) (OpaquePointer?, Int32) -> Text).self),
            let resultErrorMessage = symbol("PQresultErrorMessage", Message.self),
            let ntuples = symbol("PQntuples", Count.self),
            let nfields = symbol("PQnfields", Count.self),
            let getvalue = symbol("PQgetvalue", Cell.self),
            let getisnull = symbol(
                "PQgetisnull", (@convention(c) (OpaquePointer?, Int32, Int32) -> Int32).self),
            let cmdTuples = symbol("PQcmdTuples", Message.self),
            let clear = symbol("PQclear", Free.self),
            let socket = symbol("PQsocket", Count.self),
            let consumeInput = symbol("PQconsumeInput", Count.self),
            let notifies = symbol(
                "PQnotifies", (@convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?).self),
            let freemem = symbol("PQfreemem", (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
        else { return nil }
        return LibPQ(
            connectdb: connectdb, status: status, errorMessage: errorMessage, finish: finish,
            execParams: execParams, prepare: prepare, execPrepared: execPrepared, resultStatus: resultStatus,
            resultErrorField: resultErrorField,
            resultErrorMessage: resultErrorMessage, ntuples: ntuples, nfields: nfields, getvalue: getvalue,
            getisnull: getisnull,
            cmdTuples: cmdTuples, clear: clear, socket: socket, consumeInput: consumeInput,
            notifies: notifies,
            freemem: freemem)
    }
}
