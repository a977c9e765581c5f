import XiangqiCore
import XiangqiSearch

/// The engine as a library: a game, a transposition table and search threads (Lazy SMP:
/// with ``threadCount`` above 1, helper threads search the same root through the shared
/// table while the main thread keeps the clock and reports).
///
/// Set a position, start a search with limits and callbacks, stop it. Callbacks run on the
/// search thread. The engine knows nothing of protocol text, so an app can embed it
/// directly. All methods may be called from any thread; a new search waits for the
/// previous one to finish.
public final class Engine: @unchecked Sendable {
    // Mutable state is guarded by `lock`, except what the search threads own while running
    // (table and heaps), which other methods touch only while they hold the engine
    // (`exclusively`): one search or one such change at a time.
    private let lock = Lock()
    private var game = Game()
    private var table: TranspositionTable
    /// One per search thread: each thread has its own move-ordering statistics.
    private var heaps = [SearchHeap()]
    private let signals = SearchSignals()
    private let idle = Lock()
    /// A search or a change of table or statistics holds the engine (guarded by `idle`).
    private var busy = false
    /// A search is running (guarded by `idle`).
    private var searching = false

    /// The evaluation in use; a change applies from the next search. Guarded by the lock, so
    /// that any thread may change it while a search runs.
    public var evaluator: Evaluator {
        get { lock.withLock { storedEvaluator } }
        set { lock.withLock { storedEvaluator = newValue } }
    }
    /// Search settings; a change applies from the next search. `multiPV` is the number of
    /// lines reported.
    public var searchOptions: SearchOptions {
        get { lock.withLock { storedSearchOptions } }
        set { lock.withLock { storedSearchOptions = newValue } }
    }
    /// Playing strength, from the next search; below 20 see `SkillLevel`.
    public var skill: SkillLevel {
        get { lock.withLock { storedSkill } }
        set { lock.withLock { storedSkill = newValue } }
    }
    private var storedEvaluator = Evaluator()
    private var storedSearchOptions = SearchOptions()
    private var storedSkill = SkillLevel(SkillLevel.maximum)
    /// Randomness of skill-level choices and their evaluation noise.
    private var random = SeededGenerator(seed: UInt64.random(in: 1...UInt64.max))
    /// 0: a fresh random seed for every game; otherwise games repeat move for move.
    public private(set) var seed: UInt64 = 0
    /// The last search's score and the game length it was made at, so that the time manager
    /// can see the score fall from one of the engine's moves to its next.
    private var lastSearch: (score: Int, plies: Int)?

    /// Default transposition-table size in MB.
    public static let defaultHashMegabytes = 16
    /// The most search threads an engine runs.
    public static let maximumThreads = 256

    /// An engine with a table of `hashMegabytes` MB, one thread, full strength, the handcrafted evaluation until ``setNetwork(_:)``.
    public init(hashMegabytes: Int = Engine.defaultHashMegabytes) {
        table = TranspositionTable(megabytes: hashMegabytes)
        tableMegabytes = table.megabytes
    }

    /// A second engine for work beside this one's searches: a hint, an evaluation bar or a
    /// game review while this engine thinks on its own move. It shares what is read-only:
    /// the network's weights (the same `Network` object, not a copy) and the attack
    /// tables; it owns a table of `hashMegabytes` MB and one thread's move-ordering
    /// statistics. It starts with this engine's evaluator and search options (MultiPV
    /// included) at full strength and one thread; later changes to either engine do not
    /// reach the other. A book is opened by the app and may be passed to both.
    /// bench/app.md measures what one costs.
    public func companion(hashMegabytes: Int = 4) -> Engine {
        let settings = lock.withLock { (storedEvaluator, storedSearchOptions) }
        let engine = Engine(hashMegabytes: hashMegabytes)
        engine.lock.withLock {
            engine.storedEvaluator = settings.0
            engine.storedSearchOptions = settings.1
        }
        return engine
    }

    /// The current game (start position, moves, key history).
    public var currentGame: Game { lock.withLock { game } }

    /// The current position.
    public var position: Position { currentGame.position }

    /// Replaces the game; takes effect for the next search.
    public func setGame(_ newGame: Game) {
        exclusively { lock.withLock { game = newGame } }
    }

    /// Evaluates with `network` (`nil`: the handcrafted evaluation) from the next search on.
    /// The hash table and the search statistics are cleared: their scores, corrections and
    /// move orders came from the other evaluation, and a search after the switch is the one a
    /// fresh engine with `network` would make.
    public func setNetwork(_ network: Network?) {
        exclusively {
            lock.withLock {
                storedEvaluator.network = network
                table.clear()
                for heap in heaps { heap.clear() }
            }
        }
    }

