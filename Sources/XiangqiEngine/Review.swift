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

    /// The least loss of expected points of each class below ``best``, worst class first: the
    /// one place the thresholds are written. They are human master play's quantiles, from the
    /// review of 100 CCPD master games at the default limits (the 7,399 moves played while
    /// the game was open; bench/review.md), rounded down to the hundredth: four master moves
    /// in five lose less than 0.04 points (``excellent`` below that), 95 in 100 less than 0.13
    /// (``good`` below), 98 in 100 less than 0.20 (``inaccuracy`` below) and 99 in 100 less
    /// than 0.30 (``mistake`` below); a ``blunder`` loses more than 99 master moves in 100.
    public static let thresholds: [(moveClass: MoveClass, leastLoss: Double)] = [
        (.blunder, 0.30), (.mistake, 0.20), (.inaccuracy, 0.13), (.good, 0.04), (.excellent, 0),
    ]

    /// The class of a move that loses `loss` expected points; the engine's own choice is
    /// ``best``.
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
    /// The depth of the search of the position before the move.
    public var depth: Int

    /// The move's accuracy, 0-100: `100 * exp(-loss / GameReview.accuracyScale)`.
    public var accuracy: Double { 100 * exp(-loss / GameReview.accuracyScale) }

    /// Whether the move counts for ``GameReview/accuracy(of:)``: the game was open before or
    /// after it (the mover's expected points between 0.1 and 0.9 on at least one side of it).
    public var countsForAccuracy: Bool {
        !((expectedBefore < 0.1 && expectedAfter < 0.1) || (expectedBefore > 0.9 && expectedAfter > 0.9))
    }
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
    /// that gives away 0.05 points scores 82, 0.1 points 67, 0.2 points 45. Human masters
    /// average about 92 (bench/review.md).
    public static let accuracyScale = 0.25

    /// The mean accuracy (0-100) of `side`'s judged moves that counted, `nil` when it has
    /// none. A move counts unless the game was decided both before and after it (the mover's
    /// expected points below 0.1 both times, or above 0.9 both times): in a lost or won
    /// position every move keeps the expected score near 0 or 1, and such moves would make a
    /// side that lost early look accurate (bench/review.md). When no move counts, all do.
    public func accuracy(of side: Color) -> Double? {
        let own = moves.filter { $0.side == side }
        guard !own.isEmpty else { return nil }
        let counted = own.filter(\.countsForAccuracy)
        let used = counted.isEmpty ? own : counted
        return used.reduce(0) { $0 + $1.accuracy } / Double(used.count)
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

/// How far a review has come: moves judged of the game's moves.
public struct ReviewProgress: Sendable, Equatable {
    /// Moves judged so far.
    public var judged: Int
    /// The game's moves.
    public var total: Int
}

extension Engine {
    /// The limits of each search in a review unless told otherwise: 100,000 nodes, about a
    /// tenth of a second on a phone's core, the same judgement on every machine.
    public static let defaultReviewLimits = SearchLimits(nodes: 100_000)

    /// Reviews `game`: searches each position before a move at full strength within
    /// `limits`, and when the move played is not the engine's choice, searches that move
    /// alone from the same position with the same limits (so that both scores come from
    /// one position and one table, not from two positions' searches); each move is judged
    /// by what it gives away against the best. Blocks; `progress` is called after each move.
    /// The table and statistics are cleared first (as ``newGame()``), so that a review at node
    /// or depth limits is reproducible.
    public func review(_ game: Game, limits: SearchLimits = Engine.defaultReviewLimits,
                       progress: (ReviewProgress) -> Void = { _ in }) -> GameReview {
        newGame()
        var builder = ReviewBuilder(game)
        while let request = builder.next {
            let judged = builder.progress.judged
            builder.add(search(limits, game: request.game, rootMoves: request.rootMoves, fullStrength: true))
            if builder.progress.judged > judged { progress(builder.progress) }
        }
        return builder.review
    }

    /// `review(_:limits:progress:)` for Swift concurrency: the searches run on the engine's
    /// thread, and cancelling the task ends the review within a node batch; the review then
    /// holds the moves judged so far (``GameReview/isComplete`` false). `progress` is called
    /// in the calling task after each move.
    public func review(_ game: Game, limits: SearchLimits = Engine.defaultReviewLimits,
                       progress: @escaping @Sendable (ReviewProgress) -> Void = { _ in }) async -> GameReview {
        var builder = ReviewBuilder(game)
        var first = true
        while let request = builder.next, !Task.isCancelled {
            let judged = builder.progress.judged
            let result = await searchResult(limits, game: request.game, rootMoves: request.rootMoves,
                                            fullStrength: true, clearFirst: first)
            first = false
            // A search stopped by the cancellation is not a judgement.
            if Task.isCancelled { break }
            builder.add(result)
            if builder.progress.judged > judged { progress(builder.progress) }
        }
        return builder.review
    }
}

/// Turns a game's searches, in order, into a review: for each move, the search of the position
/// before it, then (unless it is the engine's choice or ends the game) the search of the move
/// alone from there.
struct ReviewBuilder {
    /// A search to make: the position (with the game before it) and the moves to search.
    struct Request {
        var game: Game
        var rootMoves: [Move]
    }

    private let game: Game
    /// The game up to the position of the move being judged.
    private var prefix: Game
    /// The search of that position, once made.
    private var best: SearchResult?
    private var judgements: [MoveJudgement] = []

    init(_ game: Game) {
        self.game = game
        prefix = Game(game.startPosition)
    }

    /// The next search to make, `nil` when every move is judged.
    var next: Request? {
        let ply = judgements.count
        guard ply < game.moves.count else { return nil }
        return Request(game: prefix, rootMoves: best == nil ? [] : [game.moves[ply]])
    }

    var progress: ReviewProgress { ReviewProgress(judged: judgements.count, total: game.moves.count) }

    /// Takes the search that ``next`` asked for.
    mutating func add(_ result: SearchResult) {
        let ply = judgements.count
        guard ply < game.moves.count else { return }
        if best == nil {
            best = result
            if result.bestMove == game.moves[ply] || ruleScoreAfter(ply) != nil { judge(playedScore: nil) }
        } else {
            judge(playedScore: result.score)
        }
    }

    /// The score for the mover that the rules give the game's last move when the game ended
    /// with it (mate, stalemate, a repetition rule, the move limit, insufficient material):
    /// no search judges it better. `nil` for every other move.
    private func ruleScoreAfter(_ ply: Int) -> Int? {
        guard ply == game.moves.count - 1 else { return nil }
        switch game.status() {
        case .ongoing: return nil
        case .draw: return Score.draw
        case .win(let color, _): return color == prefix.position.sideToMove ? Score.mate : -Score.mate
        }
    }

    private mutating func judge(playedScore: Int?) {
        guard let before = best else { return }
        let ply = judgements.count
        let move = game.moves[ply]
        let side = prefix.position.sideToMove
        let isEngineChoice = before.bestMove == move
        let scoreBefore = before.score
        let scoreAfter = ruleScoreAfter(ply) ?? playedScore ?? scoreBefore
        let expectedBefore = Self.expectedPoints(scoreBefore), expectedAfter = Self.expectedPoints(scoreAfter)
        let loss = isEngineChoice ? 0 : max(0, expectedBefore - expectedAfter)
        let line = before.lines.first { $0.move == before.bestMove }?.principalVariation
            ?? before.bestMove.map { [$0] } ?? []
        judgements.append(MoveJudgement(ply: ply, side: side, move: move, bestMove: before.bestMove, bestLine: line,
                                        scoreBefore: scoreBefore, scoreAfter: scoreAfter,
                                        expectedBefore: expectedBefore, expectedAfter: expectedAfter, loss: loss,
                                        moveClass: MoveClass.classify(loss: loss, isEngineChoice: isEngineChoice),
                                        depth: before.depth))
        // The game's moves were legal when it was built.
        try? prefix.play(move)
        best = nil
    }

    /// The review of the moves judged so far.
    var review: GameReview {
        let finalRedScore = judgements.last.map { $0.side == .red ? $0.scoreAfter : -$0.scoreAfter }
        return GameReview(moves: judgements, isComplete: judgements.count == game.moves.count,
                          finalRedScore: finalRedScore)
    }

    private static func expectedPoints(_ score: Int) -> Double {
        let chances = Chances(score: score)
        return (Double(chances.win) + Double(chances.draw) / 2) / 1000
    }
}
