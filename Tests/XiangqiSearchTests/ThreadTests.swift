import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// Lazy SMP: searches with helper threads (more threads than this machine's cores too).
@Suite struct ThreadTests {
    /// Three middlegames from the bench (master games, after 10 to 15 moves).
    static let middlegames = [benchPositions[1], benchPositions[8], benchPositions[14]]

    @Test(arguments: [2, 4, 8])
    func threadedSearchReturnsALegalMoveAndASaneScore(threads: Int) throws {
        let engine = Engine(hashMegabytes: 4)
        engine.setThreadCount(threads)
        #expect(engine.threadCount == threads)
        for fen in Self.middlegames {
            let position = try Position(fen: fen)
            engine.newGame()
            engine.setGame(Game(position))
            var depths: [Int] = []
            let result = engine.search(SearchLimits(depth: 7)) { depths.append($0.depth) }
            let move = try #require(result.bestMove)
            #expect(position.legalMoves.contains(move), "\(fen): \(move.iccs)")
            #expect(abs(result.score) < 600, "\(fen): \(result.score)")
            #expect(result.depth >= 7)
            #expect(depths.last == result.depth)
            if let ponder = result.ponderMove {
                var after = position
                _ = after.make(move)
                #expect(after.legalMoves.contains(ponder))
            }
        }
    }

    @Test(arguments: [2, 4])
    func threadedSearchFindsTheMate(threads: Int) throws {
        let engine = Engine(hashMegabytes: 4)
        engine.setThreadCount(threads)
        engine.setGame(Game(try Position(fen: "5kr2/2CRc1R2/4b1nr1/p3p3p/9/9/P3P3P/9/4A4/2B1KAB2 w - - 0 1")))
        let result = engine.search(SearchLimits(depth: 8))
        #expect(result.bestMove == Move(iccs: "g8e8"))
        #expect(Score.mateInMoves(result.score) == 2)
    }

    @Test func aNodeLimitCountsEveryThread() throws {
        let engine = Engine(hashMegabytes: 4)
        engine.setThreadCount(4)
        engine.setGame(Game(try Position(fen: Self.middlegames[0])))
        let result = engine.search(SearchLimits(nodes: 200_000))
        #expect(result.bestMove != nil)
        // Each thread publishes its count every 256 nodes, so the total passes the limit by at
        // most a few hundred nodes per thread (plus the first iteration, which always completes).
        #expect(result.nodes >= 200_000)
        #expect(result.nodes < 200_000 + 4 * 2048)
    }

    @Test func oneThreadSearchesExactlyAsBefore() throws {
        // With Threads 1 the search is the bench's: two runs after newGame are identical, and
        // going to 4 threads and back changes nothing.
        let engine = Engine(hashMegabytes: 4)
        let position = try Position(fen: Self.middlegames[1])
        engine.setGame(Game(position))
        engine.newGame()
        let first = engine.search(SearchLimits(depth: 8))
        engine.setThreadCount(4)
        engine.setThreadCount(1)
        engine.newGame()
        let second = engine.search(SearchLimits(depth: 8))
        #expect(first.nodes == second.nodes)
        #expect(first.bestMove == second.bestMove)
        #expect(first.score == second.score)
    }

    @Test func skillLevelsSearchWithOneThread() throws {
        // A level's node cap is per game: with helpers it would play stronger than its level.
        let engine = Engine(hashMegabytes: 4)
        engine.setThreadCount(4)
        engine.skill = SkillLevel(5)
        engine.setSeed(7)
        engine.setGame(Game(try Position(fen: Self.middlegames[0])))
        let threaded = engine.search(SearchLimits(depth: 20))
        engine.setThreadCount(1)
        engine.setSeed(7)
        let single = engine.search(SearchLimits(depth: 20))
        #expect(threaded.nodes == single.nodes)
        #expect(threaded.bestMove == single.bestMove)
    }

    @Test func depthsAreSpreadOverHelpers() {
        // The main thread searches every depth; helpers 1 and 2 take odd and even depths.
        #expect((1...20).allSatisfy { !SearchThreadGroup.skipsDepth($0, thread: 0) })
        let helper1 = (1...8).filter { !SearchThreadGroup.skipsDepth($0, thread: 1) }
        let helper2 = (1...8).filter { !SearchThreadGroup.skipsDepth($0, thread: 2) }
        #expect(Set(helper1).isDisjoint(with: helper2))
        #expect(Set(helper1).union(helper2) == Set(1...8))
        // Every helper searches at least a third of all depths.
        for thread in 1...40 {
            #expect((1...24).filter { !SearchThreadGroup.skipsDepth($0, thread: thread) }.count >= 8)
        }
    }

