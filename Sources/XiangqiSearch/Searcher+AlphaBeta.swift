import XiangqiCore

extension Searcher {
    static let ttMoveScore: Int32 = 2_000_000_000
    static let goodCaptureBase: Int32 = 1_000_000_000
    static let killerScore: Int32 = 900_000_000
    static let counterMoveScore: Int32 = 800_000_000
    static let badCaptureBase: Int32 = -1_000_000_000

    /// Scores captures by victim then attacker (good or bad by exchange) and quiet moves by
    /// killers, counter-move and history.
    @inline(__always)
    func scoreMoves(_ list: inout ScoredMoves, ttMove: Move, ply: Int) {
        let killer0 = killers[ply &* 2], killer1 = killers[ply &* 2 &+ 1]
        var counter = Move.none
        if ply > 0 {
            let previous = playedMoves[ply &- 1]
            if previous.isReal { counter = counterMoves[movedPieces[ply &- 1].index &* 90 &+ previous.to.index] }
        }
        for i in 0..<list.moves.count {
            let move = list.moves[i]
            let score: Int32
            if move == ttMove {
                score = Self.ttMoveScore
            } else {
                let victim = position.piece(at: move.to)
                let mover = position.piece(at: move.from)
                if !victim.isNone {
                    let mvvLva = Int32(ExchangeValue.of(victim.kind) &* 16 &- Int(mover.kind.rawValue))
                    let attackerValue = ExchangeValue.of(mover.kind)
                    let good = attackerValue <= ExchangeValue.of(victim.kind) || position.staticExchange(move) >= 0
                    score = (good ? Self.goodCaptureBase : Self.badCaptureBase) &+ mvvLva
                } else if move == killer0 {
                    score = Self.killerScore &+ 1
                } else if move == killer1 {
                    score = Self.killerScore
                } else if move == counter {
                    score = Self.counterMoveScore
                } else {
                    score = history[mover.index &* 90 &+ move.to.index]
                }
            }
            list.scores[i] = score
        }
    }

    @inline(__always)
    func updateHistory(_ piece: Piece, _ to: Square, _ bonus: Int) {
        let i = piece.index &* 90 &+ to.index
        let h = Int(history[i])
        history[i] = Int32(h &+ bonus &- h &* abs(bonus) / 16384)
    }

