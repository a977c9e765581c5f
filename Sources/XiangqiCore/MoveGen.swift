/// Which moves a generator produces.
public enum MoveKind: Sendable {
    /// Moves that capture an enemy piece.
    case captures
    /// Moves to an empty square.
    case quiets
    /// Both.
    case all
}

/// Receives each piece's targets from the generator.
@usableFromInline
protocol TargetSink {
    mutating func add(_ from: Square, _ targets: Bitboard)
}

/// Appends one move per target to the list it points to (in place: a copy of the list in and
/// out would be two 256-byte copies per generation).
@usableFromInline
struct ListSink: TargetSink {
    @usableFromInline let list: UnsafeMutablePointer<MoveList>
    @inline(__always) @usableFromInline
    mutating func add(_ from: Square, _ targets: Bitboard) {
        var rest = targets
        while rest.isNotEmpty { list.pointee.append(Move(from: from, to: rest.popFirst())) }
    }
}

/// Counts targets without making moves (perft bulk counting).
@usableFromInline
struct CountSink: TargetSink {
    @usableFromInline var count = 0
    @inline(__always) @usableFromInline
    mutating func add(_ from: Square, _ targets: Bitboard) { count &+= targets.count }
}

extension Position {
    /// Squares the `piece` on `square` could move to, ignoring whether its own king is left
    /// in check (own pieces excluded; cannon captures need exactly one screen). The piece
    /// need not stand there: this also answers "where could it go from here".
    public func pseudoTargets(of piece: Piece, at square: Square) -> Bitboard {
        let t = AttackTables.shared
        let own = colorSets[piece.color.index]
        let enemy = colorSets[piece.color.opponent.index]
        let targets: Bitboard
        switch piece.kind {
        case .king: targets = t.king[square.index]
        case .advisor: targets = t.advisor[piece.color.index &* 90 &+ square.index]
        case .elephant:
            targets = t.elephant[(piece.color.index &* 90 &+ square.index) &* 16 &+ neighbourBits(t.diagonals, square)]
        case .horse: targets = t.horse[square.index &* 16 &+ neighbourBits(t.orthogonals, square)]
        case .chariot: targets = chariotTargets(t, square)
        case .cannon: targets = cannonTargets(t, square, enemy)
        case .soldier: targets = t.soldier[piece.color.index &* 90 &+ square.index]
        }
        return targets & ~own
    }

    /// Squares the `piece` on `square` attacks: where it could capture an enemy piece or
    /// recapture on an own one (a cannon: the first piece behind its screen on each line; no
    /// empty squares). The evaluation's threat and defence maps.
    public func attacks(of piece: Piece, at square: Square) -> Bitboard {
        let t = AttackTables.shared
        switch piece.kind {
        case .king: return t.king[square.index]
        case .advisor: return t.advisor[piece.color.index &* 90 &+ square.index]
        case .elephant: return t.elephant[(piece.color.index &* 90 &+ square.index) &* 16 &+ neighbourBits(t.diagonals, square)]
        case .horse: return t.horse[square.index &* 16 &+ neighbourBits(t.orthogonals, square)]
        case .chariot: return chariotTargets(t, square)
        case .cannon:
            let (rankLine, fileLine) = lines(t, square)
            return Bitboard.onRank(rankLine &>> 20, square.rank) | Bitboard.onFile(fileLine &>> 20, square.file)
        case .soldier: return t.soldier[piece.color.index &* 90 &+ square.index]
        }
    }

    /// Squares from which a `kind` (chariot, horse or cannon) of the other side would give
    /// check to the king of `color` in the current position; empty for other kinds.
    public func checkSquares(_ kind: PieceKind, against color: Color) -> Bitboard {
        let t = AttackTables.shared
        let king = kings[color.index]
        switch kind {
        case .chariot:
            return chariotTargets(t, king)
        case .horse:
            return t.horseAttackers[king.index &* 16 &+ neighbourBits(t.diagonals, king)]
        case .cannon:
            // Beyond exactly one screen: the empty squares after the first piece, and the second.
            var result = Bitboard.empty
            let occupied = self.occupied
            @inline(__always) func ray(_ df: Int, _ dr: Int) {
                var f = king.file &+ df, r = king.rank &+ dr
                var screens = 0
                while f >= 0 && f < 9 && r >= 0 && r < 10 {
                    let s = Square(file: f, rank: r).unsafelyUnwrapped
                    if screens == 1 { result.insert(s) }
                    if occupied.contains(s) {
                        screens &+= 1
                        if screens == 2 { break }
                    }
                    f &+= df
                    r &+= dr
                }
            }
            ray(1, 0); ray(-1, 0); ray(0, 1); ray(0, -1)
            return result
        default:
            return .empty
        }
    }

    @inline(__always)
    func lines(_ t: AttackTables, _ square: Square) -> (rank: UInt32, file: UInt32) {
        let rank = square.rank, file = square.file
        let occ = occupied
        return (t.rankLines[file &* 512 &+ Int(occ.rankBits(rank))],
                t.fileLines[rank &* 1024 &+ Int(fileOccupancy[file])])
    }

