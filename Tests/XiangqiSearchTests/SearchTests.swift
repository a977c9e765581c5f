import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

func search(_ fen: String, _ limits: SearchLimits, moves: [String] = []) throws -> SearchResult {
    let engine = Engine(hashMegabytes: 4)
    var game = Game(try Position(fen: fen))
    for m in moves { try game.play(m) }
    engine.setGame(game)
    return engine.search(limits)
}

@Suite struct SearchTests {
    @Test func mateInOneIsFoundWithItsScore() throws {
        let result = try search("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", SearchLimits(depth: 3))
        #expect(result.bestMove == Move(iccs: "a0d0"))
        #expect(result.score == Score.mate - 1)
        #expect(Score.mateInMoves(result.score) == 1)
    }

    @Test(arguments: [
        // Forced mates from the shared tactics collection (dm 2 proved there by exhaustive search).
        ("2baka3/9/2n4cb/p3p3p/2p2rPc1/4N4/P1P1P3P/2C1B3C/1r7/R2AKABR1 b - - 0 1", ["f5f0"], 2),
        ("5kr2/2CRc1R2/4b1nr1/p3p3p/9/9/P3P3P/9/4A4/2B1KAB2 w - - 0 1", ["g8e8"], 2),
        ("c3ka3/4a4/4b4/2pRc2r1/p3C4/9/P3P3p/6C2/4A4/2BK1AB2 w - - 0 1", ["g2g9"], 2),
        ("3N5/1C1Ra4/4bk3/p2np3p/2b6/4n4/P3r1p1P/4B4/4A4/4KA3 w - - 0 1", ["b8b7"], 3),
        ("4k4/4aR3/2naN1N2/p1p5p/4p1r2/9/P1Pn4P/3C5/4A4/2B1KABc1 w - - 0 1", ["f8e8"], 3),
        ("3ak4/3naP1r1/9/5N3/p8/6R2/P8/5A3/4A4/4K4 w - - 0 1", ["g4g9"], 3),
    ])
    func mateInNIsFoundAtTheRightDistance(_ fen: String, _ best: [String], _ moves: Int) throws {
        // Two plies of margin over the mate's length: checks that lose material by exchange
        // are not extended, so a sacrificial first move may need a ply more.
        let result = try search(fen, SearchLimits(depth: 2 * moves + 4))
        #expect(Score.isMate(result.score))
        #expect(Score.mateInMoves(result.score) == moves)
        #expect(best.contains(result.bestMove?.iccs ?? ""))
    }

    @Test func mateOnTheMoveThatReachesTheNoCaptureLimitIsAMate() throws {
        // 119 plies without a capture: every move reaches the limit, and the game judges
        // checkmate first, so a0d0 still mates.
        let result = try search("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 1", SearchLimits(depth: 3))
        #expect(result.bestMove == Move(iccs: "a0d0"))
        #expect(result.score == Score.mate - 1)
    }

    @Test func everyMoveThatReachesTheNoCaptureLimitWithoutMateIsADraw() throws {
        // The same material with the red king on f0: no mate in one, so every move draws.
        let result = try search("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 119 1", SearchLimits(depth: 5))
        #expect(result.bestMove != nil)
        #expect(result.score == 0)
    }

    @Test func aQuietMoveIntoTheQuiescenceSearchThatReachesTheNoCaptureLimitIsADraw() throws {
        // At depth 1 every quiet move's reply is searched by the quiescence search, which
        // must call the limit a draw too, not score Red's extra chariot.
        let quiet = try search("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 119 1", SearchLimits(depth: 1))
        #expect(quiet.bestMove != nil)
        #expect(quiet.score == 0)
        // A capture sets the clock back to 0: taking the soldier keeps the win.
        let capture = try search("3k5/9/9/9/9/9/9/9/p8/R4K3 w - - 119 1", SearchLimits(depth: 1))
        #expect(capture.bestMove == Move(iccs: "a0a1"))
        #expect(capture.score > 500)
    }

    @Test func stalemateOnTheMoveThatReachesTheNoCaptureLimitIsAWin() throws {
        // 119 plies without a capture, no mate by check: a8e8 and d0e0 leave Black without a
        // legal move, which the game judges before the limit (a loss for Black).
        let fen = "5k3/R8/9/9/9/9/9/9/9/3K5 w - - 119 1"
        let result = try search(fen, SearchLimits(depth: 3))
        #expect(result.score == Score.mate - 1)
        let best = try #require(result.bestMove)
        #expect(["a8e8", "d0e0"].contains(best.iccs))
        var game = Game(try Position(fen: fen))
        try game.play(best)
        #expect(game.status() == .win(.red, .stalemate))
    }

