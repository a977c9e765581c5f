import XiangqiCore

extension Searcher {
    static let ttMoveScore: Int32 = 2_000_000_000
    static let goodCaptureBase: Int32 = 1_000_000_000
    static let killerScore: Int32 = 900_000_000
    static let counterMoveScore: Int32 = 800_000_000
    static let badCaptureBase: Int32 = -1_000_000_000

    /// The continuation-history row of the move played `back` plies before `ply` (a slot
    /// times ``SearchHeap/slots``), or -1 when there is none (before the root, a null move).
    @inline(__always)
    func continuationRow(_ ply: Int, back: Int) -> Int {
        guard ply >= back else { return -1 }
        let move = playedMoves[ply &- back]
        guard move.isReal else { return -1 }
        return (movedPieces[ply &- back].index &* 90 &+ move.to.index) &* SearchHeap.slots
    }

    /// The continuation-history rows a quiet move at `ply` is judged by: after the last two
    /// moves (-1: none).
    @inline(__always)
    func continuationRows(_ ply: Int) -> ContinuationRows {
        ContinuationRows(continuationRow(ply, back: 1), continuationRow(ply, back: 2))
    }

    /// The history of a quiet move: its own plus its continuations.
    @inline(__always)
    func quietHistory(_ slot: Int, _ rows: ContinuationRows) -> Int {
        var h = Int(history[slot])
        if rows.back1 >= 0 { h &+= Int(continuationHistory[rows.back1 &+ slot]) }
        if rows.back2 >= 0 { h &+= Int(continuationHistory[rows.back2 &+ slot]) }
        return h
    }

    /// Scores captures by victim then attacker (good or bad by exchange, decided when picked:
    /// ``ScoredMoves/pick(in:)``) and quiet moves by killers, counter-move and history (own
    /// and continuation). Changes nothing but `list`; `mutating` so that the search, itself
    /// mutating, passes the searcher in place (a non-mutating call from it copies the struct,
    /// about 940 bytes, at every node).
    @inline(__always)
    mutating func scoreMoves(_ list: inout ScoredMoves, ttMove: Move, ply: Int) {
        let killer0 = killers[ply &* 2], killer1 = killers[ply &* 2 &+ 1]
        var counter = Move.none
        if ply > 0 {
            let previous = playedMoves[ply &- 1]
            if previous.isReal { counter = counterMoves[movedPieces[ply &- 1].index &* 90 &+ previous.to.index] }
        }
        let rows = continuationRows(ply)
        for i in 0..<list.moves.count {
            let move = list.moves.move(at: i)
            let score: Int32
            if move == ttMove {
                score = Self.ttMoveScore
            } else {
                let victim = position.piece(at: move.to)
                let mover = position.piece(at: move.from)
                if !victim.isNone {
                    // Good on trust: `ScoredMoves.pick(in:)` moves a capture that loses by
                    // exchange to the bad band when it comes to be picked.
                    score = Self.goodCaptureBase &+ Int32(ExchangeValue.of(victim.kind) &* 16 &- Int(mover.kind.rawValue))
                } else if move == killer0 {
                    score = Self.killerScore &+ 1
                } else if move == killer1 {
                    score = Self.killerScore
                } else if move == counter {
                    score = Self.counterMoveScore
                } else {
                    score = Int32(quietHistory(mover.index &* 90 &+ move.to.index, rows))
                }
            }
            list.setScore(score, at: i)
        }
    }

    /// The history bonus of a quiet move that cut off a node of `depth` (its malus for the
    /// quiet moves tried before it): `(f·depth + 332)·depth − 676` for f =
    /// ``SearchParameters/historyBonusFactor``, at least 16·depth and at most 3317, so it
    /// grows about linearly from depth 3 and is whole from depth 10.
    @inline(__always)
    func historyBonus(_ depth: Int) -> Int {
        min(max((options.parameters.historyBonusFactor &* depth &+ 332) &* depth &- 676, 16 &* depth), 3317)
    }

    /// Moves a history value toward ±16384 by `bonus` (gravity: the closer to the bound, the
    /// smaller the step), so that no value leaves that range.
    @inline(__always)
    static func nudged(_ h: Int, _ bonus: Int) -> Int { h &+ bonus &- h &* abs(bonus) / 16384 }

