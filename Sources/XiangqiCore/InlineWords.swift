/// Fixed-size memory kept inline in its owner (no heap allocation, no reference counting), for
/// the systems the libraries support (iOS 15, macOS 12), whose runtimes predate `InlineArray`.
///
/// Each type is a tuple of 64-bit words, read and written through its address. Reads and
/// writes that go through `mutating` members (``load(fromByteOffset:as:)``,
/// ``store(_:toByteOffset:)``, ``withUnsafeMutableBytes(_:)``) cost one memory access: the
/// hot paths use them. The non-mutating ``read(fromByteOffset:as:)`` must copy the tuple
/// first (Swift cannot take a borrowed value's address), so it is for cold code. Offsets are
/// not checked: callers keep them below the byte count.

/// 16 words (128 bytes) of inline memory, zeroed at creation.
@frozen
public struct InlineWords16: Sendable {
    /// The size in bytes.
    public static var byteCount: Int { 128 }

    @usableFromInline var words: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64
    )

    /// All bytes zero.
    @inlinable @inline(__always)
    public init() {
        words = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
    }

    /// Runs `body` with the memory's address (valid only inside `body`).
    @inlinable @inline(__always)
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeMutableBytes(of: &words) { try body($0.baseAddress!) }
    }

    /// The value of type `T` at `offset` bytes, read in place (one load).
    @inlinable @inline(__always)
    public mutating func load<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        withUnsafeMutableBytes { $0.load(fromByteOffset: offset, as: T.self) }
    }

    /// Writes `value` at `offset` bytes.
    @inlinable @inline(__always)
    public mutating func store<T: BitwiseCopyable>(_ value: T, toByteOffset offset: Int) {
        withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: T.self) }
    }

    /// The value of type `T` at `offset` bytes, read from a copy (for code off the hot paths).
    @inlinable
    public func read<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        Swift.withUnsafeBytes(of: words) { $0.load(fromByteOffset: offset, as: T.self) }
    }
}

/// 32 words (256 bytes) of inline memory, zeroed at creation.
@frozen
public struct InlineWords32: Sendable {
    /// The size in bytes.
    public static var byteCount: Int { 256 }

    @usableFromInline var words: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )

    /// All bytes zero.
    @inlinable @inline(__always)
    public init() {
        words = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0
        )
    }

    /// Runs `body` with the memory's address (valid only inside `body`).
    @inlinable @inline(__always)
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeMutableBytes(of: &words) { try body($0.baseAddress!) }
    }

    /// The value of type `T` at `offset` bytes, read in place (one load).
    @inlinable @inline(__always)
    public mutating func load<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        withUnsafeMutableBytes { $0.load(fromByteOffset: offset, as: T.self) }
    }

    /// Writes `value` at `offset` bytes.
    @inlinable @inline(__always)
    public mutating func store<T: BitwiseCopyable>(_ value: T, toByteOffset offset: Int) {
        withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: T.self) }
    }

    /// The value of type `T` at `offset` bytes, read from a copy (for code off the hot paths).
    @inlinable
    public func read<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        Swift.withUnsafeBytes(of: words) { $0.load(fromByteOffset: offset, as: T.self) }
    }
}

/// 64 words (512 bytes) of inline memory, zeroed at creation.
@frozen
public struct InlineWords64: Sendable {
    /// The size in bytes.
    public static var byteCount: Int { 512 }

    @usableFromInline var words: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )

    /// All bytes zero.
    @inlinable @inline(__always)
    public init() {
        words = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0
        )
    }

    /// Runs `body` with the memory's address (valid only inside `body`).
    @inlinable @inline(__always)
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeMutableBytes(of: &words) { try body($0.baseAddress!) }
    }

    /// The value of type `T` at `offset` bytes, read in place (one load).
    @inlinable @inline(__always)
    public mutating func load<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        withUnsafeMutableBytes { $0.load(fromByteOffset: offset, as: T.self) }
    }

    /// Writes `value` at `offset` bytes.
    @inlinable @inline(__always)
    public mutating func store<T: BitwiseCopyable>(_ value: T, toByteOffset offset: Int) {
        withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: T.self) }
    }

    /// The value of type `T` at `offset` bytes, read from a copy (for code off the hot paths).
    @inlinable
    public func read<T: BitwiseCopyable>(fromByteOffset offset: Int, as type: T.Type) -> T {
        Swift.withUnsafeBytes(of: words) { $0.load(fromByteOffset: offset, as: T.self) }
    }
}
