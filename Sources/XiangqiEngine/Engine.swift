import Synchronization
import XiangqiCore
import XiangqiSearch

/// The engine as a library: a game, a transposition table and a search thread.
///
/// Set a position, start a search with limits and callbacks, stop it. Callbacks run on the
/// search thread. The engine knows nothing of protocol text, so an app can embed it
/// directly. All methods may be called from any thread; a new search waits for the
/// previous one to finish.
public final class Engine: @unchecked Sendable {
    // Mutable state is guarded by `lock`, except what the search thread owns while running
    // (table and heap), which other methods touch only after `waitUntilIdle()`.
    private let lock = Lock()
    private var game = Game()
    private var table: TranspositionTable
    private let heap = SearchHeap()
    private let signals = SearchSignals()
    private let idle = Lock()
    private var searching = false

    /// The evaluation in use (set between searches).
    public var evaluator = Evaluator()
    /// Search settings (set between searches). `multiPV` is the number of lines reported.
    public var searchOptions = SearchOptions()
    /// Playing strength (set between searches); below 20 see ``SkillLevel``.
    public var skill = SkillLevel(SkillLevel.maximum)
    /// Randomness of skill-level choices and their evaluation noise.
    private var random = SeededGenerator(seed: UInt64.random(in: 1...UInt64.max))
    /// 0: a fresh random seed for every game; otherwise games repeat move for move.
    public private(set) var seed: UInt64 = 0
    /// The last search's score and the game length it was made at, so that the time manager
    /// can see the score fall from one of the engine's moves to its next.
    private var lastSearch: (score: Int, plies: Int)?

    /// Default transposition-table size in MB.
    public static let defaultHashMegabytes = 16

    public init(hashMegabytes: Int = Engine.defaultHashMegabytes) {
        table = TranspositionTable(megabytes: hashMegabytes)
    }

    /// The current game (start position, moves, key history).
    public var currentGame: Game { lock.withLock { game } }

    /// The current position.
    public var position: Position { currentGame.position }

    /// Replaces the game; takes effect for the next search.
    public func setGame(_ newGame: Game) {
        waitUntilIdle()
        lock.withLock { game = newGame }
    }

    /// Forgets everything learned (hash table, move-ordering statistics): searches after
    /// this are reproducible.
    public func newGame() {
        waitUntilIdle()
        table.clear()
        heap.clear()
        lock.withLock {
            random = SeededGenerator(seed: seed != 0 ? seed : UInt64.random(in: 1...UInt64.max))
            lastSearch = nil
        }
    }

    /// Sets the seed of skill-level choices (0: random) and starts a new game.
    public func setSeed(_ newSeed: UInt64) {
        waitUntilIdle()
        lock.withLock { seed = newSeed }
        newGame()
    }

    /// Resizes the hash table (emptying it).
    public func setHashSize(megabytes: Int) {
        waitUntilIdle()
        table.resize(megabytes: megabytes)
    }

    /// Size of the hash table in MB.
    public var hashMegabytes: Int { table.megabytes }

    /// Whether a search is running.
    public var isSearching: Bool { idle.withLock { searching } }

    /// Starts a search on a background thread and returns at once. `onInfo` receives each
    /// iteration, `onResult` the final result (exactly once). `rootMoves` restricts the moves
    /// considered (empty: all legal moves). With `ponder`, time limits wait for ``ponderHit()``.
    public func startSearch(_ limits: SearchLimits, rootMoves: [Move] = [], ponder: Bool = false,
                            onInfo: @escaping @Sendable (SearchInfo) -> Void,
                            onCurrentMove: (@Sendable (CurrentMoveInfo) -> Void)? = nil,
                            onResult: @escaping @Sendable (SearchResult) -> Void) {
        waitUntilIdle()
        idle.withLock { searching = true }
        signals.stop.store(false, ordering: .relaxed)
        signals.pondering.store(ponder, ordering: .relaxed)
        signals.ponderHitTime.store(0, ordering: .relaxed)
        let game = currentGame
        startThread(stackSize: 64 << 20) { [self] in
            let result = self.run(game, limits, rootMoves, onInfo, onCurrentMove)
            onResult(result)
            self.idle.withLock {
                self.searching = false
                self.idle.broadcast()
            }
        }
    }

