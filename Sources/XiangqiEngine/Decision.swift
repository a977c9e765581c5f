import XiangqiBook
import XiangqiCore
import XiangqiSearch

/// What the engine is asked to play: the one decision path that the protocol sessions and an
/// app share (book, search with the strength set on the engine, draw offers).
public struct MoveRequest: Sendable {
    /// The game so far; the engine plays for its side to move.
    public var game: Game
    /// How long the search may think (ignored when the book answers).
    public var limits: SearchLimits
    /// The moves to choose among (empty: every legal move).
    public var rootMoves: [Move]
    /// Whether the opponent offers a draw with this move.
    public var drawOffered: Bool

    /// A request to move in `game` under `limits`.
    public init(game: Game, limits: SearchLimits, rootMoves: [Move] = [], drawOffered: Bool = false) {
        self.game = game
        self.limits = limits
        self.rootMoves = rootMoves
        self.drawOffered = drawOffered
    }
}

/// Where a book move came from.
public struct BookSource: Sendable, Equatable {
    /// The book's file name (or the name it was opened under).
    public var book: String
    /// Games of the book that played the move, and the mover's score in them (0-100).
    public var games: Int
    /// The mover's score in those games, 0-100.
    public var percent: Double
}

/// The engine's answer to a ``MoveRequest``.
public struct MoveDecision: Sendable {
    /// The move to play; `nil` only when there is no legal move.
    public var move: Move?
    /// The expected reply, when known.
    public var ponderMove: Move?
    /// Centipawns or a mate score (`Score`), for the side to move.
    public var score: Int
    /// Win, draw and loss chances from ``score``.
    public var chances: Chances
    /// The expected line from the move on.
    public var principalVariation: [Move]
    /// The depth of the last completed iteration (0 for a book move).
    public var depth: Int
    /// Nodes searched (0 for a book move).
    public var nodes: UInt64
    /// Set when the book answered.
    public var book: BookSource?
    /// Whether the engine accepts the draw offered with the request.
    public var acceptsDraw: Bool

    /// The decision a search result makes.
    public init(_ result: SearchResult, drawOffered: Bool) {
        move = result.bestMove
        ponderMove = result.ponderMove
        score = result.score
        chances = Chances(score: result.score)
        let line = result.lines.first { $0.move == result.bestMove }?.principalVariation
        principalVariation = line ?? (result.bestMove.map { [$0] + (result.ponderMove.map { [$0] } ?? []) } ?? [])
        depth = result.depth
        nodes = result.nodes
        book = nil
        acceptsDraw = drawOffered && result.bestMove != nil && Engine.acceptsDraw(score: result.score)
    }

    /// The answer to a request for the static evaluation only (UCCI `go depth 0`): no move,
    /// the evaluation `score` for the side to move, depth 0.
    public init(evaluation score: Int) {
        move = nil
        ponderMove = nil
        self.score = score
        chances = Chances(score: score)
        principalVariation = []
        depth = 0
        nodes = 0
        book = nil
        acceptsDraw = false
    }

    /// This decision as the answer to a draw offer made after the request (UCCI `ponderhit
    /// draw`): accepted by the engine's policy (``Engine/acceptsDraw(score:)``).
    public func withDrawOffered() -> MoveDecision {
        var decision = self
        decision.acceptsDraw = move != nil && Engine.acceptsDraw(score: score)
        return decision
    }
}

extension Engine {
    /// The draw-offer policy: accepted unless the engine expects to win (a score above +20 cp
    /// for its side). A mate against it is the best reason to accept.
    public static func acceptsDraw(score: Int) -> Bool { score <= 20 }

    /// The book's answer for `game` among `rootMoves` (all legal moves if empty), as a
    /// decision, or `nil` (no book move, book off); book warnings go to `warnings`. The
    /// score comes from the book's results for the mover, shrunk toward 50% by ten
    /// pseudo-games (few games say little), through the win/draw/loss model.
    public static func bookDecision(for game: Game, rootMoves: [Move] = [], book: BookPlayer,
                                    drawOffered: Bool = false, warnings: inout [String]) -> MoveDecision? {
        let position = game.position
        let (choice, problems) = book.choose(for: position, allowed: rootMoves)
        warnings += problems
        guard let choice else { return nil }
        let entry = choice.entry
        let mover = position.sideToMove
        let percent = entry.scorePercent(for: mover)
        let points = (percent / 100 * Double(entry.games) + 5) / Double(entry.games + 10)
        let score = WinDrawLoss.score(forExpectedPoints: points)
        var result = SearchResult(bestMove: entry.move, ponderMove: choice.reply, score: score, depth: 1, nodes: 0)
        result.lines = [RootLine(move: entry.move, score: score,
                                 principalVariation: [entry.move] + (choice.reply.map { [$0] } ?? []))]
        var decision = MoveDecision(result, drawOffered: drawOffered)
        let file = choice.path.split(separator: "/").last.map(String.init) ?? choice.path
        decision.book = BookSource(book: file, games: entry.games, percent: percent)
        return decision
    }