    /// Ten red checks in a row from two chariots, each answered by the king, no position
    /// repeated; then a red check that leaves Black one reply, after which eight red moves
    /// (i9a9 among them) leave Black without a legal move and none mates by check.
    static let tenChecks = "a0a9 e9e8 a9e9 e8f8 e9e8 f8f9 e8f8 f9e9 f8f9 e9e8 f9f8 e8e7 f8f7 e7e8 f7e7 e8f8 i0i8 f8f9 e7f7 f9e9"

    @Test func checksBeyondTheTenthInARowDoNotBringTheNoCaptureLimitNearer() throws {
        // From a clock of 98, the 21 plies hold eleven red checks in a row, of which ten
        // count: 118 plies counted at a clock of 119. After Black's only reply the clock
        // reads 120 with 119 counted, so the game goes on and Red wins on the next move; a
        // search that counted every ply would call the reply a draw. (Depth 8: shallower, the
        // quiet winning moves are reduced into the quiescence search, which sees no stalemate.)
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 98 60"
        let moves = (Self.tenChecks + " i8i9").split(separator: " ").map(String.init)
        var game = Game(try Position(fen: fen))
        for m in moves { try game.play(m) }
        #expect(game.status() == .ongoing)
        let result = try search(fen, SearchLimits(depth: 8), moves: moves)
        #expect(result.bestMove == Move(iccs: "e9e8"))
        #expect(result.score == -(Score.mate - 2))
        try game.play("e9e8")
        #expect(game.status() == .ongoing)
        try game.play("i9a9")
        #expect(game.status() == .win(.red, .stalemate))
    }

    @Test func theNoCaptureLimitStillCountsTheFirstTenChecksInARow() throws {
        // The same moves from a clock of 99: Black's reply is the 120th counted ply, a draw.
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 99 60"
        let moves = (Self.tenChecks + " i8i9").split(separator: " ").map(String.init)
        let result = try search(fen, SearchLimits(depth: 8), moves: moves)
        #expect(result.bestMove == Move(iccs: "e9e8"))
        #expect(result.score == 0)
        var game = Game(try Position(fen: fen))
        for m in moves + ["e9e8"] { try game.play(m) }
        #expect(game.status() == .draw(.moveLimit))
    }

    @Test func noMoveWhenCheckmated() throws {
        let result = try search("3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1", SearchLimits(depth: 4))
        #expect(result.bestMove == nil)
    }

    @Test func freeChariotIsTaken() throws {
        // The red chariot on a5 takes the loose black chariot on e5.
        let result = try search("4k4/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1", SearchLimits(depth: 4))
        #expect(result.bestMove == Move(iccs: "a5e5"))
        #expect(result.score > 500)
    }

    @Test func insufficientMaterialIsScoredAsADraw() throws {
        // Kings, advisors and elephants only: no side can ever mate (`xiangqi status` says draw).
        let result = try search("2bak4/4a4/9/9/9/9/9/9/4A4/3AK1B2 w - - 0 1", SearchLimits(depth: 6))
        #expect(result.score == 0)
        #expect(result.bestMove != nil)
    }

    @Test func searchIsDeterministicAfterNewGame() throws {
        let engine = Engine(hashMegabytes: 4)
        var game = Game()
        try game.play("h2e2")
        engine.setGame(game)
        engine.newGame()
        let first = engine.search(SearchLimits(depth: 7))
        engine.newGame()
        let second = engine.search(SearchLimits(depth: 7))
        #expect(first.nodes == second.nodes)
        #expect(first.bestMove == second.bestMove)
        #expect(first.score == second.score)
    }

    @Test func nodeLimitIsRespectedAndAMoveIsReturned() throws {
        let result = try search(Position.startFEN, SearchLimits(nodes: 5000))
        #expect(result.bestMove != nil)
        #expect(Position.start.isLegal(result.bestMove!))
        // The node budget is checked at every node once depth 1 is complete.
        #expect(result.nodes <= 5000 && result.depth >= 2, "nodes \(result.nodes) depth \(result.depth)")
        // A budget smaller than depth 1 still completes depth 1, so a move is always returned.
        let tiny = try search(Position.startFEN, SearchLimits(nodes: 1))
        #expect(tiny.depth == 1 && tiny.nodes > 1)
        #expect(tiny.bestMove.map { Position.start.isLegal($0) } == true)
    }

