import Foundation
import Testing
import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// The decision path an app uses without the protocol layer: book, search, draw offers,
/// hints, evaluation bar, async with cancellation.
@Suite struct DecisionTests {
    static let defaultBook = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../books/xiangqi-book.sqlite").standardized.path
    /// Red to move, mated soon by Black's chariot; and Red a chariot up.
    static let lost = "5k3/9/9/9/9/9/9/9/r8/3K5 w - - 0 1"
    static let won = "5k3/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"

    @Test func theBookAnswersTheOpeningWithAScoreAndItsSource() throws {
        let engine = Engine(hashMegabytes: 2)
        let book = BookPlayer(paths: [Self.defaultBook])
        book.setSeed(3)
        var warnings: [String] = []
        let decision = engine.decide(MoveRequest(game: Game(), limits: SearchLimits(depth: 6)), book: book,
                                     warnings: &warnings)
        #expect(warnings.isEmpty)
        let move = try #require(decision.move)
        #expect(Position.start.legalMoves.contains(move))
        let source = try #require(decision.book)
        #expect(source.book == "xiangqi-book.sqlite")
        #expect(source.games >= 3)
        #expect(abs(decision.score) < 200)
        #expect(decision.chances.win + decision.chances.draw + decision.chances.loss == 1000)
        #expect(decision.principalVariation.first == move)
        #expect(decision.nodes == 0)
        // An infinite search is never answered from the book.
        book.enabled = true
        var limits = SearchLimits(depth: 3)
        limits.infinite = false
        limits.mate = 3
        let mateSearch = engine.decide(MoveRequest(game: Game(), limits: limits), book: book, warnings: &warnings)
        #expect(mateSearch.book == nil)
    }

    @Test func withoutABookTheSearchDecides() throws {
        let engine = Engine(hashMegabytes: 2)
        var warnings: [String] = []
        let game = Game(try Position(fen: benchPositions[2]))
        var depths: [Int] = []
        let decision = engine.decide(MoveRequest(game: game, limits: SearchLimits(depth: 6)), warnings: &warnings) {
            depths.append($0.depth)
        }
        let move = try #require(decision.move)
        #expect(game.position.legalMoves.contains(move))
        #expect(decision.book == nil)
        #expect(decision.depth == 6 && depths.last == 6)
        #expect(decision.principalVariation.first == move)
        #expect(decision.nodes > 0)
        #expect(!decision.acceptsDraw)
        // Only the allowed moves are chosen among.
        let allowed = Array(game.position.legalMoves.filter { $0 != move }.prefix(3))
        let restricted = engine.decide(MoveRequest(game: game, limits: SearchLimits(depth: 4), rootMoves: allowed),
                                       warnings: &warnings)
        #expect(restricted.move.map(allowed.contains) == true)
    }

    @Test func drawOffersAreAcceptedWhenLosingAndDeclinedWhenWinning() throws {
        let engine = Engine(hashMegabytes: 2)
        var warnings: [String] = []
        func decide(_ fen: String, offered: Bool) throws -> MoveDecision {
            engine.decide(MoveRequest(game: Game(try Position(fen: fen)), limits: SearchLimits(depth: 4),
                                      drawOffered: offered), warnings: &warnings)
        }
        #expect(try decide(Self.lost, offered: true).acceptsDraw)
        #expect(try !decide(Self.lost, offered: false).acceptsDraw)
        #expect(try !decide(Self.won, offered: true).acceptsDraw)
        #expect(Engine.acceptsDraw(score: 0) && Engine.acceptsDraw(score: -Score.mate + 4) && !Engine.acceptsDraw(score: 300))
    }

    @Test func hintsAndTheEvaluationBarPlayAtFullStrength() throws {
        let game = Game(try Position(fen: benchPositions[5]))
        let full = Engine(hashMegabytes: 2)
        let expected = full.search(SearchLimits(depth: 7), game: game)
        let beginner = Engine(hashMegabytes: 2)
        beginner.skill = SkillLevel(0)
        beginner.setSeed(5)
        let hint = beginner.hint(for: game, limits: SearchLimits(depth: 7))
        #expect(hint.move == expected.bestMove)
        #expect(hint.score == expected.score)
        // The bar is from Red's side whoever is to move.
        let redToMove = beginner.evaluation(of: Game(try Position(fen: Self.won)), limits: SearchLimits(depth: 4))
        let blackToMove = beginner.evaluation(of: Game(try Position(fen: "5k3/R8/9/9/9/9/9/9/9/3K5 b - - 0 1")),
                                              limits: SearchLimits(depth: 4))
        #expect(redToMove.redScore > 500 && blackToMove.redScore > 500)
        #expect(redToMove.redChances.win > 900)
    }

    @Test func cancellingTheTaskStopsTheSearch() async throws {
        let engine = Engine(hashMegabytes: 2)
        engine.setThreadCount(2)
        let game = Game(try Position(fen: benchPositions[8]))
        let task = Task { await engine.decide(MoveRequest(game: game, limits: SearchLimits(infinite: true))) }
        while !engine.isSearching { await Task.yield() }
        task.cancel()
        let decision = await task.value
        let move = try #require(decision.move)
        #expect(game.position.legalMoves.contains(move))
        engine.waitUntilIdle()
        #expect(!engine.isSearching)
        // The engine serves the next request as usual.
        let next = await engine.decide(MoveRequest(game: game, limits: SearchLimits(depth: 3)))
        #expect(next.depth == 3)
    }

