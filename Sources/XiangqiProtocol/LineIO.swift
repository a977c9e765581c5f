#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiEngine

/// Where protocol replies go. Implementations write whole lines, flush each one, and may be
/// called from any thread.
public protocol LineSink: AnyObject, Sendable {
    func write(_ line: String)
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// Standard output, flushed after every line.
public final class StandardOutputSink: LineSink, @unchecked Sendable {
    // `lock` serialises writers (reader thread and search thread).
    private let lock = Lock()
    public init() {}
    public func write(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        lock.withLock {
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = systemWrite(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { break }  // the reader has gone; nothing more can be done
                    offset += n
                }
            }
        }
    }
}

/// Collects lines in memory (for tests and embedding).
public final class MemorySink: LineSink, @unchecked Sendable {
    // `lock` guards `lines`.
    private let lock = Lock()
    private var storage: [String] = []
    public init() {}
    public func write(_ line: String) { lock.withLock { storage.append(line) } }
    /// Every line written so far.
    public var lines: [String] { lock.withLock { storage } }
    /// Removes and returns the lines written so far.
    public func take() -> [String] {
        lock.withLock {
            defer { storage.removeAll() }
            return storage
        }
    }
}

/// Reads standard input line by line as raw bytes (so that invalid UTF-8 or NUL bytes
/// never stop the loop), strips a trailing CR, and decodes leniently.
public struct StandardInputLines: Sequence, IteratorProtocol {
    public init() {}
    public mutating func next() -> String? {
        var bytes: [UInt8] = []
        while true {
            let c = getchar()
            if c == EOF { return bytes.isEmpty ? nil : Self.decode(bytes) }
            if c == 10 { return Self.decode(bytes) }
            bytes.append(UInt8(truncatingIfNeeded: c))
        }
    }

    static func decode(_ bytes: [UInt8]) -> String {
        var b = bytes
        if b.last == 13 { b.removeLast() }
        return String(decoding: b, as: UTF8.self)
    }
}