    @Test func theVotePrefersDepthAndScoreAndAProvenMate() {
        let a = Move(iccs: "h2e2")!, b = Move(iccs: "b2e2")!, c = Move(iccs: "h0g2")!
        func result(_ move: Move, _ score: Int, _ depth: Int) -> SearchResult {
            SearchResult(bestMove: move, ponderMove: nil, score: score, depth: depth, nodes: 0)
        }
        // Two helpers agree on b at the same depth: their votes outweigh the main thread's a.
        #expect(SearchThreadGroup.chooseResult([result(a, 30, 12), result(b, 35, 12), result(b, 32, 12)]) == 1)
        // A deeper main thread with a better score keeps its move.
        #expect(SearchThreadGroup.chooseResult([result(a, 60, 14), result(b, 20, 10)]) == 0)
        // A mate found by a helper is played, and the shortest one among mates.
        #expect(SearchThreadGroup.chooseResult([result(a, 50, 14), result(c, Score.mate - 7, 9)]) == 1)
        #expect(SearchThreadGroup.chooseResult([result(a, Score.mate - 7, 14), result(c, Score.mate - 3, 9)]) == 1)
        // Helpers that outvote the main thread from a shallower depth do not win: a depth-N
        // search answers with a depth-N result.
        #expect(SearchThreadGroup.chooseResult([result(a, 30, 12), result(b, 35, 11), result(b, 32, 11)]) == 0)
        // A thread that completed no iteration has no vote.
        #expect(SearchThreadGroup.chooseResult([result(a, 10, 5), result(c, 900, 0)]) == 0)
    }

    @Test func theEngineCanBeDrivenFromManyThreadsAtOnce() throws {
        // Six threads at once: searches (blocking and in the background, threaded and not),
        // and changes of level, options, evaluation, hash size, thread count and game. Every
        // search must end with a legal move of the position it was given; run under
        // bench/scripts/tsan.sh, none of it may race.
        let engine = Engine(hashMegabytes: 2)
        let positions = try Self.middlegames.map { try Position(fen: $0) }
        let log = Latch()
        let work: [@Sendable () -> Void] = [
            {
                for i in 0..<6 {
                    // The game is given with the search: another thread may set one meanwhile.
                    let position = positions[i % 3]
                    engine.setGame(Game(position))
                    log.check(position, engine.search(SearchLimits(depth: 5), game: Game(position)).bestMove)
                }
            },
            {
                for i in 0..<6 {
                    let position = positions[(i + 1) % 3]
                    let searched = Latch()
                    engine.startSearch(SearchLimits(nodes: 20_000), game: Game(position), onInfo: { _ in }, onResult: { result in
                        log.check(position, result.bestMove)
                        searched.countDown()
                    })
                    searched.wait(for: 1)
                }
            },
            {
                for level in [3, 20, 10, 20, 1, 20] {
                    engine.skill = SkillLevel(level)
                    engine.searchOptions.multiPV = level == 20 ? 1 : 2
                }
            },
            {
                for size in [1, 4, 2, 3] { engine.setHashSize(megabytes: size) }
            },
            {
                for threads in [3, 1, 2, 4, 1] { engine.setThreadCount(threads) }
            },
            {
                for i in 0..<8 {
                    var evaluator = engine.evaluator
                    evaluator.noiseAmplitude = i % 2 == 0 ? 0 : 10
                    engine.evaluator = evaluator
                    _ = engine.hashfull
                    _ = engine.probe(positions[i % 3])
                    _ = engine.isSearching
                    if i == 4 { engine.newGame() }
                }
            },
        ]
        for body in work {
            startThread(stackSize: 64 << 20) {
                body()
                log.countDown()
            }
        }
        log.wait(for: work.count)
        #expect(log.illegalMoves.isEmpty, "\(log.illegalMoves)")
        #expect(log.checked == 12)
        #expect(engine.threadCount == 1)
        #expect(engine.hashMegabytes == 3)
    }
}

/// A count of finished tasks that can be waited for, and the moves checked for legality.
final class Latch: @unchecked Sendable {
    // Everything is guarded by `lock`.
    private let lock = Lock()
    private var count = 0
    private var checks = 0
    private var illegal: [String] = []

    func countDown() {
        lock.withLock { count += 1; lock.broadcast() }
    }

    func wait(for n: Int) {
        lock.withLock { while count < n { lock.wait() } }
    }

    func check(_ position: Position, _ move: Move?) {
        let legal = move.map { position.legalMoves.contains($0) } ?? false
        lock.withLock {
            checks += 1
            if !legal { illegal.append("\(position.fen) \(move?.iccs ?? "none")") }
        }
    }

    var checked: Int { lock.withLock { checks } }
    var illegalMoves: [String] { lock.withLock { illegal } }
}
