import CAtomicWords

/// A value that several threads read and write with relaxed ordering (flags, counters),
/// stored in one 64-bit word of its own. Works on every system the libraries support (the
/// standard `Atomic` needs iOS 18 / macOS 15).
public final class RelaxedAtomic<Value: AtomicWordRepresentable>: @unchecked Sendable {
    // The word sits at a stable heap address for the object's lifetime, on its own cache line.
    private let word: UnsafeMutablePointer<UInt64>

    /// A word holding `value`.
    public init(_ value: Value) {
        word = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64).bindMemory(to: UInt64.self, capacity: 8)
        word.initialize(repeating: 0, count: 8)
        word.pointee = value.atomicWord
    }

    deinit { UnsafeMutableRawPointer(word).deallocate() }

    /// The value last stored (by any thread).
    @inline(__always)
    public func load() -> Value { Value(atomicWord: xiangqi_load_relaxed(word)) }

    /// Stores `value`; other threads see it at their next ``load()``.
    @inline(__always)
    public func store(_ value: Value) { xiangqi_store_relaxed(word, value.atomicWord) }
}

/// A type that fits in one 64-bit word, for ``RelaxedAtomic``.
public protocol AtomicWordRepresentable {
    init(atomicWord: UInt64)
    var atomicWord: UInt64 { get }
}

extension Bool: AtomicWordRepresentable {
    /// The value a stored word holds (for the atomic cell).
    /// The value as a word (for the atomic cell).
    @inlinable public init(atomicWord: UInt64) { self = atomicWord != 0 }
    @inlinable public var atomicWord: UInt64 { self ? 1 : 0 }
}

extension Int: AtomicWordRepresentable {
    /// The value a stored word holds (for the atomic cell).
    /// The value as a word (for the atomic cell).
    @inlinable public init(atomicWord: UInt64) { self = Int(truncatingIfNeeded: atomicWord) }
    @inlinable public var atomicWord: UInt64 { UInt64(truncatingIfNeeded: self) }
}

extension UInt64: AtomicWordRepresentable {
    /// The value a stored word holds (for the atomic cell).
    /// The value as a word (for the atomic cell).
    @inlinable public init(atomicWord: UInt64) { self = atomicWord }
    @inlinable public var atomicWord: UInt64 { self }
}
