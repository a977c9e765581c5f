extension Bitboard {
    /// The ten bits of `file` as a file mask (bit = rank).
    @inlinable @inline(__always)
    func fileBits(_ file: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: Bitboard.gatherFive((lo &>> UInt64(file)) & 0x10_0804_0201)
            | Bitboard.gatherFive((hi &>> UInt64(file)) & 0x10_0804_0201) &<< 5)
    }

    /// Moves bits 0, 9, 18, 27, 36 to bits 0-4 (the inverse of `spreadFive`). The multiplier
    /// puts bit 9i at 59 + i; the other partial products land on distinct positions (or past
    /// bit 63), so no carry reaches the top five bits.
    @inlinable @inline(__always)
    static func gatherFive(_ x: UInt64) -> UInt64 {
        (x &* 0x0808_0808_0800_0000) &>> 59
    }
}

extension Position {
    /// Pieces of both colours that could capture on `square` if `occupied` were the board's
    /// occupancy (pieces outside `occupied` are ignored). Used by static exchange evaluation;
    /// pins are not considered.
    public func allAttackers(to square: Square, occupied occ: Bitboard) -> Bitboard {
        let t = AttackTables.shared
        let rank = square.rank, file = square.file
        let rankLine = t.rankLines[file &* 512 &+ Int(occ.rankBits(rank))]
        let fileLine = t.fileLines[rank &* 1024 &+ Int(occ.fileBits(file))]
        let first = Bitboard.onRank(rankLine &>> 10, rank) | Bitboard.onFile(fileLine &>> 10, file)
        let second = Bitboard.onRank(rankLine &>> 20, rank) | Bitboard.onFile(fileLine &>> 20, file)
        var result = first & (pieceSets[PieceKind.chariot.index] | pieceSets[7 &+ PieceKind.chariot.index])
        result |= second & (pieceSets[PieceKind.cannon.index] | pieceSets[7 &+ PieceKind.cannon.index])
        var diagonal = 0
        for i in 0..<4 {
            let d = Int(t.diagonals[square.index &* 4 &+ i])
            if d < 90 && occ.contains(Square(unchecked: d)) { diagonal |= 1 &<< i }
        }
        result |= t.horseAttackers[square.index &* 16 &+ diagonal]
            & (pieceSets[PieceKind.horse.index] | pieceSets[7 &+ PieceKind.horse.index])
        // Elephants and advisors of each colour reach a square on their own side (own
        // palace) from the squares their reverse tables give; kings step symmetrically.
        result |= t.elephantAttackers[square.index &* 16 &+ diagonal] & pieceSets[PieceKind.elephant.index]
        result |= t.elephantAttackers[(90 &+ square.index) &* 16 &+ diagonal] & pieceSets[7 &+ PieceKind.elephant.index]
        result |= t.advisorAttackers[square.index] & pieceSets[PieceKind.advisor.index]
        result |= t.advisorAttackers[90 &+ square.index] & pieceSets[7 &+ PieceKind.advisor.index]
        result |= t.king[square.index] & (pieceSets[PieceKind.king.index] | pieceSets[7 &+ PieceKind.king.index])
        result |= t.soldierAttackers[square.index] & pieceSets[PieceKind.soldier.index]
        result |= t.soldierAttackers[90 &+ square.index] & pieceSets[7 &+ PieceKind.soldier.index]
        return result & occ
    }
}
