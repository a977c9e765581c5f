import XiangqiBook
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// `go` through the engine's decision (book, search, draw offer), the lines a search reports,
/// `ponderhit`, `stop`, `quit` and `probe`.
extension Session {
    func go(_ args: [String], receivedAt: MonotonicInstant = .now) {
        stopSearchForChange()
        let command = GoCommand(args, secondsScale: dialect == .ucci && !options.useMillisec ? 1000 : 1)
        for message in command.messages { inform(message) }
        if let depth = command.perftDepth {
            perft([String(depth)])
            return
        }
        guard let game else {
            inform("no valid position: search refused")
            sendNoMove(legalMovesExist: true)
            return
        }
        let position = game.position
        var base = SearchLimits()
        base.moveOverhead = options.moveOverhead
        base.ponderEnabled = options.ponder
        base.startTime = receivedAt
        let limits = command.limits(for: position.sideToMove, base: base)
        if options.debug { reportTimeBudget(limits) }
        let ponder = command.ponder
        let rootMoves = self.rootMoves(position, searchMoves: command.searchMoves)
        if command.depthZero && dialect == .ucci {
            var info = EngineInfo()
            info.depth = 0
            info.score = .centipawns(engine.evaluationDecision(for: game).score)
            if let line = info.line(.ucci) { send(line) }
            send(BestMoveLine(move: nil).line(.ucci))
            return
        }
        lock.withLock { searchedThisPosition = true }
        if rootMoves.isEmpty {
            sendNoMove(legalMovesExist: position.hasLegalMove)
            return
        }
        if !options.useHash { engine.newGame() }
        beginDecision(limits, ponder: ponder, receivedAt: receivedAt)
        var warnings: [String] = []
        let bookDecision = engine.startDecision(
            MoveRequest(game: game, limits: limits, rootMoves: rootMoves, drawOffered: command.draw),
            book: options.analyseMode ? nil : book, ponder: ponder, warnings: &warnings,
            onInfo: { [weak self] info in self?.report(info) },
            onCurrentMove: { [weak self] current in self?.reportCurrentMove(current) },
            onDecision: { [weak self] decision in self?.finished(decision) })
        for warning in warnings { inform(warning) }
        if let bookDecision, let source = bookDecision.book {
            reportBookMove(bookDecision, source: source)
            finished(bookDecision)
        }
    }

    /// The session's state for the decision `go` starts: whether its answer waits for `stop`
    /// or `ponderhit`, and whether the search ends by itself.
    func beginDecision(_ limits: SearchLimits, ponder: Bool, receivedAt: MonotonicInstant) {
        lock.withLock {
            holdResult = ponder || limits.infinite
            // A mate search alone runs until it finds the mate, which may not exist.
            let bounded = limits.depth != nil || limits.nodes != nil || limits.moveTime != nil || limits.clock != nil
            searchIsInfinite = limits.infinite || !bounded
            searchEndsByItself = !ponder && !searchIsInfinite
            stopReceived = false
            pendingDecision = nil
            drawOfferedLater = false
            searchDialect = dialect
            searchNumbering = numbering
            searchStart = receivedAt
        }
    }

    /// The moves `go` may choose among: `searchmoves` if given, less `banmoves`.
    func rootMoves(_ position: Position, searchMoves: [String]) -> [Move] {
        var rootMoves = position.legalMoves
        if !searchMoves.isEmpty {
            if let wanted = readChoices(searchMoves, in: position, command: "searchmoves") {
                rootMoves = rootMoves.filter { wanted.contains($0) }
            }
        }
        if !bannedMoves.isEmpty { rootMoves = rootMoves.filter { !bannedMoves.contains($0) } }
        return rootMoves
    }

    /// With `debug`: the search's time budget, if time bounds it.
    func reportTimeBudget(_ limits: SearchLimits) {
        guard let budget = limits.timeBudget else { return }
        let optimum = budget.optimum < budget.maximum ? "optimum \(budget.optimum) ms, " : ""
        inform("time budget: \(optimum)maximum \(budget.maximum) ms")
    }