    @Test func aMoveIsReturnedEvenWithNoTime() throws {
        var limits = SearchLimits(moveTime: 0)
        limits.moveOverhead = 0
        let result = try search(Position.startFEN, limits)
        #expect(result.bestMove.map { Position.start.isLegal($0) } == true)
        #expect(result.depth >= 1)
    }

    /// The clock runs from `startTime` (the protocol: when `go` arrived), so what was spent
    /// before the search is paid from the budget: a 10 s clock whose move began a minute ago
    /// gets depth 1 only, and the reported time counts the minute.
    @Test func timeBoundsCountFromTheMovesStart() throws {
        var limits = SearchLimits(clock: .init(timeLeft: 10_000, increment: 100))
        limits.startTime = MonotonicInstant.now.advanced(byMilliseconds: -60_000)
        var reportedTime = 0
        let engine = Engine(hashMegabytes: 4)
        let result = engine.search(limits) { reportedTime = max(reportedTime, $0.time) }
        #expect(result.depth == 1 && result.bestMove.map { Position.start.isLegal($0) } == true)
        #expect(reportedTime >= 60_000)
    }

    @Test func rootMovesRestrictTheChoice() throws {
        let engine = Engine(hashMegabytes: 4)
        let only = [Move(iccs: "a0a1")!, Move(iccs: "i0i1")!]
        let result = engine.search(SearchLimits(depth: 4), rootMoves: only)
        #expect(only.contains(result.bestMove!))
    }

    @Test func stopEndsAnInfiniteSearchWithALegalMove() async throws {
        let engine = Engine(hashMegabytes: 4)
        let box = ResultBox()
        engine.startSearch(SearchLimits(infinite: true), onInfo: { _ in }, onResult: { box.set($0) })
        engine.stop()
        engine.waitUntilIdle()
        let result = try #require(box.value)
        #expect(Position.start.isLegal(try #require(result.bestMove)))
    }

    @Test func infoIsReportedPerIteration() throws {
        let engine = Engine(hashMegabytes: 4)
        var depths: [Int] = []
        let result = engine.search(SearchLimits(depth: 5)) { info in
            if info.bound == .exact { depths.append(info.depth) }
            #expect(!info.principalVariation.isEmpty)
        }
        #expect(depths == [1, 2, 3, 4, 5])
        #expect(result.depth == 5)
    }
}

final class ResultBox: @unchecked Sendable {
    private var stored: SearchResult?
    private let lock = NSLockLike()
    func set(_ r: SearchResult) { lock.with { stored = r } }
    var value: SearchResult? { lock.with { stored } }
}

import Foundation
typealias NSLockLike = NSLock
extension NSLock {
    func with<T>(_ body: () -> T) -> T { lock(); defer { unlock() }; return body() }
}

@Suite struct ScoreAndTableTests {
    @Test func entriesPackAndUnpack() {
        for move in [Move.none, Move(iccs: "h2e2")!, Move(iccs: "i9i0")!] {
            for score in [-Score.mate + 3, -1234, 0, 77, Score.mate - 5] {
                for bound in [Bound.upper, .lower, .exact] {
                    let e = TTEntry(move: move, score: score, eval: -score / 2, depth: 17, bound: bound, generation: 41)
                    #expect(TTEntry(packed: e.packed) == e)
                }
            }
        }
        let shallow = TTEntry(move: .none, score: 0, eval: Score.none, depth: -3, bound: .upper, generation: 0)
        #expect(TTEntry(packed: shallow.packed) == shallow)
    }

    @Test func tableStoresAndFinds() {
        let table = TranspositionTable(megabytes: 1)
        #expect(table.probe(0x1234_5678_9ABC_DEF0) == nil)
        let engine = Engine(hashMegabytes: 1)
        _ = engine.search(SearchLimits(depth: 5))
        let entry = engine.probe(Position.start)
        #expect(entry != nil)
        #expect(entry.map { Position.start.isLegal($0.move) } == true)
    }

