extension Position {
    // MARK: Attacks

    /// Occupancy bits (1 = occupied) of the four diagonal neighbours of `square`, in
    /// ``AttackTables/diagonals`` order, as they are after a move `from` -> `to`.
    @inline(__always)
    func diagonalBits(_ t: AttackTables, _ square: Square, from: Square, to: Square) -> Int {
        var bits = 0
        let base = square.index &* 4
        for i in 0..<4 {
            let d = t.diagonals[base &+ i]
            let occupied = d == to.rawValue || (d != from.rawValue && !board[Int(d)].isNone)
            bits |= (occupied ? 1 : 0) &<< i
        }
        return bits
    }

    /// Occupancy bits of the four neighbours of `square` listed at `neighbours`.
    @inline(__always)
    func neighbourBits(_ neighbours: UnsafeMutablePointer<UInt8>, _ square: Square) -> Int {
        let base = square.index &* 4
        let b0 = board[Int(neighbours[base])].isNone ? 0 : 1
        let b1 = board[Int(neighbours[base &+ 1])].isNone ? 0 : 2
        let b2 = board[Int(neighbours[base &+ 2])].isNone ? 0 : 4
        let b3 = board[Int(neighbours[base &+ 3])].isNone ? 0 : 8
        return b0 | b1 | b2 | b3
    }

    /// Pieces of `color` that attack `square` in the current position (a king attacks along
    /// an open file: the flying-general rule).
    public func attackers(to square: Square, by color: Color) -> Bitboard {
        attackers(to: square, by: color, from: .none, to: .none)
    }

    /// Pieces of `color` attacking `square` once a piece has moved `from` -> `to` (pass
    /// ``Square/none`` twice for the position as it is). A piece of `color` on `to` counts as
    /// captured.
    @inline(__always)
    func attackers(to square: Square, by color: Color, from: Square, to: Square) -> Bitboard {
        let t = AttackTables.shared
        let lines = lineHits(t, square, from: from, to: to)
        let base = Piece(color, .king).index
        var result = lines.first & pieceSets[base &+ PieceKind.chariot.index]
        result |= lines.fileFirst & pieceSets[base]
        result |= lines.second & pieceSets[base &+ PieceKind.cannon.index]
        let legs = diagonalBits(t, square, from: from, to: to)
        result |= t.horseAttackers[square.index &* 16 &+ legs] & pieceSets[base &+ PieceKind.horse.index]
        result |= t.soldierAttackers[color.index &* 90 &+ square.index] & pieceSets[base &+ PieceKind.soldier.index]
        return to.rawValue < 90 ? result & ~Bitboard(to) : result
    }

    /// The squares of the pieces met first and second from `square` along its rank and file
    /// (`fileFirst`: the first on its file alone), once a piece has moved `from` -> `to`
    /// (``Square/none`` twice for the position as it is).
    @inline(__always)
    func lineHits(_ t: AttackTables, _ square: Square, from: Square, to: Square)
        -> (first: Bitboard, fileFirst: Bitboard, second: Bitboard) {
        let rank = square.rank, file = square.file
        var rankBits = occupied.rankBits(rank)
        var fileBits = UInt32(fileOccupancy[file])
        if from.rawValue < 90 {
            if from.rank == rank { rankBits &= ~(1 &<< UInt32(from.file)) }
            if from.file == file { fileBits &= ~(1 &<< UInt32(from.rank)) }
        }
        if to.rawValue < 90 {
            if to.rank == rank { rankBits |= 1 &<< UInt32(to.file) }
            if to.file == file { fileBits |= 1 &<< UInt32(to.rank) }
        }
        let rankLine = t.rankLines[file &* 512 &+ Int(rankBits)]
        let fileLine = t.fileLines[rank &* 1024 &+ Int(fileBits)]
        let fileFirst = Bitboard.onFile(fileLine &>> 10, file)
        let first = Bitboard.onRank(rankLine &>> 10, rank) | fileFirst
        let second = Bitboard.onRank(rankLine &>> 20, rank) | Bitboard.onFile(fileLine &>> 20, file)
        return (first, fileFirst, second)
    }

    /// Whether `move`, legal here, gives check: the answer ``isInCheck`` gives after
    /// ``make(_:)``, found without making the move (the search prunes some moves unmade
    /// unless they give check). Covers the moved piece from its new square and the lines it
    /// opens or closes for the others (a discovered check, a new cannon screen).
    public func givesCheck(_ move: Move) -> Bool {
        let t = AttackTables.shared
        let us = sideToMove
        let king = kings[us.opponent.index]
        let from = move.from, to = move.to
        let kind = board[from.index].kind
        let kingRank = king.rank, kingFile = king.file
        let fromRank = from.rank, fromFile = from.file, toRank = to.rank, toFile = to.file
        // Off the king's rank and file, and not from a horse's leg square (a diagonal
        // neighbour of the king), the move opens and closes no line to the king: only the
        // moved horse or soldier can check.
        if fromRank != kingRank && fromFile != kingFile && toRank != kingRank && toFile != kingFile
            && (abs(fromRank &- kingRank) != 1 || abs(fromFile &- kingFile) != 1) {
            switch kind {
            case .horse:
                return t.horseAttackers[king.index &* 16 &+ diagonalBits(t, king, from: from, to: to)].contains(to)
            case .soldier:
                return t.soldierAttackers[us.index &* 90 &+ king.index].contains(to)
            default:
                return false
            }
        }
        let lines = lineHits(t, king, from: from, to: to)
        let horseSquares = t.horseAttackers[king.index &* 16 &+ diagonalBits(t, king, from: from, to: to)]
        let soldierSquares = t.soldierAttackers[us.index &* 90 &+ king.index]
        switch kind {
        case .chariot: if lines.first.contains(to) { return true }
        case .cannon: if lines.second.contains(to) { return true }
        case .horse: if horseSquares.contains(to) { return true }
        case .soldier: if soldierSquares.contains(to) { return true }
        default: break
        }
        // A king never checks: a legal move leaves the two kings apart.
        let base = Piece(us, .king).index
        var others = lines.first & pieceSets[base &+ PieceKind.chariot.index]
        others |= lines.second & pieceSets[base &+ PieceKind.cannon.index]
        others |= horseSquares & pieceSets[base &+ PieceKind.horse.index]
        others |= soldierSquares & pieceSets[base &+ PieceKind.soldier.index]
        others.remove(from)
        return others.isNotEmpty
    }

