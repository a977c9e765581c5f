/// A fixed-capacity list of moves stored inline (no heap allocation).
///
/// 128 slots are enough: no Xiangqi position has more than about 120 pseudo-legal moves
/// (two chariots and two cannons on open lines give at most 68, the rest at most 51).
@frozen
public struct MoveList: Sendable, RandomAccessCollection {
    /// Slots available.
    public static let capacity = 128

    @usableFromInline var storage: InlineArray<128, Move>
    @usableFromInline var stored: Int
    /// Number of moves held.
    @inlinable public var count: Int { stored }

    @inlinable
    public init() {
        storage = InlineArray(repeating: .none)
        stored = 0
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(i: Int) -> Move {
        get { storage[i] }
        set { storage[i] = newValue }
    }

    /// Appends a move; the list must not be full.
    @inlinable @inline(__always)
    public mutating func append(_ move: Move) {
        storage[stored] = move
        stored &+= 1
    }

    /// Removes the move at `i` by moving the last one into its place (order not kept).
    @inlinable
    public mutating func swapRemove(at i: Int) {
        stored &-= 1
        storage[i] = storage[stored]
    }

    @inlinable public mutating func removeAll() { stored = 0 }
}