    /// Forgets everything learned (hash table, move-ordering statistics): searches after
    /// this are reproducible.
    public func newGame() {
        exclusively { clearLocked() }
    }

    /// ``newGame()``'s work, for a caller that holds the engine.
    private func clearLocked() {
        // The table's memory is replaced under the lock, which `probe` and `hashfull` take.
        lock.withLock { table.clear() }
        for heap in lock.withLock({ heaps }) { heap.clear() }
        lock.withLock {
            random = SeededGenerator(seed: seed != 0 ? seed : UInt64.random(in: 1...UInt64.max))
            lastSearch = nil
        }
    }

    /// Sets the seed of skill-level choices (0: random) and starts a new game.
    public func setSeed(_ newSeed: UInt64) {
        exclusively {
            lock.withLock { seed = newSeed }
            clearLocked()
        }
    }

    /// Sets the number of search threads (clamped to 1...``maximumThreads``), for the next
    /// search. New threads start with empty statistics; skill levels below the maximum
    /// always search with one thread (their node caps are per game, not per core).
    public func setThreadCount(_ count: Int) {
        let n = min(max(count, 1), Self.maximumThreads)
        exclusively {
            lock.withLock {
                if n < heaps.count {
                    heaps.removeLast(heaps.count - n)
                } else {
                    while heaps.count < n { heaps.append(SearchHeap()) }
                }
            }
        }
    }

    /// The number of search threads.
    public var threadCount: Int { lock.withLock { heaps.count } }

    /// Resizes the hash table (emptying it).
    public func setHashSize(megabytes: Int) {
        exclusively {
            lock.withLock {
                table.resize(megabytes: megabytes)
                tableMegabytes = table.megabytes
            }
        }
    }

    /// Size of the hash table in MB.
    public var hashMegabytes: Int { lock.withLock { tableMegabytes } }
    private var tableMegabytes: Int

    /// Whether a search is running.
    public var isSearching: Bool { idle.withLock { searching } }

    /// Starts a search on a background thread and returns at once. `onInfo` receives each
    /// iteration, `onResult` the final result (exactly once). `game` is searched if given,
    /// else the current game (with several callers, give it: another may set the game between
    /// ``setGame(_:)`` and this call). `rootMoves` restricts the moves considered (empty: all
    /// legal moves). With `ponder`, time limits wait for ``ponderHit(elapsedMilliseconds:)``.
    /// `fullStrength` ignores ``skill`` for this search (hints and evaluations).
    public func startSearch(_ limits: SearchLimits, game: Game? = nil, rootMoves: [Move] = [], ponder: Bool = false,
                            fullStrength: Bool = false,
                            onInfo: @escaping @Sendable (SearchInfo) -> Void,
                            onCurrentMove: (@Sendable (CurrentMoveInfo) -> Void)? = nil,
                            onResult: @escaping @Sendable (SearchResult) -> Void) {
        claim(searching: true)
        signals.stop.store(false)
        signals.pondering.store(ponder)
        signals.ponderHitTime.store(0)
        let game = game ?? currentGame
        startThread(stackSize: 64 << 20) { [self] in
            let result = self.run(game, limits, rootMoves, onInfo, onCurrentMove, fullStrength: fullStrength)
            onResult(result)
            self.release()
        }
    }

    /// Starts a thread that waits until nothing holds the engine and then searches: the
    /// caller never blocks (the async forms). `box` learns when the search starts (a
    /// cancellation already seen stops it at once) and ends; the engine is released before
    /// `onResult` runs, so that the awaiting task can start the next search at once.
    func startSearchWhenIdle(_ limits: SearchLimits, game: Game, rootMoves: [Move], fullStrength: Bool,
                             clearFirst: Bool = false, box: ResultBox,
                             onInfo: @escaping @Sendable (SearchInfo) -> Void,
                             onResult: @escaping @Sendable (SearchResult) -> Void) {
        startThread(stackSize: 64 << 20) { [self] in
            claim(searching: true)
            if clearFirst { clearLocked() }
            signals.stop.store(false)
            signals.pondering.store(false)
            signals.ponderHitTime.store(0)
            box.start { stop() }
            let result = run(game, limits, rootMoves, onInfo, fullStrength: fullStrength)
            box.finish()
            release()
            onResult(result)
        }
    }