    /// Tables below and above 2 MB (mapped differently on Linux: huge pages from 2 MB) keep
    /// what a search stored, forget it on a new game, and work again after a resize.
    @Test(arguments: [1, 3, 17])
    func tablesOfEverySizeStoreClearAndResize(_ megabytes: Int) {
        let engine = Engine(hashMegabytes: megabytes)
        _ = engine.search(SearchLimits(depth: 5))
        #expect(engine.probe(Position.start) != nil)
        engine.newGame()
        #expect(engine.probe(Position.start) == nil)
        engine.setHashSize(megabytes: megabytes + 2)
        #expect(engine.hashMegabytes == megabytes + 2)
        _ = engine.search(SearchLimits(depth: 5))
        #expect(engine.probe(Position.start).map { Position.start.isLegal($0.move) } == true)
    }

    @Test func mateDistancesConvert() {
        #expect(Score.mateInMoves(Score.mate - 1) == 1)
        #expect(Score.mateInMoves(Score.mate - 3) == 2)
        #expect(Score.mateInMoves(-Score.mate + 2) == -1)
        #expect(!Score.isMate(900))
    }

    @Test func timeBudgetsStayInsideTheClock() {
        for left in [-5, 0, 1, 50, 300, 1000, 60_000, 600_000] {
            for inc in [0, 10, 100, 2000] {
                for movesToGo in [nil, 1, 2, 10, 40, 100] {
                    var limits = SearchLimits(clock: .init(timeLeft: left, increment: inc, movesToGo: movesToGo))
                    limits.moveOverhead = 10
                    let budget = limits.timeBudget!
                    #expect(budget.maximum <= max(1, (left - 10) * 8 / 10))
                    #expect(budget.optimum <= budget.maximum)
                    #expect(budget.optimum >= 1)
                }
            }
        }
        let fixed = SearchLimits(moveTime: 500).timeBudget!
        #expect(fixed.maximum == 490)
        #expect(SearchLimits(moveTime: 100).timeBudget!.maximum == 98)
        #expect(SearchLimits(depth: 5).timeBudget == nil)
        #expect(SearchLimits(moveTime: 100, infinite: true).timeBudget == nil)
    }

    @Test func timeManagerSpendsAShareOfWhatIsLeft() {
        // Sudden death: a fortieth of what is left after the overheads of this move and of
        // the 39 to come.
        let suddenDeath = TimeManager.budget(for: .init(timeLeft: 60_000), moveOverhead: 10)
        #expect(suddenDeath == TimeBudget(optimum: 59_600 / 40, maximum: 59_600 / 40 * 5))
        // 10 s + 0.1 s: the increment pays for the overheads, so the clock is spread over 32
        // moves, and the 31 increments to come count.
        let increment = TimeManager.budget(for: .init(timeLeft: 10_000, increment: 100), moveOverhead: 10)
        #expect(increment.optimum == (9_990 + 3_100) / 32)
        let longer = TimeManager.budget(for: .init(timeLeft: 30_000, increment: 300), moveOverhead: 10)
        #expect(longer.optimum == (29_990 + 9_300) / 32)
        // An increment below the overhead does not pay for it: sudden death's 40 moves, and
        // the increments to come only pay part of their own overheads.
        let small = TimeManager.budget(for: .init(timeLeft: 10_000, increment: 5), moveOverhead: 10)
        #expect(small.optimum == 9_990 / 40)
        // A big increment cannot make one move spend more than 30% of the clock.
        let big = TimeManager.budget(for: .init(timeLeft: 1_000, increment: 1_000), moveOverhead: 0)
        #expect(big.optimum == 300)
        #expect(big.maximum == 800)
        // movestogo 1: most of the clock, but never all of it.
        let last = TimeManager.budget(for: .init(timeLeft: 5_000, increment: 0, movesToGo: 1), moveOverhead: 0)
        #expect(last.maximum == 4_000)
        #expect(last.optimum == 1_500)
        // movestogo shares the clock among fewer moves than sudden death does.
        let control = TimeManager.budget(for: .init(timeLeft: 60_000, movesToGo: 10), moveOverhead: 0)
        #expect(control.optimum == 6_000)
        // Pondering pays for part of the search: a quarter more.
        let ponder = TimeManager.budget(for: .init(timeLeft: 60_000), moveOverhead: 0, ponder: true)
        #expect(ponder.optimum == 1_500 + 375)
        // The optimum shrinks with the clock: the opening gets more than the endgame.
        let later = TimeManager.budget(for: .init(timeLeft: 30_000), moveOverhead: 0)
        #expect(later.optimum < TimeManager.budget(for: .init(timeLeft: 60_000), moveOverhead: 0).optimum)
    }