    /// Whether the book may answer a search of `limits`: timed and depth- or node-limited
    /// searches; analysis (infinite), pondering and mate searches always search.
    public static func bookMayAnswer(_ limits: SearchLimits, pondering: Bool = false) -> Bool {
        !pondering && !limits.infinite && limits.mate == nil
    }

    /// The answer to a request for the static evaluation of `game` only (UCCI `go depth 0`).
    public func evaluationDecision(for game: Game) -> MoveDecision {
        MoveDecision(evaluation: evaluator.evaluate(game.position))
    }

    /// Starts deciding the move for `request`, the streaming form of
    /// ``decide(_:book:warnings:onInfo:)`` that the protocol sessions use. Returns the book's
    /// decision when `book` has a move and ``bookMayAnswer(_:pondering:)`` allows it (nothing
    /// is started); otherwise returns `nil` after starting a search on the engine's thread
    /// (pondering when `ponder`; see
    /// ``startSearch(_:game:rootMoves:ponder:fullStrength:onInfo:onCurrentMove:onResult:)``), whose
    /// decision `onDecision` gets at the end. The game becomes the engine's current game.
    @discardableResult
    public func startDecision(_ request: MoveRequest, book: BookPlayer?, ponder: Bool = false, warnings: inout [String],
                              onInfo: @escaping @Sendable (SearchInfo) -> Void,
                              onCurrentMove: (@Sendable (CurrentMoveInfo) -> Void)? = nil,
                              onDecision: @escaping @Sendable (MoveDecision) -> Void) -> MoveDecision? {
        if let book, Self.bookMayAnswer(request.limits, pondering: ponder),
           let decision = Self.bookDecision(for: request.game, rootMoves: request.rootMoves, book: book,
                                            drawOffered: request.drawOffered, warnings: &warnings) {
            return decision
        }
        setGame(request.game)
        let drawOffered = request.drawOffered
        startSearch(request.limits, game: request.game, rootMoves: request.rootMoves, ponder: ponder,
                    onInfo: onInfo, onCurrentMove: onCurrentMove,
                    onResult: { result in onDecision(MoveDecision(result, drawOffered: drawOffered)) })
        return nil
    }

    /// Decides the move for `request`: from `book` when it has one (and the limits are not
    /// infinite or a mate search), else by a search at the engine's strength (``skill``,
    /// threads, options). Blocks; `onInfo` receives the search's iterations. Another thread
    /// may end the search early with ``stop()``.
    public func decide(_ request: MoveRequest, book: BookPlayer? = nil, warnings: inout [String],
                       onInfo: (SearchInfo) -> Void = { _ in }) -> MoveDecision {
        let limits = request.limits
        if let book, Self.bookMayAnswer(limits),
           let decision = Self.bookDecision(for: request.game, rootMoves: request.rootMoves, book: book,
                                            drawOffered: request.drawOffered, warnings: &warnings) {
            return decision
        }
        let result = search(limits, game: request.game, rootMoves: request.rootMoves, onInfo: onInfo)
        return MoveDecision(result, drawOffered: request.drawOffered)
    }

    /// ``decide(_:book:warnings:onInfo:)`` for Swift concurrency: the search runs on the
    /// engine's thread, and cancelling the calling task stops it (the decision then holds the
    /// best move found so far). Book warnings are dropped.
    public func decide(_ request: MoveRequest, book: BookPlayer? = nil) async -> MoveDecision {
        let limits = request.limits
        if let book, Self.bookMayAnswer(limits) {
            var warnings: [String] = []
            if let decision = Self.bookDecision(for: request.game, rootMoves: request.rootMoves, book: book,
                                                drawOffered: request.drawOffered, warnings: &warnings) {
                return decision
            }
        }
        let result = await searchResult(limits, game: request.game, rootMoves: request.rootMoves)
        return MoveDecision(result, drawOffered: request.drawOffered)
    }

    /// A hint for the side to move of `game`: the best move and its evaluation at full
    /// strength, whatever ``skill`` says (a beginner's opponent still gives good hints).
    public func hint(for game: Game, limits: SearchLimits = SearchLimits(moveTime: 1000)) -> MoveDecision {
        MoveDecision(search(limits, game: game, fullStrength: true), drawOffered: false)
    }

