/// A point of the 9x10 board, indexed `rank * 9 + file` (files a-i = 0-8, ranks 0-9, red at rank 0).
///
/// The raw value is always in `0..<90` for a real square; ``Square/none`` (90) is the sentinel
/// used where "no square" must be stored without an optional.
@frozen
public struct Square: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The index `rank * 9 + file`, or 90 for ``none``.
    public let rawValue: UInt8

    /// Number of real squares.
    public static let count = 90

    /// The "no square" sentinel.
    @inlinable public static var none: Square { Square(unchecked: 90) }

    /// Creates a square from an index known to be in `0...90`; no check in release builds.
    @inlinable @inline(__always)
    public init(unchecked index: Int) {
        assert(index >= 0 && index <= 90)
        rawValue = UInt8(truncatingIfNeeded: index)
    }

    /// Creates a square from its index, or `nil` when the index is outside `0..<90`.
    @inlinable
    public init?(_ index: Int) {
        guard index >= 0 && index < 90 else { return nil }
        rawValue = UInt8(index)
    }

    /// Creates the square at `file` (0-8) and `rank` (0-9), or `nil` when off the board.
    @inlinable
    public init?(file: Int, rank: Int) {
        guard file >= 0 && file < 9 && rank >= 0 && rank < 10 else { return nil }
        rawValue = UInt8(rank * 9 + file)
    }

    /// Parses an ICCS square name such as `e0` or `h2` (file letter a-i, rank digit 0-9).
    public init?<S: StringProtocol>(name: S) {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count == 2 else { return nil }
        let f = Int(scalars[0].value) - 97, fUpper = Int(scalars[0].value) - 65
        let r = Int(scalars[1].value) - 48
        let file = (0..<9).contains(f) ? f : fUpper
        self.init(file: file, rank: r)
    }

    /// The index as an `Int`.
    @inlinable @inline(__always) public var index: Int { Int(rawValue) }
    /// File 0-8 (a-i).
    @inlinable @inline(__always) public var file: Int { Int(rawValue) % 9 }
    /// Rank 0-9 (red's back rank is 0).
    @inlinable @inline(__always) public var rank: Int { Int(rawValue) / 9 }

    /// The square reflected left-right (file a <-> file i).
    @inlinable public var mirroredFiles: Square { Square(unchecked: rank * 9 + 8 - file) }
    /// The square reflected top-bottom (rank 0 <-> rank 9), as seen from the other side.
    @inlinable public var mirroredRanks: Square { Square(unchecked: (9 - rank) * 9 + file) }

    /// The ICCS name, e.g. `h2`; `-` for ``none``.
    public var name: String {
        guard rawValue < 90 else { return "-" }
        return String(UnicodeScalar(UInt8(97 + file))) + String(rank)
    }

    public var description: String { name }

    @inlinable public static func < (a: Square, b: Square) -> Bool { a.rawValue < b.rawValue }

    /// All 90 squares in index order.
    public static var all: [Square] { (0..<90).map { Square(unchecked: $0) } }
}
