/// The seven kinds of Xiangqi pieces.
@frozen
public enum PieceKind: UInt8, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case king = 0      // 帅/将
    case advisor = 1   // 仕/士
    case elephant = 2  // 相/象
    case horse = 3     // 马
    case chariot = 4   // 车
    case cannon = 5    // 炮
    case soldier = 6   // 兵/卒

    /// 0-6: an index into per-kind tables.
    @inlinable @inline(__always) public var index: Int { Int(rawValue) }

    /// How many of this kind each side has at the start (and may have at most).
    public var maximumCount: Int {
        switch self {
        case .king: 1
        case .soldier: 5
        default: 2
        }
    }

    /// The FEN letter in upper case (K A B N R C P).
    public var fenLetter: Character {
        switch self {
        case .king: "K"
        case .advisor: "A"
        case .elephant: "B"
        case .horse: "N"
        case .chariot: "R"
        case .cannon: "C"
        case .soldier: "P"
        }
    }

    public var description: String {
        switch self {
        case .king: "king"
        case .advisor: "advisor"
        case .elephant: "elephant"
        case .horse: "horse"
        case .chariot: "chariot"
        case .cannon: "cannon"
        case .soldier: "soldier"
        }
    }
}

/// A coloured piece, or no piece, packed in one byte: 0 is empty, else `1 + color * 7 + kind`.
@frozen
public struct Piece: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// 0 for ``none``; `1 + color * 7 + kind` otherwise (1...14).
    public let rawValue: UInt8

    /// The empty square.
    @inlinable public static var none: Piece { Piece(rawValue: 0) }

    @inlinable @inline(__always)
    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The piece of `kind` belonging to `color`.
    @inlinable @inline(__always)
    public init(_ color: Color, _ kind: PieceKind) {
        rawValue = 1 &+ color.rawValue &* 7 &+ kind.rawValue
    }

    /// Whether this is no piece.
    @inlinable @inline(__always) public var isNone: Bool { rawValue == 0 }

    /// 0...13 (`color * 7 + kind`) for a real piece: the index into per-piece tables.
    @inlinable @inline(__always) public var index: Int { Int(rawValue) &- 1 }

    /// The owner; meaningless for ``none``.
    @inlinable @inline(__always)
    public var color: Color { rawValue > 7 ? .black : .red }

    /// The kind; meaningless for ``none``.
    @inlinable @inline(__always)
    public var kind: PieceKind {
        PieceKind(rawValue: (rawValue &- 1) % 7).unsafelyUnwrapped
    }

    /// Reads a FEN letter: upper case red, lower case black; `E`/`H` are accepted for `B`/`N`.
    public init?(fenLetter: Character) {
        let kind: PieceKind
        switch fenLetter.uppercased() {
        case "K": kind = .king
        case "A": kind = .advisor
        case "B", "E": kind = .elephant
        case "N", "H": kind = .horse
        case "R": kind = .chariot
        case "C": kind = .cannon
        case "P": kind = .soldier
        default: return nil
        }
        self.init(fenLetter.isUppercase ? .red : .black, kind)
    }

    /// The FEN letter (upper case red, lower case black); `.` for ``none``.
    public var fenLetter: Character {
        guard !isNone else { return "." }
        let upper = kind.fenLetter
        return color == .red ? upper : Character(upper.lowercased())
    }

    public var description: String { isNone ? "none" : "\(color) \(kind)" }
}
