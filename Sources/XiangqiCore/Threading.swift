#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Small POSIX threading helpers, so that the engine and the client library need no
// Foundation (which would add about 8 ms to every process start; see bench/latency.md).

/// A mutual-exclusion lock with a condition variable.
public final class Lock: @unchecked Sendable {
    // The pthread objects live at stable heap addresses for the lock's lifetime.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for ``broadcast()``; call only inside ``withLock(_:)``.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter; call inside ``withLock(_:)``.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new detached thread with a `stackSize`-byte stack. When no thread can be
/// made, `body` runs on the calling thread before this returns, unless `runHereIfNoThread` is
/// false. Returns whether a thread was started.
@discardableResult
public func startThread(stackSize: Int, runHereIfNoThread: Bool = true, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    // The start routine's argument is optional in Glibc's signature and not in Darwin's.
    #if canImport(Glibc)
    let status = pthread_create(&thread, &attributes, { raw in
        guard let raw else { return nil }
        (Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue() as? Box)?.body()
        return nil
    }, context)
    #else
    let status = pthread_create(&thread, &attributes, { raw in
        (Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue() as? Box)?.body()
        return nil
    }, context)
    #endif
    pthread_attr_destroy(&attributes)
    if status != 0 {
        // No thread could be made: run the work here rather than lose it.
        Unmanaged<AnyObject>.fromOpaque(context).release()
        if runHereIfNoThread { body() }
        return false
    }
    return true
}

/// A value guarded by a lock: every access goes through ``withLock(_:)``. (The standard
/// `Mutex` needs iOS 18 / macOS 15.)
public final class Protected<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    /// Guards `value`, reached only through the lock from now on.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held.
    @inline(__always)
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
