#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiSearch

/// How a played move compares with the engine's best move: by the expected score (points per
/// game, 0...1, from the win/draw/loss model) that it gives away.
public enum MoveClass: String, Sendable, CaseIterable, Comparable {
    /// The engine's own choice.
    case best
    case excellent
    case good
    case inaccuracy
    case mistake
    case blunder

    /// The least loss of expected points of each class below ``best``, worst class first. The
    /// one place the thresholds are written; they were chosen from reviews of master games
    /// and of the engine's levels (bench/review.md): ``inaccuracy`` starts at the loss that
    /// master moves reach about once in 20, ``blunder`` at one they reach about once in 250.
    public static let thresholds: [(moveClass: MoveClass, leastLoss: Double)] = [
        (.blunder, 0.20), (.mistake, 0.10), (.inaccuracy, 0.05), (.good, 0.02), (.excellent, 0),
    ]

    /// The class of a move that loses `loss` expected points; the engine's own choice is
    /// ``best`` whatever the loss its later search finds.
    public static func classify(loss: Double, isEngineChoice: Bool) -> MoveClass {
        if isEngineChoice { return .best }
        return thresholds.first { loss >= $0.leastLoss }?.moveClass ?? .excellent
    }

    /// The PGN annotation of the class: `?!`, `?` or `??`, `nil` for the good classes.
    public var annotation: String? {
        switch self {
        case .inaccuracy: "?!"
        case .mistake: "?"
        case .blunder: "??"
        default: nil
        }
    }

    public static func < (a: MoveClass, b: MoveClass) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The judgement of one move of a reviewed game.
public struct MoveJudgement: Sendable {
    /// 0-based index of the move in the game.
    public var ply: Int
    /// The side that played it.
    public var side: Color
    /// The move played.
    public var move: Move
    /// The engine's best move in the position before it (`nil` only without a legal move).
    public var bestMove: Move?
    /// The engine's line from the position before the move, best move first.
    public var bestLine: [Move]
    /// The score of the position before the move with best play, for the mover (`Score`).
    public var scoreBefore: Int
    /// The score after the move played, for the mover.
    public var scoreAfter: Int
    /// The mover's expected points (0...1) before the move, with best play.
    public var expectedBefore: Double
    /// The mover's expected points after the move played.
    public var expectedAfter: Double
    /// Expected points given away: `expectedBefore - expectedAfter`, at least 0 (and 0 for
    /// the engine's own choice).
    public var loss: Double
    /// The class of the move.
    public var moveClass: MoveClass
    /// The depth of the search before the move.
    public var depth: Int

    /// The move's accuracy, 0-100: `100 * exp(-loss / GameReview.accuracyScale)`.
    public var accuracy: Double { 100 * exp(-loss / GameReview.accuracyScale) }
}

/// A game's review (`Engine.review(_:limits:progress:)`): each move judged against the
/// engine's best, and an accuracy per side.
public struct GameReview: Sendable {
    /// The judged moves in game order; fewer than the game's when the review was cancelled.
    public var moves: [MoveJudgement]
    /// Whether every move was judged.
    public var isComplete: Bool
    /// The score after the last judged move, from Red's side.
    public var finalRedScore: Int?

    /// The loss of expected points at which a move's accuracy falls to 1/e (37%); a move
    /// that gives away 0.05 points scores 82, 0.1 points 67, 0.2 points 45.
    public static let accuracyScale = 0.25

    /// The mean accuracy (0-100) of `side`'s judged moves, `nil` when it has none.
    public func accuracy(of side: Color) -> Double? {
        let own = moves.filter { $0.side == side }
        guard !own.isEmpty else { return nil }
        return own.reduce(0) { $0 + $1.accuracy } / Double(own.count)
    }

    /// How many of `side`'s judged moves fall in `moveClass`.
    public func count(of moveClass: MoveClass, for side: Color) -> Int {
        moves.filter { $0.side == side && $0.moveClass == moveClass }.count
    }

    /// The mean loss of expected points per move of `side`, `nil` when it has none.
    public func meanLoss(of side: Color) -> Double? {
        let own = moves.filter { $0.side == side }
        guard !own.isEmpty else { return nil }
        return own.reduce(0) { $0 + $1.loss } / Double(own.count)
    }
}

/// How far a review has come: positions searched of all the game's positions.
public struct ReviewProgress: Sendable, Equatable {
    /// Positions searched so far.
    public var searched: Int
    /// The game's positions: its moves plus one (the position after the last move).
    public var total: Int
}

extension Engine {
    /// The limits of each position's search in a review unless told otherwise: 100,000 nodes,
    /// about a tenth of a second on a phone's core, the same judgement on every machine.
    public static let defaultReviewLimits = SearchLimits(nodes: 100_000)

