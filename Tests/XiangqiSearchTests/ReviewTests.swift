import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// Game review: each move judged against the engine's best, classes and accuracy; the async
/// form cancellable; a companion engine beside a searching one.
@Suite struct ReviewTests {
    /// Red a chariot against a soldier: Red's chariot attacks the soldier, Black steps its king
    /// instead of saving the soldier, and Red puts the chariot beside the soldier, which takes it.
    static func blunderedChariot() throws -> Game {
        var game = Game(try Position(fen: "5k3/9/9/9/9/4p4/9/9/9/R2K5 w - - 0 1"))
        for move in ["a0a4", "f9f8", "a4d4", "e4d4"] { try game.play(move) }
        return game
    }

    @Test func aBlunderIsMarkedAndTheBestMoveNamed() throws {
        let engine = Engine(hashMegabytes: 2)
        engine.setNetwork(NetworkFile.builtIn)
        let game = try Self.blunderedChariot()
        var progress: [ReviewProgress] = []
        let review = engine.review(game, limits: SearchLimits(depth: 8)) { progress.append($0) }
        #expect(review.isComplete && review.moves.count == 4)
        #expect(progress.map(\.judged) == [1, 2, 3, 4] && progress.allSatisfy { $0.total == 4 })
        #expect(review.moves.map(\.side) == [.red, .black, .red, .black])
        let blunder = review.moves[2]
        #expect(blunder.move == Move(iccs: "a4d4"))
        #expect(blunder.moveClass == .blunder && blunder.moveClass.annotation == "??")
        #expect(blunder.bestMove != nil && blunder.bestMove != blunder.move)
        #expect(blunder.loss >= 0.3 && blunder.expectedBefore > 0.9)
        #expect(blunder.scoreBefore > 500 && blunder.scoreAfter < blunder.scoreBefore - 500)
        #expect(blunder.bestLine.first == blunder.bestMove)
        // Taking the chariot is the only sensible reply.
        #expect(review.moves[3].moveClass == .best && review.moves[3].loss == 0)
        for judgement in review.moves {
            #expect(judgement.loss >= 0 && judgement.loss <= 1)
            #expect(judgement.accuracy > 0 && judgement.accuracy <= 100)
            #expect(abs(judgement.loss - max(0, judgement.expectedBefore - judgement.expectedAfter)) < 1e-9
                    || judgement.moveClass == .best)
        }
        let red = try #require(review.accuracy(of: .red)), black = try #require(review.accuracy(of: .black))
        #expect(red < black)
        #expect(review.count(of: .blunder, for: .red) == 1 && review.count(of: .blunder, for: .black) == 0)
        // After the soldier takes the chariot, Red has a bare king: Black is at least level.
        #expect(try #require(review.finalRedScore) <= 0)
    }

    @Test func classesFollowTheLossThresholds() {
        #expect(MoveClass.classify(loss: 0.9, isEngineChoice: true) == .best)
        #expect(MoveClass.classify(loss: 0, isEngineChoice: false) == .excellent)
        #expect(MoveClass.classify(loss: 0.0399, isEngineChoice: false) == .excellent)
        #expect(MoveClass.classify(loss: 0.04, isEngineChoice: false) == .good)
        #expect(MoveClass.classify(loss: 0.1299, isEngineChoice: false) == .good)
        #expect(MoveClass.classify(loss: 0.13, isEngineChoice: false) == .inaccuracy)
        #expect(MoveClass.classify(loss: 0.2, isEngineChoice: false) == .mistake)
        #expect(MoveClass.classify(loss: 0.2999, isEngineChoice: false) == .mistake)
        #expect(MoveClass.classify(loss: 0.3, isEngineChoice: false) == .blunder)
        #expect(MoveClass.classify(loss: 1, isEngineChoice: false) == .blunder)
        #expect(MoveClass.allCases.sorted() == MoveClass.allCases)
        #expect(MoveClass.allCases.compactMap(\.annotation) == ["?!", "?", "??"])
    }

    /// At node limits a review is reproducible, and the async form gives the blocking one's
    /// judgements.
    @Test(.timeLimit(.minutes(2))) func reviewsAreReproducibleAndTheAsyncFormAgrees() async throws {
        let engine = Engine(hashMegabytes: 2)
        engine.setNetwork(NetworkFile.builtIn)
        var game = Game()
        for move in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"] { try game.play(move) }
        let limits = SearchLimits(nodes: 3_000)
        let first = blockingReview(engine, game, limits)
        let second = blockingReview(engine, game, limits)
        let third = await engine.review(game, limits: limits)
        for review in [second, third] {
            #expect(review.isComplete)
            #expect(review.moves.map(\.scoreAfter) == first.moves.map(\.scoreAfter))
            #expect(review.moves.map(\.moveClass) == first.moves.map(\.moveClass))
            #expect(review.moves.map(\.bestMove) == first.moves.map(\.bestMove))
        }
    }

    @Test(.timeLimit(.minutes(2))) func cancellingAReviewEndsItWithTheMovesJudgedSoFar() async throws {
        let engine = Engine(hashMegabytes: 2)
        let game = try Self.blunderedChariot()
        // Depth 60 per position: only the cancellation can end it.
        let task = Task { await engine.review(game, limits: SearchLimits(depth: 60)) }
        while !engine.isSearching { await Task.yield() }
        task.cancel()
        let review = await task.value
        #expect(!review.isComplete && review.moves.isEmpty)
        engine.waitUntilIdle()
        #expect(!engine.isSearching)
    }

    /// A companion shares the network and options and searches while its engine searches.
    @Test(.timeLimit(.minutes(2))) func aCompanionHintsWhileItsEngineThinks() async throws {
        let engine = Engine(hashMegabytes: 2)
        engine.setNetwork(NetworkFile.builtIn)
        engine.searchOptions.multiPV = 2
        let companion = engine.companion(hashMegabytes: 1)
        #expect(companion.evaluator.network === engine.evaluator.network)
        #expect(companion.searchOptions.multiPV == 2 && companion.hashMegabytes == 1 && companion.threadCount == 1)
        let game = Game(try Position(fen: benchPositions[8]))
        let finished = Flag()
        engine.startSearch(SearchLimits(infinite: true), game: game, onInfo: { _ in }, onResult: { _ in finished.set() })
        let hint = await companion.hint(for: game, limits: SearchLimits(depth: 6))
        #expect(hint.depth == 6 && hint.move.map(game.position.legalMoves.contains) == true)
        #expect(engine.isSearching && !finished.isSet)
        engine.stop()
        engine.waitUntilIdle()
        #expect(finished.isSet)
    }

    /// Async calls wait for a busy engine on the engine's threads, never on Swift's
    /// cooperative pool: sixteen hints queued behind an endless search leave the pool free
    /// (the test's own task goes on and stops that search), then all complete.
    @Test(.timeLimit(.minutes(2))) func asyncCallsNeverBlockTheCooperativePool() async throws {
        let engine = Engine(hashMegabytes: 2)
        let game = Game(try Position(fen: benchPositions[3]))
        engine.startSearch(SearchLimits(infinite: true), game: game, onInfo: { _ in }, onResult: { _ in })
        let hints = (0..<16).map { _ in Task { await engine.hint(for: game, limits: SearchLimits(depth: 2)) } }
        for _ in 0..<100 { await Task.yield() }
        #expect(engine.isSearching)
        engine.stop()
        for hint in hints {
            let decision = await hint.value
            #expect(decision.depth == 2 && decision.move.map(game.position.legalMoves.contains) == true)
        }
    }
}

/// The blocking review (an async context would pick the async overload).
private func blockingReview(_ engine: Engine, _ game: Game, _ limits: SearchLimits) -> GameReview {
    engine.review(game, limits: limits)
}

/// A flag set from another thread.
private final class Flag: Sendable {
    private let value = Protected(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
