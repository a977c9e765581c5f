import XiangqiCore

/// Values used to order captures and in static exchange evaluation.
enum ExchangeValue {
    @inline(__always)
    static func of(_ kind: PieceKind) -> Int {
        switch kind {
        case .king: 5000
        case .advisor: 200
        case .elephant: 200
        case .horse: 400
        case .chariot: 900
        case .cannon: 450
        case .soldier: 100
        }
    }
}

/// Moves with ordering scores; picked best-first by partial selection sort.
struct ScoredMoves {
    var moves = MoveList()
    /// `Int32` ordering scores by the moves' indices.
    var scores = InlineWords64()
    var next = 0
    /// The score of the move ``pick()`` returned last.
    var pickedScore: Int32 = 0

    /// Sets the ordering score of move `i`.
    @inline(__always)
    mutating func setScore(_ score: Int32, at i: Int) { scores.store(score, toByteOffset: i &* 4) }

    /// Returns the remaining move with the highest score, or `nil` when all were picked.
    ///
    /// A capture scored in the good band (``Searcher/goodCaptureBase``) whose piece is worth
    /// more than its victim is scored there on trust: when it would be picked, its static
    /// exchange in `position` decides, and a losing one moves to the bad band
    /// (``Searcher/badCaptureBase``, the same victim-attacker order) and the pick is made
    /// again. Moves keep their places while that happens, so the order is the one that
    /// scoring every capture by its exchange first would give; only the exchanges of
    /// captures never reached (after a cut-off) are not computed.
    @inline(__always)
    mutating func pick(in position: Position) -> Move? {
        let n = moves.count, first = next
        guard first < n else { return nil }
        let (move, bestScore) = moves.withUnsafeMutableBufferPointer { moves in
            scores.withUnsafeMutableBytes { raw in
                let scores = raw.assumingMemoryBound(to: Int32.self)
                var best = first
                var bestScore = scores[first]
                while true {
                    var i = first &+ 1
                    while i < n {
                        if scores[i] > bestScore {
                            bestScore = scores[i]
                            best = i
                        }
                        i &+= 1
                    }
                    guard bestScore >= Searcher.goodCaptureBase && bestScore < Searcher.ttMoveScore else { break }
                    let candidate = moves[best]
                    let victim = position.piece(at: candidate.to).kind, mover = position.piece(at: candidate.from).kind
                    if ExchangeValue.of(mover) <= ExchangeValue.of(victim) || position.exchangeAtLeast(candidate, 0) { break }
                    scores[best] = bestScore &- Searcher.goodCaptureBase &+ Searcher.badCaptureBase
                    best = first
                    bestScore = scores[first]
                }
                let move = moves[best]
                if best != first {
                    moves[best] = moves[first]
                    moves[first] = move
                    scores[best] = scores[first]
                    scores[first] = bestScore
                }
                return (move, bestScore)
            }
        }
        next &+= 1
        pickedScore = bestScore
        return move
    }
}

extension Position {
    /// The square and exchange value of the least valuable piece among `attackers` (not empty).
    @inline(__always)
    func leastValuableAttacker(_ attackers: Bitboard) -> (square: Square, value: Int) {
        var from = Square.none
        var value = Int.max
        for s in attackers {
            let v = ExchangeValue.of(piece(at: s).kind)
            if v < value {
                value = v
                from = s
            }
        }
        return (from, value)
    }

    /// Static exchange evaluation: the material the side to move wins (or, if negative,
    /// loses) by `move` and the best sequence of recaptures on its target square. Pins are
    /// ignored; a king recaptures only when nothing defends the square.
    func staticExchange(_ move: Move) -> Int {
        // Gains by exchange depth (at most 33), in stack memory that needs no clearing: each
        // entry is written before it is read.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 34) { gains in
            let to = move.to
            var occupied = self.occupied
            var depth = 0
            let captured = piece(at: to)
            gains[0] = captured.isNone ? 0 : ExchangeValue.of(captured.kind)
            var onSquare = ExchangeValue.of(piece(at: move.from).kind)
            occupied.remove(move.from)
            occupied.insert(to)
            var side = sideToMove.opponent
            while depth < 32 {
                let attackers = allAttackers(to: to, occupied: occupied) & pieces(of: side)
                if attackers.isEmpty { break }
                let (from, value) = leastValuableAttacker(attackers)
                if value == ExchangeValue.of(.king) {
                    let defenders = allAttackers(to: to, occupied: occupied) & pieces(of: side.opponent)
                    if defenders.isNotEmpty { break }
                }
                depth += 1
                gains[depth] = onSquare - gains[depth - 1]
                onSquare = value
                occupied.remove(from)
                side = side.opponent
            }
            while depth > 0 {
                gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
                depth -= 1
            }
            return gains[0]
        }
    }
}

extension Position {
    /// Whether `move` wins at least `threshold` by static exchange: the same verdict as
    /// `staticExchange(move) >= threshold` under the same rules, found without a gain list
    /// and stopping as soon as it is known (the test the search's pruning needs).
    func exchangeAtLeast(_ move: Move, _ threshold: Int) -> Bool {
        let to = move.to
        let captured = piece(at: to)
        // `swap`: what the side that captured last must still be ahead by.
        var swap = (captured.isNone ? 0 : ExchangeValue.of(captured.kind)) - threshold
        if swap < 0 { return false }
        swap = ExchangeValue.of(piece(at: move.from).kind) - swap
        if swap <= 0 { return true }
        var occupied = self.occupied
        occupied.remove(move.from)
        occupied.insert(to)
        var side = sideToMove
        var result = true
        while true {
            side = side.opponent
            let all = allAttackers(to: to, occupied: occupied)
            let attackers = all & pieces(of: side)
            if attackers.isEmpty { break }
            result.toggle()
            let (from, value) = leastValuableAttacker(attackers)
            // A king takes only an undefended piece.
            if value == ExchangeValue.of(.king) {
                return (all & pieces(of: side.opponent)).isNotEmpty ? !result : result
            }
            swap = value - swap
            if swap < (result ? 1 : 0) { break }
            occupied.remove(from)
        }
        return result
    }
}
