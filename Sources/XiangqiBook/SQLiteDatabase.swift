#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// What went wrong with a book file or a book build, in words fit for an `info string` line.
public struct BookError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// SQLite's "copy the bound value now" destructor, which the C header spells as a cast of -1.
nonisolated(unsafe) private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not thread-safe: its owner serialises access.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    let path: String

    /// Opens `path`: read-only (the file must exist), or read-write creating it.
    init(path: String, readOnly: Bool) throws(BookError) {
        self.path = path
        // A book to read must be a regular file: opening a FIFO blocks until a writer comes,
        // and a device or standard input would be read as a database, hanging the engine.
        // S_IFMT and S_IFREG as literals: their imported types differ between Glibc and Darwin.
        var status = stat()
        if readOnly, stat(path, &status) == 0, status.st_mode & 0o170000 != 0o100000 {
            throw BookError("cannot open \(path): not a regular file")
        }
        let flags = readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        if code != SQLITE_OK {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            handle = nil
            throw BookError("cannot open \(path): \(message)")
        }
    }

    /// Opens a read-only database held in memory: a copy of `bytes` (a whole SQLite file, for
    /// instance a book an app ships as a resource), named `name` in messages.
    init(bytes: [UInt8], name: String) throws(BookError) {
        path = name
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            self.handle = nil
            throw BookError("cannot open \(name): \(message)")
        }
        // SQLite frees the copy when the connection closes (FREEONCLOSE), also on failure.
        guard !bytes.isEmpty, let copy = sqlite3_malloc64(UInt64(bytes.count)) else {
            throw BookError("\(name) is not a readable SQLite file (\(bytes.isEmpty ? "no bytes" : "out of memory"))")
        }
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
        let code = sqlite3_deserialize(handle, "main", copy.assumingMemoryBound(to: UInt8.self),
                                       Int64(bytes.count), Int64(bytes.count), flags)
        guard code == SQLITE_OK else { throw BookError("cannot open \(name): \(lastError)") }
    }

    /// Opens a read-only database over `bytes`, which must stay valid and unchanged while it is
    /// open (the built-in book, in the program's read-only data): no copy is made.
    init(staticBytes bytes: UnsafeRawBufferPointer, name: String) throws(BookError) {
        path = name
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            self.handle = nil
            throw BookError("cannot open \(name): \(message)")
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw BookError("\(name) is empty") }
        // READONLY: SQLite never writes to the buffer, so read-only memory serves.
        let code = sqlite3_deserialize(handle, "main", UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self)),
                                       Int64(bytes.count), Int64(bytes.count), UInt32(SQLITE_DESERIALIZE_READONLY))
        guard code == SQLITE_OK else { throw BookError("cannot open \(name): \(lastError)") }
    }

    deinit { sqlite3_close_v2(handle) }

    /// The last error message of the connection.
    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(BookError) {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw BookError("\(path): \(message)")
        }
    }

    func prepare(_ sql: String) throws(BookError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BookError("\(path): \(lastError)")
        }
        return SQLiteStatement(statement, database: self)
    }

    /// `PRAGMA user_version`, the schema version.
    func userVersion() throws(BookError) -> Int {
        let statement = try prepare("PRAGMA user_version")
        guard try statement.step() else { return 0 }
        return Int(statement.int64(0))
    }
}

/// A prepared statement; binding indexes start at 1, column indexes at 0.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(statement, index, value) }
    func bind(_ value: Int, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(value)) }
    func bind(_ value: String, at index: Int32) { sqlite3_bind_text(statement, index, value, -1, transient) }

    /// Advances; `true` when a row is available, `false` when done.
    func step() throws(BookError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw BookError("\(database.path): \(database.lastError)")
        }
    }

    /// Clears the bindings and rewinds, ready to run again.
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: bytes)
    }
}
