import XiangqiCore

/// Piece-square bonuses in centipawns, drawn from red's side with rank 9 (black's back rank)
/// as the first row; black reads them through the rank mirror. Each table has a middlegame
/// and an endgame version; the evaluation blends them by phase.
enum PieceSquareTables {
    static let soldierMiddlegame: [Int] = [
         0,   3,   6,   9,  12,   9,   6,   3,   0,
        18,  36,  56,  80, 120,  80,  56,  36,  18,
        14,  26,  42,  60,  80,  60,  42,  26,  14,
        10,  20,  30,  34,  40,  34,  30,  20,  10,
         6,  12,  18,  18,  20,  18,  18,  12,   6,
         2,   0,   8,   0,   8,   0,   8,   0,   2,
         0,   0,  -2,   0,   4,   0,  -2,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
    ]
    static let soldierEndgame: [Int] = [
        10,  20,  30,  40,  40,  40,  30,  20,  10,
        40,  60,  80, 100, 110, 100,  80,  60,  40,
        40,  60,  80, 100, 110, 100,  80,  60,  40,
        40,  55,  70,  80,  85,  80,  70,  55,  40,
        35,  45,  55,  60,  60,  60,  55,  45,  35,
         5,   0,  10,   0,  15,   0,  10,   0,   5,
         0,   0,   5,   0,  10,   0,   5,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
    ]
    static let horse: [Int] = [
         4,   8,  16,  12,   4,  12,  16,   8,   4,
         4,  10,  28,  16,   8,  16,  28,  10,   4,
        12,  14,  16,  20,  18,  20,  16,  14,  12,
         8,  24,  18,  24,  20,  24,  18,  24,   8,
         6,  16,  14,  18,  16,  18,  14,  16,   6,
         4,  12,  16,  14,  12,  14,  16,  12,   4,
         2,   6,   8,   6,  10,   6,   8,   6,   2,
         4,   2,   8,   8,   4,   8,   8,   2,   4,
         0,   2,   4,   4,  -2,   4,   4,   2,   0,
         0,  -4,   0,   0,   0,   0,   0,  -4,   0,
    ]
    static let cannon: [Int] = [
         6,   4,   0, -10, -12, -10,   0,   4,   6,
         2,   2,   0,  -4, -14,  -4,   0,   2,   2,
         2,   2,   0, -10,  -8, -10,   0,   2,   2,
         0,   0,  -2,   4,  10,   4,  -2,   0,   0,
         0,   0,   0,   2,   8,   2,   0,   0,   0,
        -2,   0,   4,   2,   6,   2,   4,   0,  -2,
         0,   0,   0,   2,   4,   2,   0,   0,   0,
         4,   0,   8,   6,  10,   6,   8,   0,   4,
         0,   2,   4,   6,   6,   6,   4,   2,   0,
         0,   0,   2,   6,   6,   6,   2,   0,   0,
    ]
    static let chariot: [Int] = [
        14,  14,  12,  18,  16,  18,  12,  14,  14,
        16,  20,  18,  24,  26,  24,  18,  20,  16,
        12,  12,  12,  18,  18,  18,  12,  12,  12,
        12,  18,  16,  22,  22,  22,  16,  18,  12,
        12,  14,  12,  18,  18,  18,  12,  14,  12,
        12,  16,  14,  20,  20,  20,  14,  16,  12,
         6,  10,   8,  14,  14,  14,   8,  10,   6,
         4,   8,   6,  14,  12,  14,   6,   8,   4,
         8,   4,   8,  16,   8,  16,   8,   4,   8,
        -2,  10,   6,  14,  12,  14,   6,  10,  -2,
    ]
    static let kingMiddlegame: [Int] = Array(repeating: 0, count: 63) + [
         0,   0,   0, -16, -18, -16,   0,   0,   0,
         0,   0,   0,  -8,  -4,  -8,   0,   0,   0,
         0,   0,   0,   0,   8,   0,   0,   0,   0,
    ]
    static let kingEndgame: [Int] = Array(repeating: 0, count: 63) + [
         0,   0,   0,  -6,  -4,  -6,   0,   0,   0,
         0,   0,   0,  -2,   2,  -2,   0,   0,   0,
         0,   0,   0,   0,   4,   0,   0,   0,   0,
    ]
    static let advisor: [Int] = Array(repeating: 0, count: 63) + [
         0,   0,   0,  -2,   0,  -2,   0,   0,   0,
         0,   0,   0,   0,   4,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
    ]
    static let elephant: [Int] = Array(repeating: 0, count: 45) + [
         0,   0,  -2,   0,   0,   0,  -2,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
        -4,   0,   0,   0,   6,   0,   0,   0,  -4,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,   0,   0,   0,   0,
    ]

    /// Middlegame tables by ``PieceKind`` index.
    static let middlegame: [[Int]] = [kingMiddlegame, advisor, elephant, horse, chariot, cannon, soldierMiddlegame]
    /// Endgame tables by ``PieceKind`` index.
    static let endgame: [[Int]] = [kingEndgame, advisor, elephant, horse, chariot, cannon, soldierEndgame]

    /// The row-major index into the tables for a piece of `color` on `square`.
    @inline(__always)
    static func index(_ color: Color, _ square: Square) -> Int {
        let s = color == .red ? square : square.mirroredRanks
        return (9 - s.rank) * 9 + s.file
    }
}
