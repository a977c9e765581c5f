extension Position {
    /// Plays `move`, which must be legal here (as generated); returns what ``unmake(_:_:)`` needs.
    ///
    /// Updates board, bitboards, file occupancy, key, counters and the check information of
    /// the new side to move.
    public mutating func make(_ move: Move) -> Undo {
        makeStorageUnique()
        let from = move.from, to = move.to
        let piece = board[from.index]
        let captured = board[to.index]
        let us = sideToMove, them = us.opponent
        let undo = Undo(captured: captured, halfmoveClock: Int32(truncatingIfNeeded: halfmoveClock),
                        checkers: checkers, blockers: blockers, screens: screens)
        let zobrist = AttackTables.shared.zobrist
        let fromTo = Bitboard(from) | Bitboard(to)

        board[from.index] = .none
        board[to.index] = piece
        pieceSets[piece.index] ^= fromTo
        colorSets[us.index] ^= fromTo
        fileOccupancy[from.file] &= ~(1 &<< UInt16(from.rank))
        fileOccupancy[to.file] |= 1 &<< UInt16(to.rank)
        var k = key ^ zobrist[piece.index &* 90 &+ from.index] ^ zobrist[piece.index &* 90 &+ to.index]
            ^ zobrist[1260]
        if captured.isNone {
            halfmoveClock &+= 1
        } else {
            pieceSets[captured.index].remove(to)
            colorSets[them.index].remove(to)
            k ^= zobrist[captured.index &* 90 &+ to.index]
            halfmoveClock = 0
        }
        key = k
        if piece.kind == .king { kings[us.index] = to }
        if us == .black { fullmoveNumber &+= 1 }
        sideToMove = them
        updateCheckInfo()
        return undo
    }

    /// The ``key`` the position will have after `move` (as ``make(_:)`` takes it), without
    /// making it: a search looks the next position's transposition-table entry up early.
    public func key(after move: Move) -> UInt64 {
        let zobrist = AttackTables.shared.zobrist
        let from = move.from, to = move.to
        let piece = board[from.index]
        let captured = board[to.index]
        var k = key ^ zobrist[piece.index &* 90 &+ from.index] ^ zobrist[piece.index &* 90 &+ to.index]
            ^ zobrist[1260]
        if !captured.isNone { k ^= zobrist[captured.index &* 90 &+ to.index] }
        return k
    }

    /// Takes back `move`, which must be the last move made, with the record `make` returned.
    public mutating func unmake(_ move: Move, _ undo: Undo) {
        makeStorageUnique()
        let from = move.from, to = move.to
        let piece = board[to.index]
        let them = sideToMove, us = them.opponent
        let zobrist = AttackTables.shared.zobrist
        let fromTo = Bitboard(from) | Bitboard(to)

        board[from.index] = piece
        board[to.index] = undo.captured
        pieceSets[piece.index] ^= fromTo
        colorSets[us.index] ^= fromTo
        fileOccupancy[from.file] |= 1 &<< UInt16(from.rank)
        var k = key ^ zobrist[piece.index &* 90 &+ from.index] ^ zobrist[piece.index &* 90 &+ to.index]
            ^ zobrist[1260]
        if undo.captured.isNone {
            fileOccupancy[to.file] &= ~(1 &<< UInt16(to.rank))
        } else {
            pieceSets[undo.captured.index].insert(to)
            colorSets[them.index].insert(to)
            k ^= zobrist[undo.captured.index &* 90 &+ to.index]
        }
        key = k
        if piece.kind == .king { kings[us.index] = from }
        if us == .black { fullmoveNumber &-= 1 }
        sideToMove = us
        halfmoveClock = Int(undo.halfmoveClock)
        checkers = undo.checkers
        blockers = undo.blockers
        screens = undo.screens
    }

    /// Passes the turn (for null-move search); only valid when not in check.
    public mutating func makeNull() -> Undo {
        let undo = Undo(captured: .none, halfmoveClock: Int32(truncatingIfNeeded: halfmoveClock),
                        checkers: checkers, blockers: blockers, screens: screens)
        key ^= AttackTables.shared.zobrist[1260]
        sideToMove = sideToMove.opponent
        halfmoveClock &+= 1
        updateCheckInfo()
        return undo
    }

    /// Takes back ``makeNull()``.
    public mutating func unmakeNull(_ undo: Undo) {
        key ^= AttackTables.shared.zobrist[1260]
        sideToMove = sideToMove.opponent
        halfmoveClock = Int(undo.halfmoveClock)
        checkers = undo.checkers
        blockers = undo.blockers
        screens = undo.screens
    }
}
