/// Precomputed move and attack tables, built once and never freed.
///
/// Leapers are indexed by the occupancy of their blocking squares (horse legs, elephant eyes)
/// packed in 4 bits, so one lookup gives the exact target set. Sliders use rank and file
/// occupancy tables (see ``SliderLine``). Hot code copies ``shared`` into a local once per
/// call, which keeps the lazy-global check out of inner loops.
public final class AttackTables: @unchecked Sendable {
    // Immutable after init; @unchecked Sendable because the storage is raw pointers.

    /// The tables, built on first use.
    public static let shared = AttackTables()

    /// King steps inside its palace, by square.
    @usableFromInline let king: UnsafeMutablePointer<Bitboard>
    /// Advisor steps by `color * 90 + square`: one diagonal step into its own palace (from
    /// anywhere: a composed problem may place an advisor off its five points).
    @usableFromInline let advisor: UnsafeMutablePointer<Bitboard>
    /// Squares from which an advisor of `color` steps onto a square, by `color * 90 + square`.
    @usableFromInline let advisorAttackers: UnsafeMutablePointer<Bitboard>
    /// Elephant targets by `(color * 90 + square) * 16 + eye occupancy bits`: two diagonal
    /// steps over an empty eye, landing on its own side of the river.
    @usableFromInline let elephant: UnsafeMutablePointer<Bitboard>
    /// Squares from which an elephant of `color` reaches a square, by `(color * 90 +
    /// square) * 16 + diagonal occupancy bits` (the eye is a diagonal neighbour of both).
    @usableFromInline let elephantAttackers: UnsafeMutablePointer<Bitboard>
    /// The four eye squares of each square (diagonal neighbours); 90 when off the board.
    @usableFromInline let diagonals: UnsafeMutablePointer<UInt8>
    /// Horse targets by `square * 16 + leg occupancy bits`.
    @usableFromInline let horse: UnsafeMutablePointer<Bitboard>
    /// The four leg squares of each square (orthogonal neighbours); 90 when off the board.
    @usableFromInline let orthogonals: UnsafeMutablePointer<UInt8>
    /// Squares from which a horse attacks a square, by `square * 16 + diagonal occupancy bits`
    /// (a horse attacking `s` has its leg on a diagonal neighbour of `s`).
    @usableFromInline let horseAttackers: UnsafeMutablePointer<Bitboard>
    /// Soldier steps by `color * 90 + square`.
    @usableFromInline let soldier: UnsafeMutablePointer<Bitboard>
    /// Squares from which a soldier of `color` attacks a square, by `color * 90 + square`.
    @usableFromInline let soldierAttackers: UnsafeMutablePointer<Bitboard>
    /// Rank lines by `file * 512 + rank occupancy`: see ``SliderLine``.
    @usableFromInline let rankLines: UnsafeMutablePointer<UInt32>
    /// File lines by `rank * 1024 + file occupancy`: see ``SliderLine``.
    @usableFromInline let fileLines: UnsafeMutablePointer<UInt32>
    /// Zobrist keys (see ``Zobrist``): `piece.index * 90 + square`, then the side key at 1260.
    @usableFromInline let zobrist: UnsafeMutablePointer<UInt64>

    private init() {
        func allocate<T>(_ n: Int, _ zero: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: n)
            p.initialize(repeating: zero, count: n)
            return p
        }
        king = allocate(90, .empty)
        advisor = allocate(180, .empty)
        advisorAttackers = allocate(180, .empty)
        elephant = allocate(180 * 16, .empty)
        elephantAttackers = allocate(180 * 16, .empty)
        diagonals = allocate(90 * 4, 90)
        horse = allocate(90 * 16, .empty)
        orthogonals = allocate(90 * 4, 90)
        horseAttackers = allocate(90 * 16, .empty)
        soldier = allocate(180, .empty)
        soldierAttackers = allocate(180, .empty)
        rankLines = allocate(9 * 512, 0)
        fileLines = allocate(10 * 1024, 0)
        let keys = Zobrist.generate()
        zobrist = allocate(keys.count, 0)
        for (i, k) in keys.enumerated() { zobrist[i] = k }

        func square(_ f: Int, _ r: Int) -> Square? { Square(file: f, rank: r) }
        let palaces = Bitboard.palace(.red) | Bitboard.palace(.black)
        let diagonalSteps = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        let orthogonalSteps = [(0, 1), (0, -1), (1, 0), (-1, 0)]