    /// Reviews `game`: searches every position (the start, and after each move) at full
    /// strength within `limits` and judges each move against the best one found. Blocks;
    /// `progress` is called after each position. The table and statistics are cleared first
    /// (as ``newGame()``), so that a review at node or depth limits is reproducible.
    public func review(_ game: Game, limits: SearchLimits = Engine.defaultReviewLimits,
                       progress: (ReviewProgress) -> Void = { _ in }) -> GameReview {
        newGame()
        var builder = ReviewBuilder(game)
        while let prefix = builder.nextPosition {
            builder.add(builder.terminalResult ?? search(limits, game: prefix, fullStrength: true))
            progress(builder.progress)
        }
        return builder.review
    }

    /// `review(_:limits:progress:)` for Swift concurrency: the searches run on the engine's
    /// thread, and cancelling the task ends the review within a node batch; the review then
    /// holds the moves judged so far (``GameReview/isComplete`` false). `progress` is called
    /// in the calling task after each position.
    public func review(_ game: Game, limits: SearchLimits = Engine.defaultReviewLimits,
                       progress: @escaping @Sendable (ReviewProgress) -> Void = { _ in }) async -> GameReview {
        var builder = ReviewBuilder(game)
        var first = true
        while let prefix = builder.nextPosition, !Task.isCancelled {
            let result: SearchResult
            if let terminal = builder.terminalResult {
                result = terminal
            } else {
                result = await searchResult(limits, game: prefix, rootMoves: [], fullStrength: true, clearFirst: first)
                first = false
                // A search stopped by the cancellation is not a judgement.
                if Task.isCancelled { break }
            }
            builder.add(result)
            progress(builder.progress)
        }
        return builder.review
    }
}

/// Turns the searches of a game's positions, in order, into a review.
struct ReviewBuilder {
    private let game: Game
    private var prefix: Game
    private var results: [SearchResult] = []

    init(_ game: Game) {
        self.game = game
        prefix = Game(game.startPosition)
    }

    /// The game up to the next position to search, `nil` when all are searched.
    var nextPosition: Game? { results.count <= game.moves.count ? prefix : nil }

    var progress: ReviewProgress { ReviewProgress(searched: results.count, total: game.moves.count + 1) }

    /// The result that the rules give the game's final position when the game ended there by
    /// repetition, the move limit or insufficient material (a draw: score 0, or a win by a
    /// repetition rule): no search can judge it better. `nil` for every other position.
    var terminalResult: SearchResult? {
        guard results.count == game.moves.count, !game.moves.isEmpty else { return nil }
        switch game.status() {
        case .ongoing:
            return nil
        case .draw:
            return SearchResult(bestMove: nil, ponderMove: nil, score: Score.draw, depth: 0, nodes: 0)
        case .win(let color, _):
            // Mate and stalemate are found by the search; a rule's win (perpetual check or
            // chase) is scored as a mate against the loser.
            let score = color == game.position.sideToMove ? Score.mate : -Score.mate
            return SearchResult(bestMove: nil, ponderMove: nil, score: score, depth: 0, nodes: 0)
        }
    }

    /// Takes the search of ``nextPosition``.
    mutating func add(_ result: SearchResult) {
        results.append(result)
        if results.count <= game.moves.count {
            // The game's moves were legal when it was built.
            try? prefix.play(game.moves[results.count - 1])
        }
    }

    /// The review of the positions searched so far.
    var review: GameReview {
        var moves: [MoveJudgement] = []
        var side = game.startPosition.sideToMove
        for ply in 0..<max(0, results.count - 1) {
            let before = results[ply], after = results[ply + 1]
            let move = game.moves[ply]
            let scoreBefore = before.score, scoreAfter = -after.score
            let expectedBefore = expectedPoints(scoreBefore), expectedAfter = expectedPoints(scoreAfter)
            let isEngineChoice = before.bestMove == move
            let loss = isEngineChoice ? 0 : max(0, expectedBefore - expectedAfter)
            let line = before.lines.first { $0.move == before.bestMove }?.principalVariation
                ?? before.bestMove.map { [$0] } ?? []
            moves.append(MoveJudgement(ply: ply, side: side, move: move, bestMove: before.bestMove, bestLine: line,
                                       scoreBefore: scoreBefore, scoreAfter: scoreAfter,
                                       expectedBefore: expectedBefore, expectedAfter: expectedAfter, loss: loss,
                                       moveClass: MoveClass.classify(loss: loss, isEngineChoice: isEngineChoice),
                                       depth: before.depth))
            side = side.opponent
        }
        var finalRedScore: Int?
        if let last = results.last {
            let finalSide = moves.count % 2 == 0 ? game.startPosition.sideToMove : game.startPosition.sideToMove.opponent
            finalRedScore = finalSide == .red ? last.score : -last.score
        }
        return GameReview(moves: moves, isComplete: results.count == game.moves.count + 1, finalRedScore: finalRedScore)
    }

    private func expectedPoints(_ score: Int) -> Double {
        let chances = Chances(score: score)
        return (Double(chances.win) + Double(chances.draw) / 2) / 1000
    }
}