    /// Empty squares a chariot slides to plus the first piece in each direction.
    @inline(__always)
    func chariotTargets(_ t: AttackTables, _ square: Square) -> Bitboard {
        let (rankLine, fileLine) = lines(t, square)
        let r = rankLine | rankLine &>> 10, f = fileLine | fileLine &>> 10
        return Bitboard.onRank(r, square.rank) | Bitboard.onFile(f, square.file)
    }

    /// Empty squares a cannon slides to plus enemy pieces behind exactly one screen.
    @inline(__always)
    func cannonTargets(_ t: AttackTables, _ square: Square, _ enemy: Bitboard) -> Bitboard {
        let (rankLine, fileLine) = lines(t, square)
        let slides = Bitboard.onRank(rankLine, square.rank) | Bitboard.onFile(fileLine, square.file)
        let hits = Bitboard.onRank(rankLine &>> 20, square.rank) | Bitboard.onFile(fileLine &>> 20, square.file)
        return slides | (hits & enemy)
    }

    /// Runs every piece of the side to move through `sink` with its targets restricted to
    /// `kind`; when `legal` is set only moves that keep the own king safe are passed on.
    @inline(__always)
    func generate<Sink: TargetSink>(_ kind: MoveKind, legal: Bool, into sink: inout Sink) {
        let t = AttackTables.shared
        let us = sideToMove
        let own = colorSets[us.index], enemy = colorSets[us.opponent.index]
        let allowed: Bitboard
        switch kind {
        case .captures: allowed = enemy
        case .quiets: allowed = ~(own | enemy)
        case .all: allowed = ~own
        }
        let inCheck = checkers.isNotEmpty
        let safeTargets = allowed & ~screens
        let risky = inCheck ? Bitboard.full : blockers

        @inline(__always)
        func emit(_ from: Square, _ targets: Bitboard, isKing: Bool = false) {
            if !legal {
                sink.add(from, targets & allowed)
            } else if !isKing && !risky.contains(from) {
                sink.add(from, targets & safeTargets)
            } else {
                var rest = targets & allowed, kept = Bitboard.empty
                while rest.isNotEmpty {
                    let to = rest.popFirst()
                    if isSafe(from: from, to: to, isKing: isKing) { kept.insert(to) }
                }
                if kept.isNotEmpty { sink.add(from, kept) }
            }
        }

        let base = Piece(us, .king).index
        var set = pieceSets[base &+ PieceKind.chariot.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, chariotTargets(t, s))
        }
        set = pieceSets[base &+ PieceKind.cannon.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, cannonTargets(t, s, enemy))
        }
        set = pieceSets[base &+ PieceKind.horse.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, t.horse[s.index &* 16 &+ neighbourBits(t.orthogonals, s)])
        }
        set = pieceSets[base &+ PieceKind.soldier.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, t.soldier[us.index &* 90 &+ s.index])
        }
        set = pieceSets[base &+ PieceKind.advisor.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, t.advisor[us.index &* 90 &+ s.index])
        }
        set = pieceSets[base &+ PieceKind.elephant.index]
        while set.isNotEmpty {
            let s = set.popFirst()
            emit(s, t.elephant[(us.index &* 90 &+ s.index) &* 16 &+ neighbourBits(t.diagonals, s)])
        }
        let k = kings[us.index]
        emit(k, t.king[k.index], isKing: true)
    }

    /// Appends the legal moves of `kind` to `list`.
    public func generateLegal(_ kind: MoveKind = .all, into list: inout MoveList) {
        withUnsafeMutablePointer(to: &list) { pointer in
            var sink = ListSink(list: pointer)
            generate(kind, legal: true, into: &sink)
        }
    }

    /// Appends the pseudo-legal moves of `kind` (own king safety not checked; see
    /// ``isPseudoLegalMoveSafe(_:)``) to `list`.
    public func generatePseudoLegal(_ kind: MoveKind, into list: inout MoveList) {
        withUnsafeMutablePointer(to: &list) { pointer in
            var sink = ListSink(list: pointer)
            generate(kind, legal: false, into: &sink)
        }
    }

    /// Whether a move produced by ``generatePseudoLegal(_:into:)`` leaves the own king safe.
    @inlinable
    public func isPseudoLegalMoveSafe(_ move: Move) -> Bool {
        isSafe(move.from, move.to)
    }

    @usableFromInline
    func isSafe(_ from: Square, _ to: Square) -> Bool {
        isSafe(from: from, to: to, isKing: board[from.index].kind == .king)
    }

    /// The legal moves in this position.
    public var legalMoves: [Move] {
        var list = MoveList()
        generateLegal(into: &list)
        return Array(list)
    }

    /// The legal moves of the piece on `square` (empty if it is not the side to move's).
    public func legalMoves(from square: Square) -> [Move] {
        legalMoves.filter { $0.from == square }
    }

    /// The number of legal moves (counted without listing them).
    public var legalMoveCount: Int {
        var sink = CountSink()
        generate(.all, legal: true, into: &sink)
        return sink.count
    }

    /// Whether the side to move has at least one legal move.
    public var hasLegalMove: Bool { legalMoveCount > 0 }

    /// Whether the side to move is checkmated (in check, no legal move): it has lost.
    public var isCheckmate: Bool { isInCheck && !hasLegalMove }

    /// Whether the side to move is stalemated (not in check, no legal move). In Xiangqi this
    /// is a loss for the stalemated side, not a draw.
    public var isStalemate: Bool { !isInCheck && !hasLegalMove }
}