    /// Moves a quiet move's histories (own and continuation) by `bonus`.
    @inline(__always)
    func updateQuietHistory(_ slot: Int, _ rows: ContinuationRows, _ bonus: Int) {
        history[slot] = Int32(clamping: Self.nudged(Int(history[slot]), bonus))
        @inline(__always) func nudge(_ row: Int) {
            guard row >= 0 else { return }
            continuationHistory[row &+ slot] = Int16(clamping: Self.nudged(Int(continuationHistory[row &+ slot]), bonus))
        }
        nudge(rows.back1)
        nudge(rows.back2)
    }

    /// Correction tables: one keyed by both sides' soldiers, one by both sides' kings,
    /// advisors and elephants (the palaces' guard).
    static let correctionTables = 2
    /// Entries per side in each correction table (2^13: the hash's top 13 bits).
    static let correctionEntries = 1 << 13
    /// The bound of a correction entry; an entry is 32 times its share of the correction in
    /// centipawns, so the two tables correct an evaluation by at most 64.
    static let correctionLimit = 1024

    /// A 13-bit hash of two sets of squares.
    @inline(__always)
    static func correctionHash(_ a: Bitboard, _ b: Bitboard) -> Int {
        let x = (a.lo &* 0x9E37_79B9_7F4A_7C15) ^ (a.hi &* 0xC2B2_AE3D_27D4_EB4F)
            ^ (b.lo &* 0x1656_67B1_9E37_79F9) ^ (b.hi &* 0xD6E8_FEB8_6659_FD93)
        return Int(truncatingIfNeeded: x &>> 51)
    }

    /// The correction-history entries that judge the current position (offsets into
    /// `correctionHistory`): by side to move, both sides' soldiers and both sides' palace guards
    /// (kings, advisors and elephants).
    @inline(__always)
    func correctionSlots() -> CorrectionSlots {
        let side = position.sideToMove.index
        let soldiers = Self.correctionHash(position.pieces(of: .red, .soldier), position.pieces(of: .black, .soldier))
        let redGuard = position.pieces(of: .red, .king) | position.pieces(of: .red, .advisor) | position.pieces(of: .red, .elephant)
        let blackGuard = position.pieces(of: .black, .king) | position.pieces(of: .black, .advisor) | position.pieces(of: .black, .elephant)
        let guards = Self.correctionHash(redGuard, blackGuard)
        return CorrectionSlots(side &* Self.correctionEntries &+ soldiers,
                               (2 &+ side) &* Self.correctionEntries &+ guards)
    }

    /// `rawEval` moved by what earlier searches found the evaluation off by in positions
    /// that share `slots`, kept below the range of rule wins and mates.
    @inline(__always)
    func corrected(_ rawEval: Int, _ slots: CorrectionSlots) -> Int {
        let correction = (Int(correctionHistory[slots.soldiers]) &+ Int(correctionHistory[slots.guards])) / 32
        let bound = Score.ruleWin - Score.maxPly - 1
        return max(-bound, min(rawEval &+ correction, bound))
    }

    /// Moves both correction entries of `slots` by `bonus` (gravity toward
    /// ±``correctionLimit``, as the move histories).
    @inline(__always)
    func updateCorrection(_ slots: CorrectionSlots, _ bonus: Int) {
        @inline(__always) func nudge(_ i: Int) {
            let e = Int(correctionHistory[i])
            correctionHistory[i] = Int16(clamping: e &+ bonus &- e &* abs(bonus) / Self.correctionLimit)
        }
        nudge(slots.soldiers)
        nudge(slots.guards)
    }

