#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
private func sendSignal(_ pid: pid_t, _ signal: Int32) { _ = kill(pid, signal) }
/// POSIX_SPAWN_SETSIGDEFAULT and POSIX_SPAWN_SETPGROUP (not imported into Swift from glibc's headers).
private let spawnSetSignalDefault = 0x04
private let spawnSetProcessGroup = 0x02
/// Serialises process creation (see ``ChildProcess/init(executable:arguments:)``).
private let spawnLock = PlainMutex()

/// A plain pthread mutex with lock and unlock calls, for a critical section that spans
/// throwing code.
private final class PlainMutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// What waiting for a line of an engine's output gave.
enum LineEvent: Sendable, Equatable {
    /// A line and the moment the reader thread received it (so that think times do not
    /// include any wait of the consumer for a thread).
    case line(String, ContinuousClock.Instant)
    /// The engine closed its output (it exited or crashed).
    case closed
    /// The deadline passed first.
    case timeout
}

/// Lines read by a reader thread, handed to one asynchronous consumer at a time.
///
/// No thread of Swift's cooperative pool ever blocks here: a consumer with nothing to read
/// suspends until a line, the end of output or its deadline arrives.
final class LineChannel: Sendable {
    private struct State {
        var lines: [(text: String, arrival: ContinuousClock.Instant)] = []
        var head = 0
        var closed = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<LineEvent, Never>)?
        var nextID: UInt64 = 0

        /// The next buffered line, or the end of output, if either is there.
        mutating func take() -> LineEvent? {
            if head < lines.count {
                defer {
                    head += 1
                    compact()
                }
                return .line(lines[head].text, lines[head].arrival)
            }
            return closed ? .closed : nil
        }

        /// Frees the slots of lines already taken or dropped once they are most of the buffer.
        mutating func compact() {
            if head > 1024 && head * 2 > lines.count {
                lines.removeFirst(head)
                head = 0
            }
        }
    }

    /// Lines kept unread before the oldest are dropped (a runaway engine must not exhaust memory).
    static let capacity = 200_000
    private let state = Protected(State())

    /// Called by the reader thread for each line.
    func push(_ line: String) {
        let arrival = ContinuousClock.now
        let waiter = state.withLock { s -> CheckedContinuation<LineEvent, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w.continuation
            }
            s.lines.append((line, arrival))
            if s.lines.count - s.head > Self.capacity {
                s.head += 1
                s.compact()
            }
            return nil
        }
        waiter?.resume(returning: .line(line, arrival))
    }

    /// Called by the reader thread at the end of output.
    func close() {
        let waiter = state.withLock { s -> CheckedContinuation<LineEvent, Never>? in
            s.closed = true
            defer { s.waiter = nil }
            return s.waiter?.continuation
        }
        waiter?.resume(returning: .closed)
    }

    /// Drops every buffered line (output left over from an earlier exchange).
    func discardBuffered() {
        state.withLock { s in
            s.lines.removeAll()
            s.head = 0
        }
    }

    /// The next line, the end of output, or `.timeout` once `deadline` has passed.
    func next(until deadline: ContinuousClock.Instant) async -> LineEvent {
        if let ready = state.withLock({ $0.take() }) { return ready }
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate = state.withLock { s -> LineEvent? in
                if let ready = s.take() { return ready }
                if ContinuousClock.now >= deadline { return .timeout }
                s.waiter = (id, continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ id: UInt64) {
        let waiter = state.withLock { s -> CheckedContinuation<LineEvent, Never>? in
            guard let w = s.waiter, w.id == id else { return nil }
            s.waiter = nil
            return w.continuation
        }
        waiter?.resume(returning: .timeout)
    }
}

/// How a child process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7F
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signalled(signal)
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal):
            switch signal {
            case SIGSEGV: "killed by signal \(signal) (segmentation fault)"
            case SIGABRT: "killed by signal \(signal) (abort)"
            case SIGKILL: "killed by signal \(signal) (kill)"
            case SIGILL: "killed by signal \(signal) (illegal instruction)"
            case SIGTERM: "killed by signal \(signal) (terminate)"
            default: "killed by signal \(signal)"
            }
        }
    }
}

/// A child process with its standard input and output on pipes, standard error discarded.
/// Output lines arrive through ``lines``, read by a thread of the process's own.
///
/// Creating one sets the parent's SIGPIPE to ignored (a write to an engine that died must be
/// an error, not the end of the server); the child gets the default back.
final class ChildProcess: Sendable {
    let pid: pid_t
    let lines = LineChannel()
    private let input: Protected<Int32>
    private let status = Protected<ExitStatus?>(nil)

