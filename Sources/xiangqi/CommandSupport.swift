import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

// Helpers shared by the subcommands (no Foundation, as in the engine).

/// Writes `text` to standard error as is (no newline added).
func errorWrite(_ text: String) {
    var standardError = StandardError()
    standardError.write(text)
}

/// `x` with one decimal.
func format1(_ x: Double) -> String {
    let tenths = Int((x * 10).rounded())
    return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
}

/// The whole of a text file (invalid UTF-8 replaced); a ``CommandFailure`` naming the file
/// when it cannot be read.
func readTextFile(_ path: String) throws -> String {
    guard let file = fopen(path, "r") else {
        throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n > 0 { bytes += chunk[0..<n] }
        if n < chunk.count { break }
    }
    if ferror(file) != 0 { throw CommandFailure("cannot read \(path): read error") }
    return String(decoding: bytes, as: UTF8.self)
}

/// A file written line by line as results come in, so that an interrupted run keeps what it
/// had.
final class OutputFile: @unchecked Sendable {
    // `lock` serialises writers.
    private let lock = Lock()
    private let file: UnsafeMutablePointer<FILE>

    /// Opens `path` for writing, emptied, or kept and written after its end with `append`.
    init(path: String, append: Bool = false) throws {
        guard let file = fopen(path, append ? "a" : "w") else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    func write(_ text: String) {
        lock.withLock {
            fputs(text, file)
            fflush(file)
        }
    }

    deinit { fclose(file) }
}

/// Runs `body` on Swift's concurrency pool and waits for it on this thread (the commands are
/// synchronous; the client library is asynchronous).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = BlockingBox<T>()
    Task {
        let value = await body()
        box.lock.withLock {
            box.value = value
            box.lock.broadcast()
        }
    }
    return box.lock.withLock {
        while box.value == nil { box.lock.wait() }
        return box.value!
    }
}

/// A value handed from a task to a waiting thread.
private final class BlockingBox<T>: @unchecked Sendable {
    // `lock` guards `value`.
    let lock = Lock()
    var value: T?
}

/// Writes a line to standard output at once (not buffered), so that a long run piped to a
/// file or `tee` shows each result as it comes and an interrupted run keeps what it printed.
func emit(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

/// Whether file descriptor `fd` is a terminal (progress bars go there only).
func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

/// The running executable's absolute path (symbolic links resolved), if the system says.
func executablePath() -> String? {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
    return CommandLine.arguments.first.flatMap { realpath($0, nil) }.map { p in
        defer { free(p) }
        return String(cString: p)
    }
    #endif
}

/// A tool's run-time failure (a bad FEN or move, a file that cannot be read or written, an
/// unreadable book): printed as one line on standard error (`Error: ...`) with exit status
/// 1 and no usage text. A bad argument stays a `ValidationError` (usage, exit status 64).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
