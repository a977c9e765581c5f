/// A move packed in 16 bits: bits 0-6 the from-square, bits 7-13 the to-square.
///
/// Xiangqi has no promotion, castling or en passant, so no flags are needed. ``none`` (all
/// zero, a0a0) and ``null`` (a1a1 with both squares equal) never describe a real move.
@frozen
public struct Move: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// From-square in bits 0-6, to-square in bits 7-13.
    public let rawValue: UInt16

    /// A move from its packed value.
    @inlinable @inline(__always)
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The move from `from` to `to` (legality is not checked).
    @inlinable @inline(__always)
    public init(from: Square, to: Square) {
        rawValue = UInt16(from.rawValue) | UInt16(to.rawValue) &<< 7
    }

    /// No move (used where a move slot is empty).
    @inlinable public static var none: Move { Move(rawValue: 0) }
    /// The null move ("pass"), written `0000` on the protocol.
    @inlinable public static var null: Move { Move(rawValue: 9 | 9 << 7) }

    /// The square the piece leaves.
    @inlinable @inline(__always)
    public var from: Square { Square(unchecked: Int(rawValue & 0x7F)) }
    /// The square the piece goes to.
    @inlinable @inline(__always)
    public var to: Square { Square(unchecked: Int(rawValue &>> 7)) }

    /// Whether the move is neither ``none`` nor ``null``.
    @inlinable public var isReal: Bool { from != to }

    /// Parses ICCS coordinates: `h2e2`, also `H2-E2`; `nil` if not two squares.
    /// Says nothing about legality.
    public init?<S: StringProtocol>(iccs text: S) {
        var s = String(text).lowercased()
        s.removeAll { $0 == "-" }
        guard s.count == 4 else { return nil }
        let mid = s.index(s.startIndex, offsetBy: 2)
        guard let from = Square(name: s[..<mid]), let to = Square(name: s[mid...]), from != to else {
            return nil
        }
        self.init(from: from, to: to)
    }

    /// The ICCS text, e.g. `h2e2`; `0000` for the null move and for ``none``.
    public var iccs: String { isReal ? from.name + to.name : "0000" }

    /// The same move reflected left-right.
    public var mirroredFiles: Move { Move(from: from.mirroredFiles, to: to.mirroredFiles) }

    public var description: String { iccs }
}