        for s in 0..<90 {
            let sq = Square(unchecked: s)
            let f = sq.file, r = sq.rank
            for (i, d) in diagonalSteps.enumerated() {
                if let n = square(f + d.0, r + d.1) { diagonals[s * 4 + i] = n.rawValue }
            }
            for (i, d) in orthogonalSteps.enumerated() {
                if let n = square(f + d.0, r + d.1) { orthogonals[s * 4 + i] = n.rawValue }
            }
            if palaces.contains(sq) {
                for d in orthogonalSteps {
                    if let n = square(f + d.0, r + d.1), palaces.contains(n) { king[s].insert(n) }
                }
            }
            for color in Color.allCases {
                let c = color.index * 90
                for d in diagonalSteps {
                    guard let n = square(f + d.0, r + d.1) else { continue }
                    if Bitboard.palace(color).contains(n) { advisor[c + s].insert(n) }
                    if Bitboard.palace(color).contains(sq) { advisorAttackers[c + s].insert(n) }
                }
            }
            for bits in 0..<16 {
                for (i, d) in diagonalSteps.enumerated() where bits & (1 << i) == 0 {
                    // Elephant: eye at the diagonal neighbour, target two steps away.
                    if let n = square(f + 2 * d.0, r + 2 * d.1) {
                        for color in Color.allCases {
                            let c = color.index * 90
                            if Bitboard.ownHalf(color).contains(n) { elephant[(c + s) * 16 + bits].insert(n) }
                            if Bitboard.ownHalf(color).contains(sq) { elephantAttackers[(c + s) * 16 + bits].insert(n) }
                        }
                    }
                    // Horses reaching `sq` through the leg on this diagonal neighbour.
                    if let h = square(f + d.0, r + 2 * d.1) { horseAttackers[s * 16 + bits].insert(h) }
                    if let h = square(f + 2 * d.0, r + d.1) { horseAttackers[s * 16 + bits].insert(h) }
                }
                for (i, d) in orthogonalSteps.enumerated() where bits & (1 << i) == 0 {
                    // Horse: leg at the orthogonal neighbour, two targets beyond it.
                    let (sx, sy) = d.0 == 0 ? (1, 0) : (0, 1)
                    for sign in [1, -1] {
                        if let n = square(f + 2 * d.0 + sign * sx, r + 2 * d.1 + sign * sy) {
                            horse[s * 16 + bits].insert(n)
                        }
                    }
                }
            }
            for color in Color.allCases {
                let forward = color == .red ? 1 : -1
                let crossed = color == .red ? r >= 5 : r <= 4
                var steps = [(0, forward)]
                if crossed { steps += [(1, 0), (-1, 0)] }
                for d in steps {
                    if let n = square(f + d.0, r + d.1) {
                        soldier[color.index * 90 + s].insert(n)
                        soldierAttackers[color.index * 90 + n.index].insert(sq)
                    }
                }
            }
        }
        for file in 0..<9 {
            for occupancy in 0..<512 {
                rankLines[file * 512 + occupancy] = SliderLine.compute(position: file, length: 9, occupancy: occupancy)
            }
        }
        for rank in 0..<10 {
            for occupancy in 0..<1024 {
                fileLines[rank * 1024 + occupancy] = SliderLine.compute(position: rank, length: 10, occupancy: occupancy)
            }
        }
    }
}

/// One line (rank or file) seen by a slider, packed in a `UInt32` as three 10-bit fields:
/// bits 0-9 the empty squares it slides over, bits 10-19 the first piece met in each
/// direction (chariot targets, flying-general sight), bits 20-29 the second piece met in each
/// direction (cannon targets). Bit `i` of a field is position `i` along the line.
@usableFromInline
enum SliderLine {
    @usableFromInline static let fieldMask: UInt32 = 0x3FF

    static func compute(position: Int, length: Int, occupancy: Int) -> UInt32 {
        var slide: UInt32 = 0, first: UInt32 = 0, second: UInt32 = 0
        for step in [1, -1] {
            var seen = 0
            var p = position + step
            while p >= 0 && p < length && seen < 2 {
                if occupancy & (1 << p) != 0 {
                    if seen == 0 { first |= 1 << p } else { second |= 1 << p }
                    seen += 1
                } else if seen == 0 {
                    slide |= 1 << p
                }
                p += step
            }
        }
        return slide | first << 10 | second << 20
    }
}

// MARK: - Line to bitboard conversion

extension Bitboard {
    /// Places a 9-bit rank mask on `rank`.
    @inlinable @inline(__always)
    static func onRank(_ mask: UInt32, _ rank: Int) -> Bitboard {
        let m = UInt64(mask & 0x1FF)
        return rank < 5 ? Bitboard(lo: m &<< UInt64(rank &* 9), hi: 0)
            : Bitboard(lo: 0, hi: m &<< UInt64((rank &- 5) &* 9))
    }

    /// Places a 10-bit file mask (bit = rank) on `file`.
    @inlinable @inline(__always)
    static func onFile(_ mask: UInt32, _ file: Int) -> Bitboard {
        Bitboard(lo: spreadFive(UInt64(mask & 0x1F)) &<< UInt64(file),
                 hi: spreadFive(UInt64((mask &>> 5) & 0x1F)) &<< UInt64(file))
    }

    /// Moves bits 0-4 to bits 0, 9, 18, 27, 36 (one per rank of a lane). The shifted copies
    /// made by the multiply never overlap, so no carry disturbs the wanted bits.
    @inlinable @inline(__always)
    static func spreadFive(_ x: UInt64) -> UInt64 {
        (x &* 0x1_0101_0101) & 0x10_0804_0201
    }

    /// The nine bits of `rank` as a rank mask.
    @inlinable @inline(__always)
    func rankBits(_ rank: Int) -> UInt32 {
        rank < 5 ? UInt32(truncatingIfNeeded: lo &>> UInt64(rank &* 9)) & 0x1FF
            : UInt32(truncatingIfNeeded: hi &>> UInt64((rank &- 5) &* 9)) & 0x1FF
    }
}