    /// Plays a sudden-death clock out: each move costs its optimum plus `cost` milliseconds
    /// beyond the search; returns the lowest clock over `moves` moves.
    func lowestClock(start: Int, overhead: Int, cost: Int, moves: Int) -> Int {
        var clock = start, lowest = start
        for _ in 0..<moves {
            clock -= TimeManager.budget(for: .init(timeLeft: clock), moveOverhead: overhead).optimum + cost
            lowest = min(lowest, clock)
        }
        return lowest
    }

    @Test func suddenDeathKeepsTheOverheadsOfTheMovesToCome() {
        // 300 ms for the game, 10 ms overhead, each move 1 ms dearer than its optimum: 100
        // moves a side (200 plies) fit. Charging the overhead once, the shares (7 ms, then
        // less) took the clock below zero at the 90th move.
        #expect(lowestClock(start: 300, overhead: 10, cost: 1, moves: 100) > 0)
        // 60 s, each move 5 ms dearer: 150 moves fit with time to spare.
        #expect(lowestClock(start: 60_000, overhead: 10, cost: 5, moves: 150) > 200)
        // With an increment that pays the overhead nothing is kept back.
        #expect(TimeManager.budget(for: .init(timeLeft: 2_000, increment: 100), moveOverhead: 10).optimum
                == (1_990 + 3_100) / 32)
    }

    /// Plays an increment clock out with every move running to its maximum and costing `cost`
    /// milliseconds more; returns the lowest clock over `moves` moves.
    func lowestClockAtMaximum(start: Int, increment: Int, overhead: Int, cost: Int, moves: Int) -> Int {
        var clock = start, lowest = start
        for _ in 0..<moves {
            clock -= TimeManager.budget(for: .init(timeLeft: clock, increment: increment), moveOverhead: overhead).maximum + cost
            lowest = min(lowest, clock)
            clock += increment
        }
        return lowest
    }

    @Test func incrementClocksKeepAReserve() {
        // 1 s + 0.01 s, 10 ms overhead, every move at its maximum and 9 ms dearer still (a
        // loaded machine): the clock keeps the reserve of ten overheads, less those 9 ms.
        // Without the reserve it fell to 3 ms (24 ms at 10 s + 0.1 s).
        #expect(lowestClockAtMaximum(start: 1_000, increment: 10, overhead: 10, cost: 9, moves: 200) >= 100 - 9)
        // The same at 10 s + 0.1 s.
        #expect(lowestClockAtMaximum(start: 10_000, increment: 100, overhead: 10, cost: 9, moves: 200) >= 100 - 9)
        // The reserve binds only on a low clock: 1 s + 0.01 s at the start is unchanged, and
        // at 150 ms the maximum (40 ms, not 70) leaves 110 ms.
        #expect(TimeManager.budget(for: .init(timeLeft: 1_000, increment: 10), moveOverhead: 10)
                == TimeBudget(optimum: (990 + 310) / 32, maximum: (990 + 310) / 32 * 5))
        #expect(TimeManager.budget(for: .init(timeLeft: 150, increment: 10), moveOverhead: 10) == TimeBudget(optimum: 14, maximum: 40))
        // Below the reserve a move gets the least there is.
        #expect(TimeManager.budget(for: .init(timeLeft: 100, increment: 10), moveOverhead: 10) == TimeBudget(optimum: 1, maximum: 1))
    }

    @Test func timeManagerSurvivesAbsurdClocks() {
        let huge = TimeManager.budget(for: .init(timeLeft: Int.max, increment: Int.max, movesToGo: Int.max),
                                      moveOverhead: Int.max)
        #expect(huge.optimum >= 1 && huge.optimum <= huge.maximum)
        #expect(huge.maximum <= TimeManager.clockLimit)
        let negative = TimeManager.budget(for: .init(timeLeft: Int.min, increment: Int.min, movesToGo: Int.min),
                                          moveOverhead: Int.min)
        #expect(negative == TimeBudget(optimum: 1, maximum: 1))
        let zero = TimeManager.budget(for: .init(timeLeft: 0), moveOverhead: 10)
        #expect(zero == TimeBudget(optimum: 1, maximum: 1))
        var limits = SearchLimits(moveTime: Int.max)
        limits.moveOverhead = Int.max
        #expect(limits.timeBudget!.maximum >= 1)
    }

    @Test func timeManagerStretchesAndCuts() {
        let budget = TimeBudget(optimum: 1_000, maximum: 5_000)
        let calm = IterationTrend()
        #expect(TimeManager.scale(calm) == 1)
        #expect(!TimeManager.shouldStop(elapsed: 999, budget: budget, trend: calm))
        #expect(TimeManager.shouldStop(elapsed: 1_000, budget: budget, trend: calm))
        // An unstable best move stretches the optimum.
        var unstable = calm
        unstable.bestMoveChanges = 1
        #expect(TimeManager.scale(unstable) == 2.5)
        #expect(!TimeManager.shouldStop(elapsed: 2_000, budget: budget, trend: unstable))
        // A falling score stretches it too; a rising one cuts it.
        var falling = calm
        falling.dropSincePreviousMove = 40
        #expect(TimeManager.scale(falling) > 1.3)
        var rising = calm
        rising.dropSincePreviousMove = -40
        #expect(TimeManager.scale(rising) == 0.7)
        // A best move that has held for many iterations and takes most nodes cuts it.
        var settled = calm
        settled.stableIterations = 8
        settled.bestMoveNodeShare = 0.95
        #expect(TimeManager.scale(settled) == 0.75 * 0.75)
        #expect(TimeManager.shouldStop(elapsed: 600, budget: budget, trend: settled))
        // The scale stays within bounds whatever the trend.
        var wild = calm
        wild.bestMoveChanges = 100
        wild.dropSincePreviousMove = 10_000
        #expect(TimeManager.scale(wild) == 3)
    }
}