    /// Searches on the calling thread and returns the result.
    public func search(_ limits: SearchLimits, rootMoves: [Move] = [],
                       onInfo: (SearchInfo) -> Void = { _ in }) -> SearchResult {
        waitUntilIdle()
        signals.stop.store(false, ordering: .relaxed)
        signals.pondering.store(false, ordering: .relaxed)
        signals.ponderHitTime.store(0, ordering: .relaxed)
        return run(currentGame, limits, rootMoves, onInfo)
    }

    private func run(_ game: Game, _ limits: SearchLimits, _ rootMoves: [Move],
                     _ onInfo: (SearchInfo) -> Void,
                     _ onCurrentMove: ((CurrentMoveInfo) -> Void)? = nil) -> SearchResult {
        table.newSearch()
        // The reversible end of the game (at most the no-capture window) for repetition judging.
        let positions = game.positionsBeforeMoves
        let tail = min(game.position.halfmoveClock, game.moves.count, 130)
        let frames = (game.moves.count - tail..<game.moves.count).map { (positions[$0], game.moves[$0]) }
        var limits = limits, options = searchOptions, evaluator = evaluator
        let skill = skill
        let shownLines = options.multiPV
        if !skill.isFull {
            limits = skill.limits(limits)
            options.multiPV = max(options.multiPV, skill.candidateCount)
            evaluator.noiseAmplitude = max(evaluator.noiseAmplitude, skill.evaluationNoise)
            evaluator.noiseSeed = lock.withLock { random.next() }
        }
        var searcher = Searcher(position: game.position, history: Array(game.keys.dropLast()),
                                historyFrames: frames, rootMoves: rootMoves,
                                limits: limits, options: options, previousScore: previousScore(game),
                                table: table, heap: heap, evaluator: evaluator, signals: signals)
        searcher.onCurrentMove = onCurrentMove
        // Candidate lines searched only for the skill choice are not reported.
        var result = searcher.run { info in if info.multiPV <= shownLines { onInfo(info) } }
        lock.withLock { lastSearch = (result.score, game.moves.count) }
        if !skill.isFull, let chosen = lock.withLock({ skill.choose(from: result.lines, using: &random) }),
           chosen.move != result.bestMove {
            result.bestMove = chosen.move
            result.score = chosen.score
            result.ponderMove = chosen.principalVariation.dropFirst().first
        }
        return result
    }

    /// The score of the engine's previous move in `game` (two plies back), if it searched it.
    private func previousScore(_ game: Game) -> Int? {
        lock.withLock { lastSearch.flatMap { $0.plies + 2 == game.moves.count ? $0.score : nil } }
    }

    /// Asks the running search to stop; its result is delivered as usual.
    public func stop() {
        signals.pondering.store(false, ordering: .relaxed)
        signals.stop.store(true, ordering: .relaxed)
    }

    /// Ends pondering: the search's time limits start counting now.
    public func ponderHit(elapsedMilliseconds: Int) {
        signals.ponderHitTime.store(elapsedMilliseconds, ordering: .relaxed)
        signals.pondering.store(false, ordering: .relaxed)
    }

    /// Blocks until no search is running.
    public func waitUntilIdle() {
        idle.withLock {
            while searching { idle.wait() }
        }
    }

    /// Per-mille of the hash table in use.
    public var hashfull: Int { table.hashfull }

    /// The stored entry for `position`, if any (for UCCI `probe`).
    public func probe(_ position: Position) -> TTEntry? { table.probe(position.key) }

    /// Searches every bench position to `depth` with a fresh 16 MB table; returns total nodes
    /// (the signature) and elapsed milliseconds.
    public static func bench(depth: Int, progress: (Int, String, UInt64) -> Void = { _, _, _ in })
        -> (nodes: UInt64, milliseconds: Int) {
        let engine = Engine(hashMegabytes: 16)
        var total: UInt64 = 0
        let clock = ContinuousClock()
        let start = clock.now
        for (i, fen) in benchPositions.enumerated() {
            guard let position = try? Position(fen: fen) else { continue }
            engine.newGame()
            engine.setGame(Game(position))
            let result = engine.search(SearchLimits(depth: depth))
            total += result.nodes
            progress(i, fen, result.nodes)
        }
        let d = clock.now - start
        return (total, Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000))
    }
}
