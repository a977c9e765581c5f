#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

/// The `Debug Log File` option: every line the session reads (`>> `) and writes (`<< `),
/// appended to a file and flushed line by line, so that a GUI's conversation with the
/// engine can be replayed after a problem. Safe to call from the reader and the search
/// threads at once.
final class DebugLog: @unchecked Sendable {
    // `lock` guards `file`.
    private let lock = Lock()
    private var file: UnsafeMutablePointer<FILE>?

    deinit { if let file { fclose(file) } }

    /// Logs to `newPath` from now on (appending), or to nothing when it is empty or
    /// `<empty>`. Returns the message for the GUI when the file cannot be opened: logging
    /// then stops and play goes on.
    func open(_ newPath: String) -> String? {
        lock.withLock {
            if let file { fclose(file) }
            file = nil
            guard !newPath.isEmpty && newPath != "<empty>" else { return nil }
            guard let opened = fopen(newPath, "a") else {
                return "cannot open Debug Log File \(newPath): \(String(cString: strerror(errno))); no log is written"
            }
            file = opened
            return nil
        }
    }

    /// Appends a line read from the GUI.
    func received(_ line: String) { append(">> ", line) }

    /// Appends a line written to the GUI.
    func sent(_ line: String) { append("<< ", line) }

    private func append(_ mark: String, _ line: String) {
        lock.withLock {
            guard let file else { return }
            fputs(mark + line + "\n", file)
            fflush(file)
        }
    }
}