@Suite struct RuleSearchTests {
    /// A score that is no loss or win by rule and no mate.
    static func isOrdinary(_ score: Int) -> Bool { abs(score) < Score.ruleWin - Score.maxPly }

    @Test func aLosingPerpetualCheckIsBroken() throws {
        // Red, a chariot against chariot, horse and cannon, has checked twice and the position
        // is back: a8a9 again would be a draw if repetition were only a draw, but it completes
        // a perpetual-check cycle, which loses by rule. Red must take the worse but real game.
        let result = try search("4k4/R8/9/7r1/2n4c1/9/9/4B4/4A4/3AK1B2 w - - 0 1", SearchLimits(depth: 8),
                                moves: ["a8a9", "e9e8", "a9a8", "e8e9"])
        #expect(result.bestMove != Move(iccs: "a8a9"))
        #expect(result.score < 0 && Self.isOrdinary(result.score))
    }

    @Test func aLosingPerpetualChaseIsBroken() throws {
        // Red, a material down, has chased Black's unprotected cannon round a cycle; d8c8 again
        // would make Red the perpetual chaser.
        let result = try search("5k3/3R5/9/6r2/9/7n1/2c6/4B4/4A4/3AK1B2 w - - 0 1", SearchLimits(depth: 8),
                                moves: ["d8c8", "c3d3", "c8d8", "d3c3"])
        #expect(result.bestMove != Move(iccs: "d8c8"))
        #expect(result.score < 0 && Self.isOrdinary(result.score))
    }

    /// Red's chariot has chased Black's unprotected cannon round a cycle (d8c8, c3d3, c8d8,
    /// d3c3): the cannon must keep running or be lost.
    static let chaseFEN = "5k3/3R5/9/9/9/9/2c6/9/9/4K4 w - - 0 1"
    static let chaseMoves = ["d8c8", "c3d3", "c8d8", "d3c3"]

    @Test func thePursuerKeepsThePressureWithoutLosingByRule() throws {
        // Repeating d8c8 would make Red the perpetual chaser; Red must attack another way and
        // stay clearly ahead (a chariot against a cannon), not walk into a loss by rule.
        let result = try search(Self.chaseFEN, SearchLimits(depth: 8), moves: Self.chaseMoves)
        #expect(result.bestMove != Move(iccs: "d8c8"))
        #expect(result.score > 300)
    }

    @Test func theChasedSideRepeatsToWinByRule() throws {
        // Black, a cannon against a chariot, is chased again: running back (c3d3) repeats the
        // cycle with Red as the perpetual chaser, a win by rule that Black must not miss.
        let result = try search(Self.chaseFEN, SearchLimits(depth: 8), moves: Self.chaseMoves + ["d8c8"])
        #expect(result.bestMove == Move(iccs: "c3d3"))
        #expect(result.score >= Score.ruleWin - Score.maxPly)
    }
}