    /// Principal variation search. Fail-soft; returns a score from the side to move's view.
    /// While `excludedMoves[ply]` is set (a singular-extension search) that move is not
    /// searched, the table gives no cut-off and nothing is stored for the node.
    mutating func search(_ alphaIn: Int, _ betaIn: Int, _ depth: Int, _ ply: Int, pvNode: Bool, cutNode: Bool) -> Int {
        // The node's line is empty until a move raises alpha, whatever way the node returns:
        // a parent copies it after every child, so a line left from an earlier search of
        // this ply must never survive an early return.
        pvLength[ply] = 0
        // Step 1. Leaf: quiescence search.
        if depth <= 0 { return quiescence(alphaIn, betaIn, ply, pvNode: pvNode) }
        var alpha = alphaIn, beta = betaIn
        let isRoot = ply == 0
        checkLimits()
        if stopped { return 0 }
        nodes &+= 1
        if ply > selectiveDepth { selectiveDepth = ply }
        let excluded = excludedMoves[ply]

        // Step 2. Draws by repetition or the move limit; mate-distance pruning.
        if !isRoot {
            let back = repetitionDistance()
            if back > 0 { return repetitionScore(back, ply: ply) }
            // The no-capture limit draws unless the move that reached it left no legal move
            // (checkmate or stalemate, which the game judges first: `Game.status`); a side's
            // checks beyond the tenth in a row do not count toward it.
            if position.halfmoveClock >= 120 && noCaptureLimitReached(ply: ply) && position.hasLegalMove {
                return drawScore()
            }
            if isInsufficientMaterial() { return drawScore() }
            if ply >= Score.maxPly - 2 { return position.isInCheck ? 0 : staticEvaluation(ply) }
            alpha = max(alpha, -Score.mate + ply)
            beta = min(beta, Score.mate - ply - 1)
            if alpha >= beta { return alpha }
        }
        let inCheck = position.isInCheck
        let key = position.key

        // Step 3. Transposition table.
        let entry = tt.probe(key)
        var ttMove = Move.none
        var ttScore = Score.none
        if let entry {
            if entry.move.isReal && position.isLegal(entry.move) { ttMove = entry.move }
            ttScore = Score.fromTable(entry.score, ply: ply)
            if !pvNode && excluded == .none && entry.depth >= depth,
               let s = entry.cutoff(ply: ply, alpha: alpha, beta: beta) {
                return s
            }
        }

        // Step 4. Static evaluation, corrected by the correction history, then refined by
        // the table's score where its bound allows.
        // The table keeps the evaluation uncorrected, the correction being fresher.
        let staticEval: Int
        var rawEval = Score.none
        var eval: Int
        var correction = CorrectionSlots(0, 0)
        if inCheck {
            staticEval = -Score.infinite
            eval = staticEval
        } else {
            if let entry, entry.eval != Score.none { rawEval = entry.eval } else { rawEval = staticEvaluation(ply) }
            correction = correctionSlots()
            staticEval = corrected(rawEval, correction)
            eval = staticEval
            if let entry, abs(ttScore) < Score.ruleWin - Score.maxPly,
               entry.bound == .exact || (entry.bound == .lower && ttScore > eval) || (entry.bound == .upper && ttScore < eval) {
                eval = ttScore
            }
        }
        staticEvals[ply] = staticEval
        let improving = !inCheck && ply >= 2 && staticEval > staticEvals[ply &- 2]
        var depth = depth

        let parameters = options.parameters
        if !pvNode && !inCheck && options.pruning && excluded == .none {
            // Step 5. Reverse futility: far above beta at low depth.
            if options.reverseFutility && depth <= parameters.reverseFutilityDepth
                && eval - parameters.reverseFutilityMargin * depth + (improving ? parameters.reverseFutilityImproving : 0) >= beta
                && abs(beta) < Score.mateBound {
                return eval
            }
            // Step 6. Null move, only with pieces that can make threats (zugzwang guard).
            let us = position.sideToMove
            let attackers = position.pieces(of: us, .chariot).count * 2 + position.pieces(of: us, .horse).count
                + position.pieces(of: us, .cannon).count
            if options.nullMove && depth >= 3 && eval >= beta && attackers >= 2 && ply > 0
                && playedMoves[ply &- 1] != .null {
                let r = parameters.nullMoveBase + depth * 4 / parameters.nullMoveDepthDivisor + min(3, (eval - beta) / parameters.nullMoveEvalDivisor)
                tt.prefetch(position.key ^ Zobrist.sideKey)
                playedMoves[ply] = .null
                movedPieces[ply] = .none
                let undo = position.makeNull()
                undos[ply] = undo
                accumulators?.recordNullMove(ply: ply &+ 1)
                keys.append(position.key)
                let score = -search(-beta, -beta + 1, depth - r, ply + 1, pvNode: false, cutNode: !cutNode)
                keys.removeLast()
                position.unmakeNull(undo)
                if stopped { return 0 }
                if score >= beta { return score >= Score.mateBound ? beta : score }
            }
        }

        // Step 7. Internal iterative reduction: no table move at a deep node.
        if ttMove == .none && depth >= 6 && (pvNode || cutNode) { depth -= 1 }

        // Step 8. Move loop.
        var list = ScoredMoves()
        position.generatePseudoLegal(.all, into: &list.moves)
        scoreMoves(&list, ttMove: ttMove, ply: ply)
        killers[(ply &+ 1) &* 2] = .none
        killers[(ply &+ 1) &* 2 &+ 1] = .none
        excludedMoves[ply &+ 1] = .none
        let rows = continuationRows(ply)
        // A table move whose lower bound was searched nearly as deep is a candidate for a
        // singular extension.
        let singularCandidate = options.singularExtensions && options.pruning && !isRoot && excluded == .none
            && depth >= 7 && ttMove != .none && entry.map { $0.depth >= depth - 3 && $0.bound != .upper } == true
            && abs(ttScore) < Score.ruleWin - Score.maxPly
        let lateQuietCount = parameters.lateQuietBase + parameters.lateQuietFactor * depth * depth / 4
        let lateQuietLimit = improving ? lateQuietCount : lateQuietCount / parameters.lateQuietNotImprovingDivisor

        var best = -Score.infinite
        var bestMove = Move.none
        var legalCount = 0
        var quietsTried = InlineWords16()   // quiet moves searched, 64 at most
        var quietCount = 0
        while let move = list.pick(in: position) {
            if move == excluded { continue }
            if isRoot && (rootMoveIndex(move) == nil || (!excludedRootMoves.isEmpty && excludedRootMoves.contains(move))) {
                continue
            }
            guard position.isPseudoLegalMoveSafe(move) else { continue }
            legalCount &+= 1
            if isRoot, let report = onCurrentMove, elapsed() > 1000 {
                report(CurrentMoveInfo(depth: rootDepth, move: move, number: legalCount))
            }
            let mover = position.piece(at: move.from)
            let isCapture = !position.piece(at: move.to).isNone
            let isKiller = move == killers[ply &* 2] || move == killers[ply &* 2 &+ 1]
            let slot = mover.index &* 90 &+ move.to.index
            let mayPrune = !isRoot && !inCheck && best > -Score.mateBound && options.pruning

            // Step 9. Futility and late-move pruning of quiet moves, then static-exchange
            // pruning: a losing capture, or a quiet move to a square where the piece is lost.
            // Quiet moves are judged by the depth a late-move reduction would leave them, at
            // any depth. Each is decided here and applied after the singular test (checks are
            // kept, see step 11); the exchange is not computed for a move already pruned.
            let reducedDepth = max(0, depth - 1 - reductions[min(depth, 63) * 64 + min(legalCount, 63)])
            let lateQuiet = mayPrune && !isCapture && options.futility
                && (!pvNode && reducedDepth < parameters.futilityDepth
                    && eval + parameters.futilityBase + parameters.futilityPerDepth * reducedDepth <= alpha
                    || quietCount >= lateQuietLimit)
            let losingCapture = isCapture && list.pickedScore < Self.goodCaptureBase
            var exchangeLoss = false
            if mayPrune && !lateQuiet && options.exchangePruning {
                if isCapture {
                    exchangeLoss = losingCapture
                        && !position.exchangeAtLeast(move, -parameters.exchangeCaptureMargin * depth)
                } else {
                    exchangeLoss = !position.exchangeAtLeast(move, -parameters.exchangeQuietMargin * reducedDepth * reducedDepth)
                }
            }

            // Step 10. Singular extension: when every other move fails well below the table
            // score, the table move is extended; when even the others beat beta, the node is
            // cut (multi-cut); when the table move alone is expected to beat beta, it is reduced.
            var extensionPlies = 0
            if singularCandidate && move == ttMove {
                let singularBeta = ttScore - parameters.singularMargin * depth / 8
                excludedMoves[ply] = move
                let s = search(singularBeta - 1, singularBeta, (depth - 1) / 2, ply, pvNode: false, cutNode: cutNode)
                excludedMoves[ply] = .none
                if stopped { return 0 }
                if s < singularBeta {
                    extensionPlies = ply < 2 * (completedDepth + 2) ? 1 : 0
                } else if singularBeta >= beta {
                    return singularBeta
                } else if ttScore >= beta {
                    extensionPlies = -1
                }
            }

            // Step 11. The pruning of step 9, for moves that do not give check: known without
            // making the move.
            if (lateQuiet || exchangeLoss) && !position.givesCheck(move) { continue }

            tt.prefetch(position.key(after: move))
            playedMoves[ply] = move
            movedPieces[ply] = mover
            var undo = position.make(move)
            undos[ply] = undo
            accumulators?.record(ply: ply &+ 1, move: move, moved: mover, captured: undo.capturedPiece)
            let givesCheck = position.isInCheck

            // Step 12. Check extension, for checks that do not lose material.
            if givesCheck && extensionPlies == 0 && depth >= parameters.checkExtensionDepth && ply < 2 * (completedDepth + 2) {
                position.unmake(move, undo)
                let safe = isCapture && list.pickedScore >= Self.goodCaptureBase
                    || position.exchangeAtLeast(move, 0)
                undo = position.make(move)
                undos[ply] = undo
                accumulators?.record(ply: ply &+ 1, move: move, moved: mover, captured: undo.capturedPiece)
                if safe { extensionPlies = 1 }
            }
            keys.append(position.key)
            let newDepth = depth - 1 + extensionPlies
            let statScore = isCapture ? 0 : quietHistory(slot, rows)

            // Step 13. Late-move reductions of quiet moves, checks, evasions and (off the
            // principal variation) losing captures: less for checks, evasions and moves with
            // good history. Then PVS re-searches.
            let nodesBefore = nodes
            var score: Int
            if legalCount == 1 {
                score = -search(-beta, -alpha, newDepth, ply + 1, pvNode: pvNode, cutNode: false)
            } else {
                var r = 0
                if depth >= 2 && (!isCapture || losingCapture && !pvNode) && legalCount > (pvNode ? 3 : 1)
                    && options.pruning && options.lateMoveReductions {
                    r = reductions[min(depth, 63) * 64 + min(legalCount, 63)]
                    if pvNode { r -= 1 }
                    if givesCheck || inCheck { r -= 1 }
                    if isKiller { r -= 1 }
                    if !improving { r += 1 }
                    if cutNode { r += 1 }
                    r -= statScore / parameters.reductionHistoryDivisor
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
            if isRoot, let index = rootMoveIndex(move) { rootMoveNodes[index] &+= nodes &- nodesBefore }
            if stopped { return 0 }

            // Step 14. New best move.
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
                        // Step 15. Cut-off: reward the quiet move, punish those tried before it.
                        if !isCapture {
                            if killers[ply &* 2] != move {
                                killers[ply &* 2 &+ 1] = killers[ply &* 2]
                                killers[ply &* 2] = move
                            }
                            let bonus = historyBonus(depth)
                            updateQuietHistory(slot, rows, bonus)
                            for i in 0..<quietCount {
                                let q = quietsTried.load(fromByteOffset: i &* 2, as: Move.self)
                                updateQuietHistory(position.piece(at: q.from).index &* 90 &+ q.to.index, rows, -bonus)
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
                quietsTried.store(move, toByteOffset: quietCount &* 2)
                quietCount &+= 1
            }
        }

        // Step 16. No legal move: a loss in Xiangqi, in check or not. In a singular search
        // the excluded move exists: the node is not lost, the others just fail low.
        if legalCount == 0 {
            return excluded != .none ? alpha : -Score.mate + ply
        }
        let bound: Bound = best >= beta ? .lower : (pvNode && bestMove != .none) ? .exact : .upper
        // A MultiPV line below the first searched only some root moves, and a singular search
        // left one out: neither is the node's result.
        if !(isRoot && pvIndex > 0) && excluded == .none {
            tt.store(key, move: bestMove, score: Score.toTable(best, ply: ply),
                     eval: inCheck ? Score.none : rawEval, depth: depth, bound: bound)
            // Step 17. Correction history: how far the search found the static evaluation
            // off, when a quiet move or none decided and the bound says which way.
            if !inCheck && (bestMove == .none || position.piece(at: bestMove.to).isNone)
                && !(bound == .lower && best <= staticEval) && !(bound == .upper && best >= staticEval) {
                let limit = Self.correctionLimit / 4
                updateCorrection(correction, max(-limit, min((best - staticEval) * depth / 8, limit)))
            }
        }
        return best
    }

    /// Plays `move` at `ply` before a child search of quiescence: the line's move and
    /// piece, the undo, the network's accumulators and the repetition keys (which the caller
    /// takes back with `keys.removeLast()` and `position.unmake`).
    @inline(__always)
    mutating func make(_ move: Move, at ply: Int) -> Undo {
        let mover = position.piece(at: move.from)
        playedMoves[ply] = move
        movedPieces[ply] = mover
        let undo = position.make(move)
        undos[ply] = undo
        accumulators?.record(ply: ply &+ 1, move: move, moved: mover, captured: undo.capturedPiece)
        keys.append(position.key)
        return undo
    }

    /// Captures only (all evasions when in check) until the position is quiet.
    mutating func quiescence(_ alphaIn: Int, _ beta: Int, _ ply: Int, pvNode: Bool) -> Int {
        // The principal variation ends where the quiescence search begins.
        pvLength[ply] = 0
        var alpha = alphaIn
        checkLimits()
        if stopped { return 0 }
        nodes &+= 1
        if ply > selectiveDepth { selectiveDepth = ply }
        // Repetitions end here as in the main search: chains of checks that give check back
        // (a cannon's screen moving away, say) would otherwise cycle to the maximum ply in
        // every branch, and a depth-1 search would not end.
        if ply > 0 {
            let back = repetitionDistance()
            if back > 0 { return repetitionScore(back, ply: ply) }
            // The no-capture limit as in the main search: a quiet move into the quiescence
            // search (a leaf's, or a check evasion) can reach it, and the game then judges a
            // side without a legal move first (checkmate and stalemate both lose).
            if position.halfmoveClock >= 120 && noCaptureLimitReached(ply: ply) {
                return position.hasLegalMove ? drawScore() : -Score.mate + ply
            }
        }
        let inCheck = position.isInCheck
        if isInsufficientMaterial() { return drawScore() }
        if ply >= Score.maxPly - 2 { return inCheck ? 0 : staticEvaluation(ply) }
        let key = position.key
        let entry = tt.probe(key)
        if let entry, !pvNode, let s = entry.cutoff(ply: ply, alpha: alpha, beta: beta) { return s }
        var best = -Score.infinite
        var standPat = -Score.infinite
        var rawStandPat = Score.none
        if !inCheck {
            if let entry, entry.eval != Score.none { rawStandPat = entry.eval } else { rawStandPat = staticEvaluation(ply) }
            standPat = corrected(rawStandPat, correctionSlots())
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
        while let move = list.pick(in: position) {
            guard position.isPseudoLegalMoveSafe(move) else { continue }
            legalCount &+= 1
            if !inCheck {
                let victim = position.piece(at: move.to)
                // Delta pruning and losing captures.
                if standPat + ExchangeValue.of(victim.kind) + options.parameters.quiescenceDeltaMargin <= alpha { continue }
                if list.pickedScore < Self.goodCaptureBase { continue }
            }
            tt.prefetch(position.key(after: move))
            let undo = make(move, at: ply)
            let score = -quiescence(-beta, -alpha, ply + 1, pvNode: pvNode)
            keys.removeLast()
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
                 eval: inCheck ? Score.none : rawStandPat, depth: 0, bound: bound)
        return best
    }

    /// The static evaluation of the current position at `ply`: the network's through the
    /// accumulators when one evaluates, else the handcrafted one.
    @inline(__always)
    func staticEvaluation(_ ply: Int) -> Int {
        guard let accumulators else { return evaluator.evaluate(position) }
        return evaluator.withNoise(accumulators.evaluate(ply: ply, position: position), position)
    }
}

/// The two correction-history entries (offsets) that judge a position.
struct CorrectionSlots {
    let soldiers: Int, guards: Int
    @inline(__always)
    init(_ soldiers: Int, _ guards: Int) {
        self.soldiers = soldiers; self.guards = guards
    }
}

/// The continuation-history rows (slot offsets, -1: none) of the moves 1 and 2 plies before
/// a node.
struct ContinuationRows {
    let back1: Int, back2: Int
    @inline(__always)
    init(_ back1: Int, _ back2: Int) {
        self.back1 = back1; self.back2 = back2
    }
}
