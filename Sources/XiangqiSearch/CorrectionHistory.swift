import XiangqiCore

/// How far the static evaluation was off in positions like the current one, learnt from what
/// searches found there: tables per side to move, one keyed by both sides' soldiers (the
/// structure an evaluation judges least well), one by the material of both sides and, with
/// ``usesPieces``, one by where Red's other pieces (king, advisors, elephants, horses,
/// chariots, cannons) stand and one by where Black's do. The correction is the mean of the
/// entries; `corrected(_:for:)` adds it to an evaluation.
///
/// A view of tables that a ``SearchHeap`` owns (one per search thread): plain pointers, so
/// the search touches no reference counts.
public struct CorrectionHistory {
    /// Entries per table and side to move (a power of two).
    public static let size = 16_384
    /// Entry units per centipawn.
    public static let grain = 16
    /// The largest magnitude an entry reaches, in units (256 centipawns).
    public static let limit = 256 * grain
    /// An update moves an entry by the search's error times depth / this: a sixteenth of the
    /// error at depth 8. (The first version moved it by the whole error times depth / 8 up to
    /// 1024 centipawns: entries that many positions share swung by hundreds of centipawns
    /// from one node to the next, and the engine lost 28 of 40 games to itself without it,
    /// bench/records/matches/corrhist-tc-10+0.1.)
    public static let rateDivisor = 128
    /// Entries in all: soldiers, material, Red's pieces and Black's pieces, each by side to move.
    static let count = 4 * 2 * size

    let table: UnsafeMutablePointer<Int32>
    /// Whether the tables of each side's pieces other than soldiers take part (else soldiers
    /// and material alone).
    let usesPieces: Bool

    /// The corrections in `table`, which holds ``count`` entries; with `pieces`, the tables of
    /// the sides' other pieces take part.
    init(_ table: UnsafeMutablePointer<Int32>, pieces: Bool = false) {
        self.table = table
        usesPieces = pieces
    }

    /// The two entries of `position` (soldiers, material) for its side to move.
    @inline(__always)
    func entries(of position: Position) -> (soldiers: UnsafeMutablePointer<Int32>, material: UnsafeMutablePointer<Int32>) {
        let side = position.sideToMove.index &* Self.size
        return (table + (side &+ Self.soldierIndex(position)), table + (2 &* Self.size &+ side &+ Self.materialIndex(position)))
    }

    /// The entries of `position`'s Red and Black pieces other than soldiers, for its side to move.
    @inline(__always)
    func pieceEntries(of position: Position) -> (red: UnsafeMutablePointer<Int32>, black: UnsafeMutablePointer<Int32>) {
        let side = position.sideToMove.index &* Self.size
        return (table + (4 &* Self.size &+ side &+ Self.piecesIndex(position, .red)),
                table + (6 &* Self.size &+ side &+ Self.piecesIndex(position, .black)))
    }

    /// The correction for `position`'s side to move, in centipawns.
    @inline(__always)
    public func correction(for position: Position) -> Int {
        let (soldiers, material) = entries(of: position)
        guard usesPieces else { return (Int(soldiers.pointee) &+ Int(material.pointee)) / (2 &* Self.grain) }
        let (red, black) = pieceEntries(of: position)
        return (Int(soldiers.pointee) &+ Int(material.pointee) &+ Int(red.pointee) &+ Int(black.pointee)) / (4 &* Self.grain)
    }

    /// `evaluation` of `position` (side to move's view) corrected, kept below the range of
    /// rule wins and mates.
    @inline(__always)
    public func corrected(_ evaluation: Int, for position: Position) -> Int {
        let bound = Score.ruleWin - Score.maxPly - 1
        return min(max(evaluation &+ correction(for: position), -bound), bound)
    }

    /// Moves `position`'s entries toward the error of `evaluation` (the corrected one the
    /// search used) against `searched`, the score a search of `depth` found: by
    /// `(searched − evaluation) × depth / rateDivisor` centipawns, at most a quarter of the
    /// limit, and less the closer an entry is to the limit, so that no entry leaves ±``limit``.
    public func update(for position: Position, searched: Int, evaluation: Int, depth: Int) {
        let bonus = min(max((searched &- evaluation) &* Self.grain &* depth / Self.rateDivisor, -Self.limit / 4), Self.limit / 4)
        let (soldiers, material) = entries(of: position)
        Self.move(soldiers, by: bonus)
        Self.move(material, by: bonus)
        if usesPieces {
            let (red, black) = pieceEntries(of: position)
            Self.move(red, by: bonus)
            Self.move(black, by: bonus)
        }
    }

    /// `entry + bonus − entry × |bonus| / limit`: within ±``limit`` when it was and
    /// `|bonus| ≤ limit`.
    @inline(__always)
    static func move(_ entry: UnsafeMutablePointer<Int32>, by bonus: Int) {
        let value = Int(entry.pointee)
        entry.pointee = Int32(value &+ bonus &- value &* abs(bonus) / limit)
    }

    /// The soldier-structure slot of `position`: a hash of both sides' soldier sets.
    @inline(__always)
    static func soldierIndex(_ position: Position) -> Int {
        let red = position.pieces(of: .red, .soldier), black = position.pieces(of: .black, .soldier)
        var h = red.lo &* 0x9E37_79B9_7F4A_7C15
        h ^= red.hi &* 0xC2B2_AE3D_27D4_EB4F
        h ^= black.lo &* 0x1656_67B1_9E37_79F9
        h ^= black.hi &* 0x85EB_CA77_C2B2_AE63
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & (size - 1)
    }

    /// The slot of `color`'s pieces other than soldiers in `position`: a hash of where each
    /// kind of them stands.
    @inline(__always)
    static func piecesIndex(_ position: Position, _ color: Color) -> Int {
        var h: UInt64 = color == .red ? 0x2545_F491_4F6C_DD1D : 0x9E37_79B9_7F4A_7C15
        @inline(__always) func mix(_ kind: PieceKind) {
            let squares = position.pieces(of: color, kind)
            h = (h ^ squares.lo) &* 0xC2B2_AE3D_27D4_EB4F
            h = (h ^ squares.hi) &* 0x1656_67B1_9E37_79F9
            h ^= h >> 32
        }
        mix(.king)
        mix(.advisor)
        mix(.elephant)
        mix(.horse)
        mix(.chariot)
        mix(.cannon)
        return Int(truncatingIfNeeded: h) & (size - 1)
    }

    /// The material slot of `position`: a hash of each side's count of every piece kind.
    @inline(__always)
    static func materialIndex(_ position: Position) -> Int {
        // Counts of at most 5 (soldiers), 4 bits a side and kind.
        @inline(__always) func counts(_ kind: PieceKind) -> UInt64 {
            UInt64(position.pieces(of: .red, kind).count) << 4 | UInt64(position.pieces(of: .black, kind).count)
        }
        let packed = counts(.chariot) | counts(.horse) << 8 | counts(.cannon) << 16 | counts(.advisor) << 24
            | counts(.elephant) << 32 | counts(.soldier) << 40
        var h = packed &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & (size - 1)
    }
}