    /// Principal variation search. Fail-soft; returns a score from the side to move's view.
    mutating func search(_ alphaIn: Int, _ betaIn: Int, _ depth: Int, _ ply: Int, pvNode: Bool, cutNode: Bool) -> Int {
        // Step 1. Leaf: quiescence search.
        if depth <= 0 { return quiescence(alphaIn, betaIn, ply, pvNode: pvNode) }
        var alpha = alphaIn, beta = betaIn
        let isRoot = ply == 0
        checkLimits()
        if stopped { return 0 }
        nodes &+= 1
        pvLength[ply] = 0
        if ply > selectiveDepth { selectiveDepth = ply }

        // Step 2. Draws by repetition or the move limit; mate-distance pruning.
        if !isRoot {
            let back = repetitionDistance()
            if back > 0 { return repetitionScore(back, ply: ply) }
            if position.halfmoveClock >= 120 { return drawScore() }
            if ply >= Score.maxPly - 2 { return position.isInCheck ? 0 : evaluator.evaluate(position) }
            alpha = max(alpha, -Score.mate + ply)
            beta = min(beta, Score.mate - ply - 1)
            if alpha >= beta { return alpha }
        }
        let inCheck = position.isInCheck
        let key = position.key

        // Step 3. Transposition table.
        let entry = tt.probe(key)
        var ttMove = Move.none
        if let entry {
            if entry.move.isReal && position.isLegal(entry.move) { ttMove = entry.move }
            if !pvNode && entry.depth >= depth, let s = entry.cutoff(ply: ply, alpha: alpha, beta: beta) {
                return s
            }
        }

        // Step 4. Static evaluation.
        let staticEval: Int
        if inCheck {
            staticEval = -Score.infinite
        } else if let entry, entry.eval != Score.none {
            staticEval = entry.eval
        } else {
            staticEval = evaluator.evaluate(position)
        }
        staticEvals[ply] = staticEval
        let improving = !inCheck && ply >= 2 && staticEval > staticEvals[ply &- 2]

        if !pvNode && !inCheck && options.pruning {
            // Step 5. Reverse futility: far above beta at low depth.
            if options.reverseFutility && depth <= 6 && staticEval - 90 * depth + (improving ? 40 : 0) >= beta
                && abs(beta) < Score.mateBound {
                return staticEval
            }
            // Step 6. Null move, only with pieces that can make threats (zugzwang guard).
            let us = position.sideToMove
            let attackers = position.pieces(of: us, .chariot).count * 2 + position.pieces(of: us, .horse).count
                + position.pieces(of: us, .cannon).count
            if options.nullMove && depth >= 3 && staticEval >= beta && attackers >= 2 && ply > 0
                && playedMoves[ply &- 1] != .null {
                let r = 3 + depth / 4 + min(3, (staticEval - beta) / 200)
                playedMoves[ply] = .null
                movedPieces[ply] = .none
                let undo = position.makeNull()
                keys.append(position.key)
                let score = -search(-beta, -beta + 1, depth - r, ply + 1, pvNode: false, cutNode: !cutNode)
                keys.removeLast()
                position.unmakeNull(undo)
                if stopped { return 0 }
                if score >= beta { return score >= Score.mateBound ? beta : score }
            }
        }

        // Step 7. Internal iterative reduction: no table move at a deep node.
        var depth = depth
        if ttMove == .none && depth >= 6 && (pvNode || cutNode) { depth -= 1 }

        // Step 8. Move loop.
        var list = ScoredMoves()
        position.generatePseudoLegal(.all, into: &list.moves)
        scoreMoves(&list, ttMove: ttMove, ply: ply)
        killers[(ply &+ 1) &* 2] = .none
        killers[(ply &+ 1) &* 2 &+ 1] = .none

        var best = -Score.infinite
        var bestMove = Move.none
        var legalCount = 0
        var quietsTried = InlineArray<64, Move>(repeating: .none)
        var quietCount = 0
        while let move = list.pick() {
            if isRoot && (!rootMoves.contains(move) || excludedRootMoves.contains(move)) { continue }
            guard position.isPseudoLegalMoveSafe(move) else { continue }
            legalCount &+= 1
            if isRoot, let report = onCurrentMove, elapsed() > 1000 {
                report(CurrentMoveInfo(depth: rootDepth, move: move, number: legalCount))
            }
            let mover = position.piece(at: move.from)
            let isCapture = !position.piece(at: move.to).isNone
            let isKiller = move == killers[ply &* 2] || move == killers[ply &* 2 &+ 1]

            playedMoves[ply] = move
            movedPieces[ply] = mover
            let undo = position.make(move)
            undos[ply] = undo
            let givesCheck = position.isInCheck

            // Step 9. Pruning of late quiet moves at shallow depth.
            if !isRoot && !inCheck && !isCapture && !givesCheck && best > -Score.mateBound && options.pruning {
                if options.futility && !pvNode && depth <= 3 && staticEval + 120 + 110 * depth <= alpha {
                    position.unmake(move, undo)
                    continue
                }
                if options.futility && depth <= 4 && quietCount >= 4 + depth * depth * 2 {
                    position.unmake(move, undo)
                    continue
                }
            }
            keys.append(position.key)

            // Step 10. Check extension.
            let extensionPlies = givesCheck && ply < 2 * (completedDepth + 2) ? 1 : 0
            let newDepth = depth - 1 + extensionPlies

            // Step 11. Late-move reductions, then PVS re-searches.
            let nodesBefore = nodes
            var score: Int
            if legalCount == 1 {
                score = -search(-beta, -alpha, newDepth, ply + 1, pvNode: pvNode, cutNode: false)
            } else {
                var r = 0
                if depth >= 3 && !isCapture && !givesCheck && !inCheck && legalCount > (pvNode ? 3 : 1)
                    && options.pruning && options.lateMoveReductions {
                    r = reductions[min(depth, 63) * 64 + min(legalCount, 63)]
                    if pvNode { r -= 1 }
                    if isKiller { r -= 1 }
                    if !improving { r += 1 }
                    if cutNode { r += 1 }
                    r = max(0, min(r, newDepth - 1))
                }
                score = -search(-alpha - 1, -alpha, newDepth - r, ply + 1, pvNode: false, cutNode: true)
                if score > alpha && r > 0 {
                    score = -search(-alpha - 1, -alpha, newDepth, ply + 1, pvNode: false, cutNode: !cutNode)
                }
                if pvNode && score > alpha && score < beta {
                    score = -search(-beta, -alpha, newDepth, ply + 1, pvNode: true, cutNode: false)
                }
            }
            keys.removeLast()
            position.unmake(move, undo)
            if isRoot, let index = rootMoves.firstIndex(of: move) { rootMoveNodes[index] &+= nodes &- nodesBefore }
            if stopped { return 0 }

            // Step 12. New best move.
            if score > best {
                best = score
                if score > alpha {
                    bestMove = move
                    if pvNode {
                        pv[ply &* Score.maxPly] = move
                        let childLength = pvLength[ply &+ 1]
                        for i in 0..<childLength where ply + 1 + i < Score.maxPly {
                            pv[ply &* Score.maxPly &+ 1 &+ i] = pv[(ply &+ 1) &* Score.maxPly &+ i]
                        }
                        pvLength[ply] = min(childLength + 1, Score.maxPly - ply)
                    }
                    if isRoot && pvIndex == 0 {
                        if move != rootBest && rootDepth > 1 { bestMoveChanges &+= 1 }
                        rootBest = move
                        rootBestScore = score
                    }
                    if score >= beta {
                        // Step 13. Cut-off: reward the quiet move, punish those tried before it.
                        if !isCapture {
                            if killers[ply &* 2] != move {
                                killers[ply &* 2 &+ 1] = killers[ply &* 2]
                                killers[ply &* 2] = move
                            }
                            let bonus = min(depth * depth * 16, 4000)
                            updateHistory(mover, move.to, bonus)
                            for i in 0..<quietCount {
                                let q = quietsTried[i]
                                updateHistory(position.piece(at: q.from), q.to, -bonus)
                            }
                            if ply > 0 {
                                let previous = playedMoves[ply &- 1]
                                if previous.isReal {
                                    counterMoves[movedPieces[ply &- 1].index &* 90 &+ previous.to.index] = move
                                }
                            }
                        }
                        break
                    }
                    alpha = score
                }
            }
            if !isCapture && quietCount < 64 {
                quietsTried[quietCount] = move
                quietCount &+= 1
            }
        }

        // Step 14. No legal move: a loss in Xiangqi, in check or not.
        if legalCount == 0 {
            return -Score.mate + ply
        }
        let bound: Bound = best >= beta ? .lower : (pvNode && bestMove != .none) ? .exact : .upper
        // A MultiPV line below the first searched only some root moves: not a root result.
        if !(isRoot && pvIndex > 0) {
            tt.store(key, move: bestMove, score: Score.toTable(best, ply: ply),
                     eval: inCheck ? Score.none : staticEval, depth: depth, bound: bound)
        }
        return best
    }