    // MARK: Check information

    /// Recomputes ``checkers``, ``blockers`` and ``screens`` for the side to move.
    @usableFromInline
    mutating func updateCheckInfo() {
        let t = AttackTables.shared
        let us = sideToMove, them = us.opponent
        let k = kings[us.index]
        let kFile = k.file, kRank = k.rank
        let enemyChariots = pieceSets[Piece(them, .chariot).index]
        let enemyCannons = pieceSets[Piece(them, .cannon).index]
        let enemyKing = pieceSets[Piece(them, .king).index]
        var checks = Bitboard.empty, pinned = Bitboard.empty, screenSquares = Bitboard.empty
        let own = colorSets[us.index]

        // Lines through the king: the first three pieces met in each of the four directions.
        let rankBits = occupied.rankBits(kRank), fileBits = UInt32(fileOccupancy[kFile])
        for direction in 0..<4 {
            let onFile = direction >= 2, up = direction & 1 == 0
            let position = onFile ? kRank : kFile
            let line = onFile ? fileBits : rankBits
            var rest = up ? line & ~((2 &<< UInt32(position)) &- 1) : line & ((1 &<< UInt32(position)) &- 1)
            if rest == 0 { continue }
            @inline(__always) func next() -> Int {
                let p = up ? rest.trailingZeroBitCount : 31 &- rest.leadingZeroBitCount
                rest &= ~(1 &<< UInt32(p))
                return p
            }
            @inline(__always) func square(_ p: Int) -> Square {
                onFile ? Square(unchecked: p &* 9 &+ kFile) : Square(unchecked: kRank &* 9 &+ p)
            }
            let p1 = next()
            let s1 = square(p1)
            if enemyChariots.contains(s1) || (onFile && enemyKing.contains(s1)) {
                checks.insert(s1)
            } else if enemyCannons.contains(s1) {
                // Empty squares between king and cannon: landing there makes a screen.
                let between: UInt32 = up
                    ? ((1 &<< UInt32(p1)) &- 1) & ~((2 &<< UInt32(position)) &- 1)
                    : ((1 &<< UInt32(position)) &- 1) & ~((2 &<< UInt32(p1)) &- 1)
                screenSquares |= onFile ? Bitboard.onFile(between, kFile) : Bitboard.onRank(between, kRank)
            }
            if rest == 0 { continue }
            let s2 = square(next())
            if enemyCannons.contains(s2) {
                checks.insert(s2)
            } else if enemyChariots.contains(s2) || (onFile && enemyKing.contains(s2)) {
                if own.contains(s1) { pinned.insert(s1) }
            }
            if rest == 0 { continue }
            let s3 = square(next())
            if enemyCannons.contains(s3) {
                // Two screens: moving either of them off the line lets the cannon fire.
                if own.contains(s1) { pinned.insert(s1) }
                if own.contains(s2) { pinned.insert(s2) }
            }
        }

        // Horses: a horse attacking the king has its leg on a diagonal neighbour of the king.
        let enemyHorses = pieceSets[Piece(them, .horse).index]
        if (t.horseAttackers[k.index &* 16] & enemyHorses).isNotEmpty {
            for i in 0..<4 {
                let d = Int(t.diagonals[k.index &* 4 &+ i])
                if d == 90 { continue }
                let through = t.horseAttackers[k.index &* 16 &+ (15 & ~(1 &<< i))] & enemyHorses
                if through.isEmpty { continue }
                if board[d].isNone {
                    checks |= through
                } else if board[d].color == us {
                    pinned.insert(Square(unchecked: d))
                }
            }
        }
        checks |= t.soldierAttackers[them.index &* 90 &+ k.index] & pieceSets[Piece(them, .soldier).index]
        checkers = checks
        blockers = pinned
        screens = screenSquares
    }

    // MARK: Legality

    /// Whether the pseudo-legal move `from` -> `to` of the side to move leaves its king safe.
    @inline(__always)
    func isSafe(from: Square, to: Square, isKing: Bool) -> Bool {
        let us = sideToMove
        if !isKing && checkers.isEmpty && !blockers.contains(from) && !screens.contains(to) {
            return true
        }
        let kingSquare = isKing ? to : kings[us.index]
        return attackers(to: kingSquare, by: us.opponent, from: from, to: to).isEmpty
    }

    /// Whether `move` is legal in this position (any 16-bit value is accepted and checked).
    public func isLegal(_ move: Move) -> Bool {
        guard move.isReal, move.from.rawValue < 90, move.to.rawValue < 90 else { return false }
        let piece = board[move.from.index]
        guard !piece.isNone, piece.color == sideToMove else { return false }
        guard pseudoTargets(of: piece, at: move.from).contains(move.to) else { return false }
        return isSafe(from: move.from, to: move.to, isKing: piece.kind == .king)
    }
}
