import XiangqiCore

/// How often a capture (by its piece, target square and the kind it takes) cut a node off:
/// rewarded when it did, punished when it was tried before the move that did. Orders
/// captures of about equal victims among themselves (``Searcher/scoreMoves(_:ttMove:ply:)``).
///
/// A view of the table a ``SearchHeap`` owns (one per search thread): a plain pointer, so the
/// search touches no reference counts.
public struct CaptureHistory {
    /// Entries: moving piece index (14) × target square (90) × captured kind (7).
    public static let count = 14 * 90 * 7
    /// The largest magnitude an entry reaches.
    public static let limit = 16_384

    let table: UnsafeMutablePointer<Int16>

    /// The entries in `table`, which holds ``count`` of them.
    init(_ table: UnsafeMutablePointer<Int16>) {
        self.table = table
    }

    @inline(__always)
    static func index(_ mover: Piece, _ to: Square, _ captured: PieceKind) -> Int {
        (mover.index &* 90 &+ to.index) &* 7 &+ Int(captured.rawValue)
    }

    /// The entry of `mover` taking a `captured` on `to`.
    @inline(__always)
    public func value(_ mover: Piece, to: Square, captures captured: PieceKind) -> Int {
        Int(table[Self.index(mover, to, captured)])
    }

    /// Moves the entry by `bonus` (at most ±``limit`` in magnitude), less the closer it is to
    /// the bound in that direction, so that it never leaves ±``limit``.
    @inline(__always)
    public func update(_ mover: Piece, to: Square, captures captured: PieceKind, by bonus: Int) {
        let entry = table + Self.index(mover, to, captured)
        let b = min(max(bonus, -Self.limit), Self.limit), value = Int(entry.pointee)
        entry.pointee = Int16(value &+ b &- value &* abs(b) / Self.limit)
    }

    /// The bonus of a cut-off at `depth` (its malus for the captures tried before is the same,
    /// negated).
    @inline(__always)
    public static func bonus(depth: Int) -> Int { min(depth &* depth &* 16, 4000) }
}