    /// Captures only (all evasions when in check) until the position is quiet.
    mutating func quiescence(_ alphaIn: Int, _ beta: Int, _ ply: Int, pvNode: Bool) -> Int {
        var alpha = alphaIn
        checkLimits()
        if stopped { return 0 }
        nodes &+= 1
        if ply > selectiveDepth { selectiveDepth = ply }
        let inCheck = position.isInCheck
        if ply >= Score.maxPly - 2 { return inCheck ? 0 : evaluator.evaluate(position) }
        let key = position.key
        let entry = tt.probe(key)
        if let entry, !pvNode, let s = entry.cutoff(ply: ply, alpha: alpha, beta: beta) { return s }
        var best = -Score.infinite
        var standPat = -Score.infinite
        if !inCheck {
            if let entry, entry.eval != Score.none { standPat = entry.eval } else { standPat = evaluator.evaluate(position) }
            if standPat >= beta { return standPat }
            if standPat > alpha { alpha = standPat }
            best = standPat
        }
        var list = ScoredMoves()
        position.generatePseudoLegal(inCheck ? .all : .captures, into: &list.moves)
        let ttMove = entry.map(\.move) ?? .none
        scoreMoves(&list, ttMove: ttMove, ply: min(ply, Score.maxPly - 1))
        var legalCount = 0
        var bestMove = Move.none
        while let move = list.pick() {
            guard position.isPseudoLegalMoveSafe(move) else { continue }
            legalCount &+= 1
            if !inCheck {
                let victim = position.piece(at: move.to)
                // Delta pruning and losing captures.
                if standPat + ExchangeValue.of(victim.kind) + 200 <= alpha { continue }
                if list.scores[list.next &- 1] < Self.goodCaptureBase { continue }
            }
            let undo = position.make(move)
            let score = -quiescence(-beta, -alpha, ply + 1, pvNode: pvNode)
            position.unmake(move, undo)
            if stopped { return 0 }
            if score > best {
                best = score
                if score > alpha {
                    bestMove = move
                    if score >= beta { break }
                    alpha = score
                }
            }
        }
        if inCheck && legalCount == 0 { return -Score.mate + ply }
        let bound: Bound = best >= beta ? .lower : .upper
        tt.store(key, move: bestMove, score: Score.toTable(best, ply: ply),
                 eval: inCheck ? Score.none : standPat, depth: 0, bound: bound)
        return best
    }
}
