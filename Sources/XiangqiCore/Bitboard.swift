/// A set of squares in two 45-bit lanes, split at the river.
///
/// Layout: `lo` holds ranks 0-4 (red's half) at bit `rank * 9 + file`; `hi` holds ranks 5-9
/// (black's half) at bit `(rank - 5) * 9 + file`. Splitting at the river keeps every rank, the
/// palaces and each side's elephant and soldier regions inside one lane, so a rank's nine bits
/// are a single shift away. Bits 45-63 of each lane are always zero.
@frozen
public struct Bitboard: Hashable, Sendable, BitwiseCopyable, Sequence, CustomStringConvertible {
    /// Ranks 0-4.
    public var lo: UInt64
    /// Ranks 5-9.
    public var hi: UInt64

    /// The 45 low bits that a lane may use.
    public static let laneMask: UInt64 = (1 << 45) - 1

    /// A bitboard from its two lanes: ranks 0-4 in `lo`, ranks 5-9 in `hi`.
    @inlinable @inline(__always)
    public init(lo: UInt64, hi: UInt64) {
        self.lo = lo
        self.hi = hi
    }

    /// The empty set.
    public static let empty = Bitboard(lo: 0, hi: 0)
    /// All 90 squares.
    public static let full = Bitboard(lo: laneMask, hi: laneMask)

    /// The set holding only `square`.
    @inlinable @inline(__always)
    public init(_ square: Square) {
        let i = square.rawValue
        if i < 45 {
            lo = 1 &<< UInt64(i)
            hi = 0
        } else {
            lo = 0
            hi = 1 &<< UInt64(i &- 45)
        }
    }

    /// A set built from a list of squares.
    public init<S: Sequence>(squares: S) where S.Element == Square {
        self = .empty
        for s in squares { insert(s) }
    }

    /// Whether no square is set.
    /// Whether some square is set.
    @inlinable @inline(__always) public var isEmpty: Bool { (lo | hi) == 0 }
    @inlinable @inline(__always) public var isNotEmpty: Bool { (lo | hi) != 0 }

    /// Number of squares in the set.
    @inlinable @inline(__always)
    public var count: Int { lo.nonzeroBitCount &+ hi.nonzeroBitCount }

    /// Whether `square` is set.
    @inlinable @inline(__always)
    public func contains(_ square: Square) -> Bool {
        let i = square.rawValue
        return i < 45 ? (lo &>> UInt64(i)) & 1 != 0 : (hi &>> UInt64(i &- 45)) & 1 != 0
    }

    /// Sets `square`.
    @inlinable @inline(__always)
    public mutating func insert(_ square: Square) { self = self | Bitboard(square) }

    /// Clears `square`.
    @inlinable @inline(__always)
    public mutating func remove(_ square: Square) { self = self & ~Bitboard(square) }

    /// Flips membership of `square`.
    @inlinable @inline(__always)
    public mutating func toggle(_ square: Square) { self = self ^ Bitboard(square) }

    /// The lowest-indexed square; ``Square/none`` when empty.
    @inlinable @inline(__always)
    public var first: Square {
        if lo != 0 { return Square(unchecked: lo.trailingZeroBitCount) }
        if hi != 0 { return Square(unchecked: 45 &+ hi.trailingZeroBitCount) }
        return .none
    }

    /// Removes and returns the lowest-indexed square; the set must not be empty.
    @inlinable @inline(__always)
    public mutating func popFirst() -> Square {
        if lo != 0 {
            let s = lo.trailingZeroBitCount
            lo &= lo &- 1
            return Square(unchecked: s)
        }
        let s = hi.trailingZeroBitCount
        hi &= hi &- 1
        return Square(unchecked: 45 &+ s)
    }

