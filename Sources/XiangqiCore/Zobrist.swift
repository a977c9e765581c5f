/// Zobrist hashing keys: one 64-bit key per (piece, square) plus one for black to move.
///
/// **Frozen.** Opening books store these keys, so the seed, the generator and the order in
/// which keys are drawn must never change (``schemeVersion`` names this scheme). Keys are drawn
/// from SplitMix64 seeded with ``seed``: first the 14 x 90 piece-square keys, piece index
/// `color * 7 + kind` (kinds in ``PieceKind`` order, red first) outer and square index inner,
/// then the side key.
public enum Zobrist {
    /// Version of the key scheme, stored with every book.
    public static let schemeVersion = 1
    /// The SplitMix64 seed ("XIANGQI1" in ASCII).
    public static let seed: UInt64 = 0x5849_414E_4751_4931

    /// The keys, drawn in the frozen order: 1260 piece-square keys then the side key.
    static func generate() -> [UInt64] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<(14 * 90 + 1)).map { _ in next() }
    }

    /// The key of `piece` on `square`.
    @inlinable
    public static func key(_ piece: Piece, _ square: Square) -> UInt64 {
        AttackTables.shared.zobrist[piece.index * 90 + square.index]
    }

    /// The key XORed in when black is to move.
    @inlinable public static var sideKey: UInt64 { AttackTables.shared.zobrist[14 * 90] }
}
