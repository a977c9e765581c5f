/// The side: red moves first and sits at ranks 0-4; black sits at ranks 5-9.
@frozen
public enum Color: UInt8, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case red = 0
    case black = 1

    /// The other side.
    @inlinable @inline(__always)
    public var opponent: Color { Color(rawValue: rawValue ^ 1).unsafelyUnwrapped }

    /// 0 for red, 1 for black: an index into per-colour tables.
    @inlinable @inline(__always) public var index: Int { Int(rawValue) }

    public var description: String { self == .red ? "red" : "black" }
}