    /// The evaluation of `game` for an evaluation bar: a full-strength search of `limits`,
    /// with the score from Red's side (positive: Red is better) and Red's chances.
    public func evaluation(of game: Game, limits: SearchLimits = SearchLimits(depth: 10))
        -> (redScore: Int, redChances: Chances) {
        let result = search(limits, game: game, fullStrength: true)
        let red = game.position.sideToMove == .red ? result.score : -result.score
        return (red, Chances(score: red))
    }

    /// The blocking `hint(for:limits:)` for Swift concurrency: the search runs on the engine's
    /// thread, so the caller (the main actor, say) is free meanwhile; cancelling the task
    /// stops it within a node batch, and the decision then holds the best move found so far.
    public func hint(for game: Game, limits: SearchLimits = SearchLimits(moveTime: 1000)) async -> MoveDecision {
        MoveDecision(await searchResult(limits, game: game, rootMoves: [], fullStrength: true), drawOffered: false)
    }

    /// The blocking `evaluation(of:limits:)` for Swift concurrency, cancellable as the async hint
    /// (a cancelled evaluation is the deepest one completed).
    public func evaluation(of game: Game, limits: SearchLimits = SearchLimits(depth: 10)) async
        -> (redScore: Int, redChances: Chances) {
        let result = await searchResult(limits, game: game, rootMoves: [], fullStrength: true)
        let red = game.position.sideToMove == .red ? result.score : -result.score
        return (red, Chances(score: red))
    }

    /// Live analysis of `game` at full strength: a report for each line of each iteration
    /// (``searchOptions``' MultiPV lines, bound lines too), as the search finds them. The
    /// stream ends when the search ends (its limits; `SearchLimits(infinite: true)` never
    /// ends by itself), and the search stops within a node batch when the consumer stops
    /// iterating or its task is cancelled. The engine is held meanwhile (see
    /// ``isSearching``).
    public func analysis(of game: Game, limits: SearchLimits = SearchLimits(infinite: true)) -> AsyncStream<AnalysisReport> {
        let side = game.position.sideToMove
        return AsyncStream { continuation in
            let box = ResultBox()
            continuation.onTermination = { [weak self] _ in
                box.cancel { self?.stop() }
            }
            startSearchWhenIdle(limits, game: game, rootMoves: [], fullStrength: true, box: box,
                                onInfo: { info in continuation.yield(AnalysisReport(info, sideToMove: side)) },
                                onResult: { _ in continuation.finish() })
        }
    }

    /// A search on the engine's thread, awaited; cancelling the task stops it. The calling
    /// thread never waits for the engine: a search already running is waited for on the
    /// engine's thread. `clearFirst` clears the table and statistics before the search.
    func searchResult(_ limits: SearchLimits, game: Game, rootMoves: [Move],
                      fullStrength: Bool = false, clearFirst: Bool = false) async -> SearchResult {
        let box = ResultBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SearchResult, Never>) in
                startSearchWhenIdle(limits, game: game, rootMoves: rootMoves, fullStrength: fullStrength,
                                    clearFirst: clearFirst, box: box, onInfo: { _ in },
                                    onResult: { result in continuation.resume(returning: result) })
            }
        } onCancel: {
            box.cancel { stop() }
        }
    }
}

/// One line of an analysis (``Engine/analysis(of:limits:)``): the search's report with the
/// score and chances also from Red's side, for an evaluation bar.
public struct AnalysisReport: Sendable {
    /// Depth, score (side to move's view), bound, nodes, time, the line and its MultiPV index.
    public var line: SearchInfo
    /// The score from Red's side (positive: Red is better).
    public var redScore: Int
    /// Red's win, draw and loss chances (per mille) at that score.
    public var redChances: Chances

    /// The report of `line`, searched with `sideToMove` to move.
    public init(_ line: SearchInfo, sideToMove: Color) {
        self.line = line
        redScore = sideToMove == .red ? line.score : -line.score
        redChances = Chances(score: redScore)
    }
}

/// Orders a task's cancellation and its search's start and end: a cancellation stops the
/// search only while it runs. The stop is sent under the lock, and the search is marked
/// finished under it before it releases the engine, so a late cancellation can never stop
/// the engine's next search.
final class ResultBox: Sendable {
    private struct State {
        var started = false, finished = false, cancelled = false
    }
    private let state = Protected(State())

    /// The search has started: `stop` runs at once if the task was already cancelled.
    func start(stop: () -> Void) { state.withLock { $0.started = true; if $0.cancelled { stop() } } }
    /// The search has ended; call before the engine is released.
    func finish() { state.withLock { $0.finished = true } }
    /// The task is cancelled: `stop` runs if the search is running.
    func cancel(stop: () -> Void) {
        state.withLock { $0.cancelled = true; if $0.started && !$0.finished { stop() } }
    }
}