@Suite struct SkillLevelTests {
    static func line(_ iccs: String, _ score: Int) -> RootLine {
        RootLine(move: Move(iccs: iccs)!, score: score, principalVariation: [Move(iccs: iccs)!])
    }

    @Test func fromLevelFiveAPieceIsNeverThrownAway() {
        // The third move loses a horse (about 400 cp): never chosen from level 5 up.
        let lines = [Self.line("h2e2", 20), Self.line("b2e2", -30), Self.line("h0g2", -380)]
        var random = SeededGenerator(seed: 9)
        for level in 5...19 {
            for _ in 0..<300 {
                #expect(SkillLevel(level).choose(from: lines, using: &random)?.move.iccs != "h0g2")
            }
        }
        // A beginner plays the second-best move now and then; level 20 always plays the best.
        let beginner = (0..<300).compactMap { _ in SkillLevel(0).choose(from: lines, using: &random)?.move.iccs }
        #expect(beginner.contains("b2e2"))
        #expect(beginner.contains("h2e2"))
        #expect((0..<50).allSatisfy { _ in SkillLevel(20).choose(from: lines, using: &random)?.move.iccs == "h2e2" })
    }

    @Test func lowerLevelsSearchLessAndAnswerWithinTheirTimeCap() {
        let timed = [SearchLimits(clock: .init(timeLeft: 600_000, increment: 5000)), SearchLimits(moveTime: 60_000),
                     SearchLimits(moveTime: 60_000, clock: .init(timeLeft: 3_600_000))]
        for level in 0..<20 {
            let skill = SkillLevel(level)
            #expect(skill.maxTime <= 1000)
            for base in timed + [SearchLimits(depth: 30), SearchLimits(nodes: 10_000_000)] {
                let limits = skill.limits(base)
                #expect(limits.depth! <= skill.maxDepth)
                #expect(limits.nodes! <= skill.maxNodes)
            }
            // Timed searches end within the level's cap whatever the clock says.
            for base in timed { #expect(skill.limits(base).timeBudget!.maximum <= skill.maxTime) }
            // Depth- or node-bounded searches stay reproducible (bounded by the node cap);
            // analysis (infinite) runs until stopped.
            #expect(skill.limits(SearchLimits(depth: 30)).timeBudget == nil)
            #expect(skill.limits(SearchLimits(infinite: true)).timeBudget == nil)
        }
        #expect(SkillLevel(20).limits(SearchLimits(moveTime: 60_000)) == SearchLimits(moveTime: 60_000))
        #expect(SkillLevel(-3).level == 0 && SkillLevel(99).level == 20)
        for level in 1...20 {
            #expect(SkillLevel(level).maxNodes > SkillLevel(level - 1).maxNodes)
            #expect(SkillLevel(level).maxDepth >= SkillLevel(level - 1).maxDepth)
        }
    }

    @Test func everyLevelPlaysALegalMoveWithALegalReply() throws {
        // The level's re-pick among candidate lines must keep the move and its expected reply
        // legal (a reply from another line would be illegal after the chosen move).
        let engine = Engine(hashMegabytes: 2)
        for level in [0, 2, 5, 9, 14, 19] {
            engine.skill = SkillLevel(level)
            engine.setSeed(UInt64(level + 1))
            for fen in [benchPositions[3], benchPositions[10], benchPositions[20]] {
                let position = try Position(fen: fen)
                for _ in 0..<3 {
                    let result = engine.search(SearchLimits(depth: 6), game: Game(position))
                    let move = try #require(result.bestMove, "level \(level): no move in \(fen)")
                    #expect(position.legalMoves.contains(move), "level \(level): \(move.iccs) in \(fen)")
                    if let reply = result.ponderMove {
                        var after = position
                        _ = after.make(move)
                        #expect(after.legalMoves.contains(reply), "level \(level): reply \(reply.iccs) after \(move.iccs)")
                    }
                }
            }
        }
    }

    @Test func levelZeroMissesWhatLevelTwentyFinds() throws {
        // Forced mates in 4 from the shared tactics collection, each with one winning first move.
        let mates = [
            ("3akab2/9/4c1n2/p1p1nR2p/4r4/2P6/P4RN1P/1Cc3C2/4AK3/2BA3r1 w - - 0 1", "f6f9"),
            ("n2ak1b2/C3a4/2P1b4/1N3R3/8p/9/1c4p2/3A5/4AK3/2r6 w - - 0 1", "b6d7"),
            ("4kab2/1c2n1c2/3rb4/p2N1R2p/9/9/P1R5P/B3C4/9/1r1AKAB2 w - - 0 1", "c3c9"),
            ("2C1ka3/4a4/9/4rn3/2pNc4/3n1r3/9/4BA3/5K3/1R1A2R2 b - - 0 1", "f4f2"),
            ("C3kabR1/4a4/1cN1b4/4p3p/6p2/P1P1c4/6n2/2C3N2/2n1A4/1rBK1A3 w - - 0 1", "c7d9"),
            ("2bakaRC1/9/n8/p2c4p/6p2/6P2/P6rP/3rc1N2/5R3/3AK4 b - - 0 1", "d2d0"),
            ("2b1ka3/9/4bN3/p7p/2P3p2/9/P3P3P/9/3RK1n2/3r1ABc1 b - - 0 1", "e9e8"),
            ("2rk1ab2/4a4/3cbNc2/9/p4P1np/4C4/P3N4/4B4/3R5/2BAKA3 w - - 0 1", "d1d7"),
            ("4k4/1n1P5/4b4/p7p/4N1b2/4r4/P2R4P/4B4/4An3/2B1KA3 w - - 0 1", "e5f7"),
            ("1R1a2R2/4ak3/4P4/9/9/9/5r3/4B4/4C4/2B1K4 w - - 0 1", "e7e8"),
        ]
        var misses = 0
        for (fen, best) in mates {
            let strong = Engine(hashMegabytes: 4)
            strong.setGame(Game(try Position(fen: fen)))
            #expect(strong.search(SearchLimits(depth: 12)).bestMove?.iccs == best)
            let weak = Engine(hashMegabytes: 4)
            weak.skill = SkillLevel(0)
            weak.setSeed(1)
            weak.setGame(Game(try Position(fen: fen)))
            if weak.search(SearchLimits(depth: 10)).bestMove?.iccs != best { misses += 1 }
        }
        // Level 0 (4 plies, 4,000 nodes) still starts many of these with the natural check;
        // with seed 1 it plays another first move in 3 of the 10.
        #expect(misses >= 3)
    }

    @Test func aSeededGameIsReproducible() throws {
        func selfPlay(seed: UInt64, level: Int) throws -> [String] {
            let engine = Engine(hashMegabytes: 4)
            engine.skill = SkillLevel(level)
            engine.setSeed(seed)
            var game = Game()
            for _ in 0..<30 {
                engine.setGame(game)
                guard let move = engine.search(SearchLimits(depth: 30)).bestMove else { break }
                try game.play(move)
            }
            return game.moves.map(\.iccs)
        }
        let first = try selfPlay(seed: 42, level: 3)
        #expect(try selfPlay(seed: 42, level: 3) == first)
        #expect(try selfPlay(seed: 43, level: 3) != first)
    }

    /// Each depth reports every line once, best first (a later line that scores above an
    /// earlier one moves up), and the best line's move is the one played.
    @Test func multiPVReportsDistinctLinesBestFirst() throws {
        let engine = Engine(hashMegabytes: 4)
        engine.searchOptions.multiPV = 3
        for fen in [Position.startFEN, benchPositions[3], benchPositions[10], benchPositions[20]] {
            var reports: [Int: [SearchInfo]] = [:]
            let result = engine.search(SearchLimits(depth: 6), game: Game(try Position(fen: fen))) { info in
                if info.bound == .exact { reports[info.depth, default: []].append(info) }
            }
            for depth in 1...6 {
                let lines = try #require(reports[depth], "\(fen) depth \(depth)")
                #expect(lines.map(\.multiPV) == [1, 2, 3], "\(fen) depth \(depth)")
                #expect(lines.map(\.score) == lines.map(\.score).sorted(by: >), "\(fen) depth \(depth)")
                #expect(Set(lines.compactMap(\.principalVariation.first)).count == 3, "\(fen) depth \(depth)")
            }
            let moves = reports[6]!.compactMap(\.principalVariation.first)
            #expect(result.lines.map(\.move) == moves)
            #expect(result.bestMove == moves[0])
        }
    }
}
