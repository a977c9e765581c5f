/// A fixed-capacity list of moves stored inline (no heap allocation).
///
/// 128 slots are enough: no Xiangqi position has more than about 120 pseudo-legal moves
/// (two chariots and two cannons on open lines give at most 68, the rest at most 51).
/// The subscript's getter reads from a copy of the list (see ``InlineWords32``); hot loops
/// read with ``move(at:)`` instead.
@frozen
public struct MoveList: Sendable, RandomAccessCollection {
    /// Slots available.
    public static let capacity = 128

    @usableFromInline var storage: InlineWords32
    @usableFromInline var stored: Int
    /// Number of moves held.
    @inlinable public var count: Int { stored }

    /// An empty list, on the stack.
    @inlinable
    public init() {
        storage = InlineWords32()
        stored = 0
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// The move at `i` (0..<count).
    @inlinable
    public subscript(i: Int) -> Move {
        get { storage.read(fromByteOffset: i &* 2, as: Move.self) }
        set { storage.store(newValue, toByteOffset: i &* 2) }
    }

    /// The move at `i`, read in place (one load; the subscript's getter copies the list).
    @inlinable @inline(__always)
    public mutating func move(at i: Int) -> Move { storage.load(fromByteOffset: i &* 2, as: Move.self) }

    /// Appends a move; the list must not be full.
    @inlinable @inline(__always)
    public mutating func append(_ move: Move) {
        storage.store(move, toByteOffset: stored &* 2)
        stored &+= 1
    }

    /// Removes the move at `i` by moving the last one into its place (order not kept).
    @inlinable
    public mutating func swapRemove(at i: Int) {
        stored &-= 1
        storage.store(move(at: stored), toByteOffset: i &* 2)
    }

    /// Empties the list.
    @inlinable public mutating func removeAll() { stored = 0 }

    /// Runs `body` with the moves' memory (valid only inside `body`).
    @inlinable @inline(__always)
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Move>) throws -> R) rethrows -> R {
        let n = stored
        return try storage.withUnsafeMutableBytes {
            try body(UnsafeMutableBufferPointer(start: $0.assumingMemoryBound(to: Move.self), count: n))
        }
    }
}