    /// Searches `game` (default: the current game) on the calling thread and returns the result.
    /// `fullStrength` ignores ``skill`` for this search (hints and evaluations).
    public func search(_ limits: SearchLimits, game: Game? = nil, rootMoves: [Move] = [], fullStrength: Bool = false,
                       onInfo: (SearchInfo) -> Void = { _ in }) -> SearchResult {
        claim(searching: true)
        defer { release() }
        signals.stop.store(false)
        signals.pondering.store(false)
        signals.ponderHitTime.store(0)
        return run(game ?? currentGame, limits, rootMoves, onInfo, fullStrength: fullStrength)
    }

    /// Waits until nothing holds the engine, then holds it until ``release()``.
    private func claim(searching search: Bool = false) {
        idle.withLock {
            while busy { idle.wait() }
            busy = true
            searching = search
        }
    }

    private func release() {
        idle.withLock {
            busy = false
            searching = false
            idle.broadcast()
        }
    }

    /// Runs `body` holding the engine: no search runs meanwhile.
    private func exclusively<T>(_ body: () -> T) -> T {
        claim()
        defer { release() }
        return body()
    }

    private func run(_ game: Game, _ limits: SearchLimits, _ rootMoves: [Move],
                     _ onInfo: (SearchInfo) -> Void,
                     _ onCurrentMove: ((CurrentMoveInfo) -> Void)? = nil, fullStrength: Bool = false) -> SearchResult {
        let start = min(limits.startTime ?? .now, .now)
        lock.withLock { table.newSearch() }
        // The reversible end of the game, for judging repetitions and the no-capture limit
        // (whose window a long run of checks stretches beyond 120 plies).
        let tail = min(game.position.halfmoveClock, game.moves.count, 400)
        let frames = zip(game.positionsBeforeMoves(from: game.moves.count - tail), game.moves.suffix(tail))
            .map { (position: $0, move: $1) }
        var limits = limits
        let settings = lock.withLock { (options: storedSearchOptions, evaluator: storedEvaluator, skill: storedSkill) }
        var options = settings.options, evaluator = settings.evaluator
        let skill = fullStrength ? SkillLevel(SkillLevel.maximum) : settings.skill
        let shownLines = options.multiPV
        if !skill.isFull {
            limits = skill.limits(limits)
            options.multiPV = max(options.multiPV, skill.candidateCount)
            evaluator.noiseAmplitude = max(evaluator.noiseAmplitude, skill.evaluationNoise)
            evaluator.noiseSeed = lock.withLock { random.next() }
            // The low levels judge with the handcrafted evaluation, the one their UCI_Elo
            // ladder was measured with (bench/levels.md). Hints and evaluations
            // (fullStrength) and the top levels use the network.
            if !skill.usesNetwork { evaluator.network = nil }
        }
        let heaps = lock.withLock { self.heaps }
        let threadCount = skill.isFull ? heaps.count : 1
        let group = threadCount > 1 ? SearchThreadGroup(threadCount: threadCount) : nil
        func searcher(_ thread: Int, _ limits: SearchLimits, _ options: SearchOptions) -> Searcher {
            Searcher(position: game.position, history: Array(game.keys.dropLast()),
                     historyFrames: frames, rootMoves: rootMoves,
                     limits: limits, options: options, previousScore: previousScore(game),
                     table: table, heap: heaps[thread], evaluator: evaluator, signals: signals,
                     thread: thread, of: group)
        }
        // Helpers: the same root, one line, no limit but the depth; they stop with the main thread.
        let helpers = HelperThreads(count: threadCount - 1)
        if threadCount > 1 {
            var helperLimits = SearchLimits(depth: limits.depth, infinite: true)
            helperLimits.moveOverhead = limits.moveOverhead
            var helperOptions = options
            helperOptions.multiPV = 1
            for thread in 1..<threadCount {
                let helper = HelperSearch(searcher(thread, helperLimits, helperOptions))
                let started = startThread(stackSize: 64 << 20, runHereIfNoThread: false) {
                    // A helper votes with its last completed iteration, never an aborted one.
                    var result = helper.searcher.run { _ in }
                    if let line = result.lines.first {
                        result.bestMove = line.move
                        result.score = line.score
                        result.ponderMove = line.principalVariation.dropFirst().first
                    }
                    helpers.finish(thread, result)
                }
                // No thread could be made (out of resources): the search goes on without it.
                if !started { helpers.finish(thread, SearchResult(bestMove: nil, ponderMove: nil, score: 0, depth: 0, nodes: 0)) }
            }
        }
        var main = searcher(0, limits, options)
        main.onCurrentMove = onCurrentMove
        // Candidate lines searched only for the skill choice are not reported.
        var result = main.run { info in if info.multiPV <= shownLines { onInfo(info) } }
        if let group {
            group.finished.store(true)
            var results = helpers.waitForAll()
            results[0] = result
            let total = results.reduce(UInt64(0)) { $0 &+ $1.nodes }
            // With MultiPV the main thread's lines are the answer; otherwise the threads vote.
            let chosen = options.multiPV == 1 ? SearchThreadGroup.chooseResult(results) : 0
            if chosen != 0, let line = results[chosen].lines.first {
                result = results[chosen]
                onInfo(SearchInfo(depth: result.depth, selectiveDepth: result.depth, score: line.score,
                                  bound: .exact, nodes: total, time: start.millisecondsElapsed,
                                  hashfull: table.hashfull, principalVariation: line.principalVariation))
            }
            result.nodes = total
        }
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
        signals.pondering.store(false)
        signals.stop.store(true)
    }