    @inlinable @inline(__always)
    public static func & (a: Bitboard, b: Bitboard) -> Bitboard { Bitboard(lo: a.lo & b.lo, hi: a.hi & b.hi) }
    @inlinable @inline(__always)
    public static func | (a: Bitboard, b: Bitboard) -> Bitboard { Bitboard(lo: a.lo | b.lo, hi: a.hi | b.hi) }
    @inlinable @inline(__always)
    public static func ^ (a: Bitboard, b: Bitboard) -> Bitboard { Bitboard(lo: a.lo ^ b.lo, hi: a.hi ^ b.hi) }
    /// The complement within the 90 squares.
    @inlinable @inline(__always)
    public static prefix func ~ (a: Bitboard) -> Bitboard {
        Bitboard(lo: ~a.lo & laneMask, hi: ~a.hi & laneMask)
    }
    @inlinable @inline(__always)
    public static func &= (a: inout Bitboard, b: Bitboard) { a = a & b }
    @inlinable @inline(__always)
    public static func |= (a: inout Bitboard, b: Bitboard) { a = a | b }
    @inlinable @inline(__always)
    public static func ^= (a: inout Bitboard, b: Bitboard) { a = a ^ b }

    /// Iterates the squares in index order.
    @frozen
    public struct Iterator: IteratorProtocol {
        /// The next set square, lowest first; `nil` at the end.
        @usableFromInline var remaining: Bitboard
        @inlinable init(_ b: Bitboard) { remaining = b }
        @inlinable @inline(__always)
        public mutating func next() -> Square? {
            remaining.isEmpty ? nil : remaining.popFirst()
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(self) }

    /// The board drawn rank 9 first, `x` for members.
    public var description: String {
        var text = ""
        for rank in stride(from: 9, through: 0, by: -1) {
            for file in 0..<9 {
                text.append(contains(Square(unchecked: rank * 9 + file)) ? "x" : ".")
            }
            text.append("\n")
        }
        return text
    }
}

// MARK: - Named regions

extension Bitboard {
    /// Squares of one file (0-8).
    public static func file(_ f: Int) -> Bitboard {
        Bitboard(squares: (0..<10).map { Square(unchecked: $0 * 9 + f) })
    }

    /// Squares of one rank (0-9).
    public static func rank(_ r: Int) -> Bitboard {
        Bitboard(squares: (0..<9).map { Square(unchecked: r * 9 + $0) })
    }

    /// The nine palace points of `color`.
    public static func palace(_ color: Color) -> Bitboard {
        let base = color == .red ? 0 : 7
        return Bitboard(squares: (base..<base + 3).flatMap { r in (3...5).map { Square(unchecked: r * 9 + $0) } })
    }

    /// The half of the board on `color`'s side of the river.
    public static func ownHalf(_ color: Color) -> Bitboard {
        color == .red ? Bitboard(lo: laneMask, hi: 0) : Bitboard(lo: 0, hi: laneMask)
    }

    /// The five points an advisor of `color` may stand on.
    public static func advisorPoints(_ color: Color) -> Bitboard {
        let r = color == .red ? 0 : 7
        return Bitboard(squares: [(3, r), (5, r), (4, r + 1), (3, r + 2), (5, r + 2)].map {
            Square(unchecked: $0.1 * 9 + $0.0)
        })
    }

    /// The seven points an elephant of `color` may stand on.
    public static func elephantPoints(_ color: Color) -> Bitboard {
        let r = color == .red ? 0 : 5
        let points = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
        return Bitboard(squares: points.map { Square(unchecked: ($0.1 + r) * 9 + $0.0) })
    }

    /// The squares a soldier of `color` can ever stand on: its files a, c, e, g, i on its
    /// two ranks before the river, and every square across the river.
    public static func soldierPoints(_ color: Color) -> Bitboard {
        let ranks = color == .red ? [3, 4] : [5, 6]
        let home = Bitboard(squares: ranks.flatMap { r in [0, 2, 4, 6, 8].map { Square(unchecked: r * 9 + $0) } })
        return home | ownHalf(color.opponent)
    }
}
