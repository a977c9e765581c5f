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
        let hint = engine.hint(for: game, limits: SearchLimits(depth: 5))
        let bar = engine.evaluation(of: game, limits: SearchLimits(depth: 5)).redChances
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