    /// The async hint and evaluation search at full strength off the caller's thread, and a
    /// cancelled task stops them within a node batch with the best found so far.
    @Test(.timeLimit(.minutes(2))) func asyncHintAndEvaluationAreCancellable() async throws {
        let engine = Engine(hashMegabytes: 2)
        engine.skill = SkillLevel(0)   // a hint ignores the level
        let game = Game(try Position(fen: benchPositions[8]))
        let hint = await engine.hint(for: game, limits: SearchLimits(depth: 6))
        #expect(hint.depth == 6 && hint.move.map(game.position.legalMoves.contains) == true)
        let bar = await engine.evaluation(of: game, limits: SearchLimits(depth: 5))
        #expect(bar.redChances.win + bar.redChances.draw + bar.redChances.loss == 1000)
        // Infinite limits end only by cancellation.
        let task = Task { await engine.hint(for: game, limits: SearchLimits(infinite: true)) }
        while !engine.isSearching { await Task.yield() }
        task.cancel()
        let stopped = await task.value
        #expect(stopped.move.map(game.position.legalMoves.contains) == true)
        let evaluation = Task { await engine.evaluation(of: game, limits: SearchLimits(infinite: true)) }
        while !engine.isSearching { await Task.yield() }
        evaluation.cancel()
        _ = await evaluation.value
        engine.waitUntilIdle()
        #expect(!engine.isSearching)
    }

    /// Live analysis: a report per line of each iteration (MultiPV lines too), every line
    /// legal, ending with the search; a consumer that stops iterating stops the search.
    @Test(.timeLimit(.minutes(2))) func analysisStreamsLinesAndStopsWithItsConsumer() async throws {
        let engine = Engine(hashMegabytes: 2)
        engine.searchOptions.multiPV = 3
        let game = Game(try Position(fen: benchPositions[8]))
        var reports: [AnalysisReport] = []
        for await report in engine.analysis(of: game, limits: SearchLimits(depth: 5)) { reports.append(report) }
        #expect(reports.last?.line.depth == 5)
        #expect(Set(reports.filter { $0.line.depth == 5 && $0.line.bound == .exact }.map(\.line.multiPV)) == [1, 2, 3])
        for report in reports {
            var position = game.position
            for move in report.line.principalVariation {
                #expect(position.isLegal(move))
                _ = position.make(move)
            }
            #expect(report.redScore == (game.position.sideToMove == .red ? report.line.score : -report.line.score))
        }
        // An infinite analysis ends when its consumer stops.
        var seen = 0
        for await _ in engine.analysis(of: game) {
            seen += 1
            if seen == 2 { break }
        }
        engine.waitUntilIdle()
        #expect(!engine.isSearching && seen == 2)
    }

    @Test func theReadmeExampleRuns() async throws {
        // The README's "Embedding" lines, as written there.
        let bundledBookBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.defaultBook)))
        let engine = Engine(hashMegabytes: 8)
        engine.skill = SkillLevel(StrengthLadder.level(forElo: 1300))   // or SkillLevel(0...20)
        let book = BookPlayer(paths: [])
        book.setBooks([try OpeningBook(bytes: bundledBookBytes, name: "book.sqlite")])
        var game = Game()
        var limits = SearchLimits()
        limits.clock = SearchLimits.Clock(timeLeft: 120_000, increment: 1000)
        let decision = await engine.decide(MoveRequest(game: game, limits: limits), book: book)
        let hint = await engine.hint(for: game, limits: SearchLimits(depth: 5))
        let bar = await engine.evaluation(of: game, limits: SearchLimits(depth: 5)).redChances
        var depths: [Int] = []
        for await report in engine.analysis(of: game, limits: SearchLimits(depth: 4)) {
            depths.append(report.line.depth)   // the README prints depth, score and line
        }
        #expect(depths.last == 4)
        try game.play(decision.move!)
        #expect(decision.book?.book == "book.sqlite")
        #expect(hint.move.map(Position.start.legalMoves.contains) == true)
        #expect(bar.win + bar.draw + bar.loss == 1000)
        #expect(game.moves.count == 1)
    }
}

/// The engine's policy for UCCI's style, randomness, knowledge and pruning words.
@Suite struct PlayingStyleTests {
    @Test func stylesAndLevelsSetTheEngine() {
        #expect(PlayingStyle.allCases.map(\.contempt) == [-15, 0, 25])
        #expect(Randomness.allCases.map(\.noiseAmplitude) == [0, 5, 10, 20, 40, 80])
        #expect(EffortLevel.allCases.map(\.knowledge) == [.material, .tables, .full, .full])
        #expect(EffortLevel.allCases.map(\.prunes) == [false, true, true, true])
        let engine = Engine(hashMegabytes: 1)
        engine.setStyle(.risky)
        #expect(engine.searchOptions.contempt == 25)
        engine.setRandomness(.large, seed: 7)
        #expect(engine.evaluator.noiseAmplitude == 40 && engine.evaluator.noiseSeed == Engine.noiseSeed(for: 7))
        // A game seed gives the same noise again; seed 0 a fresh one each time.
        #expect(Engine.noiseSeed(for: 7) == Engine.noiseSeed(for: 7) && Engine.noiseSeed(for: 7) != Engine.noiseSeed(for: 8))
        #expect(Engine.noiseSeed(for: 0) != 0)
    }
}