    /// Ends pondering: the search's time limits start counting now.
    public func ponderHit(elapsedMilliseconds: Int) {
        signals.ponderHitTime.store(elapsedMilliseconds)
        signals.pondering.store(false)
    }

    /// Blocks until no search is running.
    public func waitUntilIdle() {
        idle.withLock {
            while busy { idle.wait() }
        }
    }

    /// Per-mille of the hash table in use.
    public var hashfull: Int { lock.withLock { table.hashfull } }

    /// The stored entry for `position`, if any (for UCCI `probe`).
    public func probe(_ position: Position) -> TTEntry? { lock.withLock { table.probe(position.key) } }

    /// Searches every bench position to `depth` with a fresh 16 MB table (and `network`, if
    /// given, as the evaluation); returns total nodes (the signature) and elapsed milliseconds.
    public static func bench(depth: Int, network: Network? = nil, progress: (Int, String, UInt64) -> Void = { _, _, _ in })
        -> (nodes: UInt64, milliseconds: Int) {
        bench(BenchSettings(limit: .depth(depth)), network: network, progress: progress)
    }

    /// Searches `settings.positions` one after the other, each from a cleared table, within
    /// `settings.limit` (and with `network`, if given, as the evaluation); returns total nodes
    /// (with the defaults, the signature) and elapsed milliseconds. Positions that are not
    /// valid FENs are skipped (the callers check them first).
    public static func bench(_ settings: BenchSettings, network: Network? = nil,
                             progress: (Int, String, UInt64) -> Void = { _, _, _ in }) -> (nodes: UInt64, milliseconds: Int) {
        let engine = Engine(hashMegabytes: settings.hashMegabytes)
        engine.setThreadCount(settings.threads)
        if let network { engine.setNetwork(network) }
        var total: UInt64 = 0
        let start = MonotonicInstant.now
        for (i, fen) in settings.positions.enumerated() {
            guard let position = try? Position(fen: fen) else { continue }
            engine.newGame()
            engine.setGame(Game(position))
            let limits: SearchLimits
            switch settings.limit {
            case .depth(let depth): limits = SearchLimits(depth: depth)
            case .nodes(let nodes): limits = SearchLimits(nodes: nodes)
            case .moveTime(let milliseconds): limits = SearchLimits(moveTime: milliseconds)
            }
            let result = engine.search(limits)
            total += result.nodes
            progress(i, fen, result.nodes)
        }
        return (total, start.millisecondsElapsed)
    }
}

/// A helper's searcher, handed to its thread: only that thread touches it after the hand-over.
private final class HelperSearch: @unchecked Sendable {
    var searcher: Searcher
    init(_ searcher: Searcher) { self.searcher = searcher }
}

/// The results of a search's helper threads, and a wait for all of them to end.
private final class HelperThreads: @unchecked Sendable {
    // `results` and `pending` are guarded by `lock`.
    private let lock = Lock()
    private var results: [SearchResult]
    private var pending: Int

    init(count: Int) {
        results = [SearchResult](repeating: SearchResult(bestMove: nil, ponderMove: nil, score: 0, depth: 0, nodes: 0),
                                 count: count + 1)
        pending = count
    }

    /// Records helper `thread`'s result.
    func finish(_ thread: Int, _ result: SearchResult) {
        lock.withLock {
            results[thread] = result
            pending -= 1
            lock.broadcast()
        }
    }

    /// Blocks until every helper has finished; returns the results by thread (index 0 empty).
    func waitForAll() -> [SearchResult] {
        lock.withLock {
            while pending > 0 { lock.wait() }
            return results
        }
    }
}
