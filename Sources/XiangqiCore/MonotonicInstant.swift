#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment on the system's monotonic clock (it never jumps with the wall clock), to the
/// nanosecond. Used for every time bound of the engine; works on every system the libraries
/// support (the standard `ContinuousClock` and `Duration` need iOS 16 / macOS 13).
@frozen
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an unspecified start (the system's boot on Linux and Darwin).
    public let nanoseconds: UInt64

    /// The instant `nanoseconds` after the clock's origin.
    @inlinable
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The current moment.
    public static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
    }

    /// Whole milliseconds from `earlier` to this moment (0 when `earlier` is later).
    @inlinable
    public func milliseconds(since earlier: MonotonicInstant) -> Int {
        nanoseconds > earlier.nanoseconds ? Int((nanoseconds - earlier.nanoseconds) / 1_000_000) : 0
    }

    /// Milliseconds from this moment to now.
    public var millisecondsElapsed: Int { MonotonicInstant.now.milliseconds(since: self) }

    /// Seconds from `earlier` to this moment, with a fraction (negative when `earlier` is later).
    @inlinable
    public func seconds(since earlier: MonotonicInstant) -> Double {
        (Double(nanoseconds) - Double(earlier.nanoseconds)) / 1e9
    }

    /// This moment moved `milliseconds` later (earlier when negative).
    @inlinable
    public func advanced(byMilliseconds milliseconds: Int) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(bitPattern: Int64(bitPattern: nanoseconds) &+ Int64(milliseconds) &* 1_000_000))
    }

    @inlinable
    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
}