    /// Starts `executable` (looked up in `PATH` when it has no slash) with `arguments`.
    init(executable: String, arguments: [String]) throws(EngineClientError) {
        signal(SIGPIPE, SIG_IGN)
        // Pipes are made close-on-exec under one lock, so that no other engine started at the
        // same time inherits their ends (an inherited write end would hide this engine's exit).
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        spawnLock.lock()
        defer { spawnLock.unlock() }
        guard pipe(&toChild) == 0 else { throw .launchFailed("no pipe: \(Self.errorText(errno))") }
        guard pipe(&fromChild) == 0 else {
            closeDescriptor(toChild[0]); closeDescriptor(toChild[1])
            throw .launchFailed("no pipe: \(Self.errorText(errno))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        #if canImport(Glibc)
        // On Linux a child takes the nice value of the thread that starts it, and Dispatch
        // raises its worker threads' priority (nice -2 or -4, where the process may lower it,
        // as root can), so engines started from a worker ran ahead of the runner's own
        // `nice` and of whatever ran beside it. The child starts at the process's nice value
        // (its main thread's) instead.
        let byProcess = __priority_which_t(PRIO_PROCESS.rawValue)
        let threadNice = getpriority(byProcess, 0)
        let processNice = getpriority(byProcess, id_t(getpid()))
        if threadNice != processNice { _ = setpriority(byProcess, 0, processNice) }
        defer { if threadNice != processNice { _ = setpriority(byProcess, 0, threadNice) } }
        #endif
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A process group of its own: a terminal's Ctrl-C reaches the parent, which can then
        // finish its work with the engines, and not the engines themselves.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSignalDefault | spawnSetProcessGroup))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var child = pid_t()
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, environ)
        argv.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        closeDescriptor(toChild[0])
        closeDescriptor(fromChild[1])
        guard result == 0 else {
            closeDescriptor(toChild[1])
            closeDescriptor(fromChild[0])
            throw .launchFailed("cannot start '\(executable)': \(Self.errorText(result))")
        }
        pid = child
        input = Protected(toChild[1])
        let output = fromChild[0], channel = lines
        startThread(stackSize: 256 << 10) { Self.readLines(output, into: channel) }
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Longest line kept; the rest of a longer line is dropped.
    static let maximumLineLength = 1 << 20

    private static func readLines(_ fd: Int32, into channel: LineChannel) {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            for byte in chunk[0..<n] {
                if byte == 10 {
                    channel.push(decode(line))
                    line.removeAll(keepingCapacity: true)
                } else if line.count < maximumLineLength {
                    line.append(byte)
                }
            }
        }
        if !line.isEmpty { channel.push(decode(line)) }
        closeDescriptor(fd)
        channel.close()
    }

    private static func decode(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == 13 ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }

    /// Writes `text` and a newline; `false` when the child no longer reads its input.
    @discardableResult
    func writeLine(_ text: String) -> Bool { send(bytes: Array((text + "\n").utf8)) }

    /// Writes raw `bytes` (which need not be UTF-8); `false` when the child no longer reads its input.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var bytes = bytes
        return input.withLock { fd in
            guard fd >= 0 else { return false }
            return bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return false }
                    offset += n
                }
                return true
            }
        }
    }

    /// Closes the child's input (a well-behaved engine then exits).
    func closeInput() {
        input.withLock { fd in
            if fd >= 0 { closeDescriptor(fd) }
            fd = -1
        }
    }

    /// The exit status if the child has ended (it is reaped here), else `nil`.
    func exitStatus() -> ExitStatus? {
        status.withLock { known in
            if let known { return known }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { known = ExitStatus(waitStatus: raw) }
            return known
        }
    }

    /// Waits up to `grace` for the child to end by itself, then kills it; returns how it ended.
    @discardableResult
    func terminate(grace: Duration) async -> ExitStatus {
        closeInput()
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let ended = exitStatus() { return ended }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return kill()
    }

    /// Kills the child at once (SIGKILL) and reaps it.
    @discardableResult
    func kill() -> ExitStatus {
        closeInput()
        return status.withLock { known in
            if let known { return known }
            sendSignal(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            known = ExitStatus(waitStatus: raw)
            return known!
        }
    }

    deinit {
        // Never leave an open pipe, a zombie or an orphaned engine behind.
        closeInput()
        if status.withLock({ $0 }) == nil { kill() }
    }
}