    /// Says where a book move came from (before its `bestmove`).
    func reportBookMove(_ decision: MoveDecision, source: BookSource) {
        guard let move = decision.move else { return }
        inform("book move \(text(move)) from \(source.book): \(source.games) games, "
               + "\(Int(source.percent.rounded()))% for \(game?.position.sideToMove ?? .red)")
        report(SearchInfo(depth: 1, selectiveDepth: 1, score: decision.score, bound: .exact,
                          nodes: 0, time: 0, hashfull: engine.hashfull, principalVariation: [move]))
    }

    func sendNoMove(legalMovesExist: Bool) {
        if dialect != .ucci && !legalMovesExist {
            var mated = EngineInfo()
            mated.depth = 0
            mated.score = .mate(0)
            if let line = mated.line(.uci) { send(line) }
        }
        send(BestMoveLine(move: nil).line(dialect == .ucci ? .ucci : .uci))
    }

    func report(_ info: SearchInfo) {
        let chances = options.showWDL ? Chances(score: info.score) : nil
        // UCCI has no notation for a bound or a second line: those are not reported there.
        let (dialect, numbering) = lock.withLock { (searchDialect == .ucci ? EngineDialect.ucci : .uci, searchNumbering) }
        if let line = EngineInfo(info, chances: chances).line(dialect, numbering) { send(line) }
    }

    func reportCurrentMove(_ current: CurrentMoveInfo) {
        send(EngineInfo.currentMoveLine(depth: current.depth, move: current.move, number: current.number,
                                        lock.withLock { searchNumbering }))
    }

    /// The engine's decision, answered at once or, while the search ponders or is infinite,
    /// at `stop` or `ponderhit`.
    func finished(_ decision: MoveDecision) {
        lock.withLock {
            if holdResult && !stopReceived {
                pendingDecision = decision
            } else {
                emitLocked(decision)
            }
        }
    }

    /// Writes the `bestmove` line; call with `lock` held.
    func emitLocked(_ decision: MoveDecision) {
        holdResult = false
        pendingDecision = nil
        let answer = drawOfferedLater ? decision.withDrawOffered() : decision
        let line = BestMoveLine(move: answer.move, ponderMove: answer.ponderMove, draw: answer.acceptsDraw)
        send(line.line(searchDialect == .ucci ? .ucci : .uci, searchNumbering))
    }

    func ponderHit(_ args: [String]) {
        let offered = args.first?.lowercased() == "draw"
        let elapsed = lock.withLock { searchStart.millisecondsElapsed }
        engine.ponderHit(elapsedMilliseconds: elapsed)
        lock.withLock {
            if offered { drawOfferedLater = true }
            holdResult = false
            searchEndsByItself = !searchIsInfinite
            if let pending = pendingDecision { emitLocked(pending) }
        }
    }

    func stop() {
        let idleNoSearch = lock.withLock { () -> Bool in
            stopReceived = true
            if let pending = pendingDecision {
                emitLocked(pending)
                return false
            }
            return !engine.isSearching && !searchedThisPosition
        }
        engine.stop()
        if idleNoSearch && dialect == .ucci { send("nobestmove") }
    }

    func quit() {
        engine.stop()
        lock.withLock { stopReceived = true }
        engine.waitUntilIdle()
        lock.withLock {
            if let pending = pendingDecision { emitLocked(pending) }
        }
        if dialect == .ucci { send("bye") }
        shouldQuit = true
    }

    // MARK: - Hash probe

    func probe(_ args: [String]) {
        guard case .game(let probed) = parsePosition(args), let entry = engine.probe(probed.position) else {
            send("pophash")
            return
        }
        var line = "pophash"
        if entry.move.isReal { line += " bestmove \(text(entry.move))" }
        let score = EngineScore(searchScore: entry.score).ucciValue
        if entry.bound == .lower || entry.bound == .exact { line += " lowerbound \(score) depth \(entry.depth)" }
        if entry.bound == .upper || entry.bound == .exact { line += " upperbound \(score) depth \(entry.depth)" }
        send(line)
    }
}
