#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

/// Flags another thread may set while a search runs.
public final class SearchSignals: Sendable {
    /// Set to stop the search as soon as possible.
    public let stop = RelaxedAtomic<Bool>(false)
    /// While set, time limits are suspended (pondering); clearing it starts the clock.
    public let pondering = RelaxedAtomic<Bool>(false)
    /// Milliseconds (on the search's clock) at which pondering ended.
    public let ponderHitTime = RelaxedAtomic<Int>(0)

    /// Signals at rest: not stopped, not pondering.
    public init() {}
}

/// The keys of the game before the root and of the line searched, for repetitions, in memory a
/// ``SearchHeap`` owns: pushing and popping neither allocates nor checks uniqueness. The heap
/// leaves room for the longest line a search plays (``Score/maxPly`` plies).
struct KeyStack {
    private let base: UnsafeMutablePointer<UInt64>
    /// Keys held.
    private(set) var count: Int
    private let capacity: Int

    init(base: UnsafeMutablePointer<UInt64>, count: Int, capacity: Int) {
        self.base = base
        self.count = count
        self.capacity = capacity
    }

    /// The key at `index` (0 the game's first).
    @inline(__always) subscript(index: Int) -> UInt64 { base[index] }

    /// Pushes the key of the position a move reached.
    @inline(__always) mutating func append(_ key: UInt64) {
        assert(count < capacity)
        base[count] = key
        count &+= 1
    }

    /// Pops the last key (its move taken back).
    @inline(__always) mutating func removeLast() { count &-= 1 }
}

/// Tables that persist between searches of one game (move ordering statistics) and the
/// per-ply scratch space. Allocated once; cleared by ``clear()`` for a new game.
public final class SearchHeap: @unchecked Sendable {
    // Owned by one search at a time; the engine never runs two searches on one heap.
    let history: UnsafeMutablePointer<Int32>        // piece index * 90 + to
    /// How well a quiet move did after the move one or two plies before it: rows by the earlier
    /// move's slot (piece index * 90 + to), columns by this move's slot. 3.2 MB.
    let continuationHistory: UnsafeMutablePointer<Int16>
    /// How far searches found the static evaluation off, by side to move and a hash of one
    /// part of the position: ``Searcher/correctionTables`` tables of
    /// ``Searcher/correctionEntries`` entries per side. 128 KB.
    let correctionHistory: UnsafeMutablePointer<Int16>
    /// The move a singular-extension search leaves out at each ply (``Move/none``: none).
    let excludedMoves: UnsafeMutablePointer<Move>
    let counterMoves: UnsafeMutablePointer<Move>     // previous piece index * 90 + previous to
    let killers: UnsafeMutablePointer<Move>          // ply * 2 + slot
    let pv: UnsafeMutablePointer<Move>               // ply * maxPly + i
    let pvLength: UnsafeMutablePointer<Int>
    let staticEvals: UnsafeMutablePointer<Int>
    let playedMoves: UnsafeMutablePointer<Move>
    let movedPieces: UnsafeMutablePointer<Piece>
    let undos: UnsafeMutablePointer<Undo>
    /// ``rootMoveIndices(for:)``'s table.
    private let rootMoveIndexTable: UnsafeMutablePointer<UInt8>
    /// Room for the keys of the game and of the line searched (``KeyStack``).
    private var keyBuffer: UnsafeMutablePointer<UInt64>
    private var keyCapacity: Int
    /// The table's fill as last sampled for a report (by any search on this heap), and when.
    var hashfullSample: (permille: Int, time: MonotonicInstant)?
    /// Late-move reductions by depth × 64 + move number, for `reductionSettings`.
    private let reductionTable: UnsafeMutablePointer<Int>
    private var reductionSettings: (divisor: Int, base: Int)?
    /// The accumulators of the last network searched with (kept while it stays the same).
    private var accumulatorStack: AccumulatorStack?

    /// Accumulators for `network`, made on first use and kept for later searches with it.
    func accumulators(for network: Network) -> AccumulatorStack {
        if let stack = accumulatorStack, stack.network === network { return stack }
        let stack = AccumulatorStack(network: network, plies: Score.maxPly + 8)
        accumulatorStack = stack
        return stack
    }

    /// The late-move reductions of `parameters` (``SearchParameters/reductionTable``), in
    /// memory the heap owns: remade only when the parameters change.
    func reductions(for parameters: SearchParameters) -> UnsafePointer<Int> {
        let settings = (divisor: parameters.reductionDivisor, base: parameters.reductionBase)
        if reductionSettings.map({ $0 != settings }) ?? true {
            let table = parameters.reductionTable
            for i in 0..<64 * 64 { reductionTable[i] = table[i] }
            reductionSettings = settings
        }
        return UnsafePointer(reductionTable)
    }

    /// The keys of `history` and then `root`, with room for the longest line a search plays
    /// from the root (``Score/maxPly``): the buffer grows only for a longer game. Valid until
    /// the next call, which the next search on this heap makes.
    func keyStack(history: [UInt64], root: UInt64) -> KeyStack {
        let needed = history.count + 1 + Score.maxPly + 8
        if keyCapacity < needed {
            keyBuffer.deallocate()
            keyCapacity = max(needed, keyCapacity * 2)
            keyBuffer = .allocate(capacity: keyCapacity)
        }
        for (i, key) in history.enumerated() { keyBuffer[i] = key }
        keyBuffer[history.count] = root
        return KeyStack(base: keyBuffer, count: history.count + 1, capacity: keyCapacity)
    }

    /// ``rootMoveIndices(for:)``'s mark of a move that is not a root move.
    static let noRootMove: UInt8 = 255

    /// The index of each of `moves` (at most 255; the first of repeated ones) by from × 90 +
    /// to, ``noRootMove`` for every other move. Valid until the next call, which the next
    /// search on this heap makes.
    func rootMoveIndices(for moves: [Move]) -> UnsafePointer<UInt8> {
        memset(rootMoveIndexTable, Int32(Self.noRootMove), 90 * 90)
        for (index, move) in moves.enumerated().reversed() where index < Int(Self.noRootMove) {
            rootMoveIndexTable[move.from.index &* 90 &+ move.to.index] = UInt8(index)
        }
        return UnsafePointer(rootMoveIndexTable)
    }

    /// Tables for one search thread, allocated once.
    public init() {
        let n = Score.maxPly + 8
        history = .allocate(capacity: 14 * 90)
        continuationHistory = .allocate(capacity: Self.slots * Self.slots)
        excludedMoves = .allocate(capacity: n)
        continuationHistory.initialize(repeating: 0, count: Self.slots * Self.slots)
        correctionHistory = .allocate(capacity: Self.correctionCount)
        correctionHistory.initialize(repeating: 0, count: Self.correctionCount)
        excludedMoves.initialize(repeating: .none, count: n)
        counterMoves = .allocate(capacity: 14 * 90)
        killers = .allocate(capacity: n * 2)
        pv = .allocate(capacity: n * n)
        pvLength = .allocate(capacity: n)
        staticEvals = .allocate(capacity: n)
        playedMoves = .allocate(capacity: n)
        movedPieces = .allocate(capacity: n)
        undos = .allocate(capacity: n)
        reductionTable = .allocate(capacity: 64 * 64)
        keyCapacity = 1024
        rootMoveIndexTable = .allocate(capacity: 90 * 90)
        rootMoveIndexTable.initialize(repeating: Self.noRootMove, count: 90 * 90)
        keyBuffer = .allocate(capacity: keyCapacity)
        reductionTable.initialize(repeating: 0, count: 64 * 64)
        pv.initialize(repeating: .none, count: n * n)
        pvLength.initialize(repeating: 0, count: n)
        staticEvals.initialize(repeating: 0, count: n)
        playedMoves.initialize(repeating: .none, count: n)
        movedPieces.initialize(repeating: .none, count: n)
        history.initialize(repeating: 0, count: 14 * 90)
        counterMoves.initialize(repeating: .none, count: 14 * 90)
        killers.initialize(repeating: .none, count: n * 2)
    }

    /// Move slots: piece index (14) x target square (90).
    static let slots = 14 * 90
    /// Entries of the correction history: tables x sides x entries per side.
    static let correctionCount = Searcher.correctionTables * 2 * Searcher.correctionEntries

    /// Forgets all statistics (new game), so that searches are reproducible.
    public func clear() {
        // memset: the generic `update(repeating:)` runs element by element in debug builds,
        // where clearing the 3.2 MB table took most of a protocol fuzz run.
        memset(history, 0, 14 * 90 * MemoryLayout<Int32>.stride)
        memset(continuationHistory, 0, Self.slots * Self.slots * MemoryLayout<Int16>.stride)
        memset(correctionHistory, 0, Self.correctionCount * MemoryLayout<Int16>.stride)
        excludedMoves.update(repeating: .none, count: Score.maxPly + 8)
        counterMoves.update(repeating: .none, count: 14 * 90)
        killers.update(repeating: .none, count: (Score.maxPly + 8) * 2)
        hashfullSample = nil
    }

    deinit {
        history.deallocate(); continuationHistory.deallocate(); correctionHistory.deallocate(); excludedMoves.deallocate(); counterMoves.deallocate(); killers.deallocate(); pv.deallocate(); pvLength.deallocate()
        staticEvals.deallocate(); playedMoves.deallocate(); movedPieces.deallocate(); undos.deallocate(); reductionTable.deallocate()
        keyBuffer.deallocate(); rootMoveIndexTable.deallocate()
    }
}

/// Settings of the search itself (not of one search's limits).
public struct SearchOptions: Sendable, Equatable {
    /// Centipawns the engine gives up to avoid a draw (negative: it prefers draws).
    public var contempt = 0
    /// Whether selective pruning and reductions are on (UCCI `pruning none` turns them off).
    public var pruning = true
    /// Each selective rule on its own, for measuring what it gains (see bench/strength.md).
    public var nullMove = true
    /// Late-move reductions.
    public var lateMoveReductions = true
    /// Futility pruning of quiet moves near the leaves.
    public var futility = true
    /// Reverse futility (static null move) pruning.
    public var reverseFutility = true
    /// Singular extensions of the table move, with multi-cut and negative extensions.
    public var singularExtensions = true
    /// Static-exchange pruning of losing captures and quiet moves to attacked squares.
    public var exchangePruning = true
    /// How many best root moves are searched and reported, each with its own score and line.
    public var multiPV = 1
    /// The margins and factors of the selective search (defaults: the engine's play).
    public var parameters = SearchParameters()

    /// Options with every rule on, one line, and the given contempt.
    public init(contempt: Int = 0, pruning: Bool = true) {
        self.contempt = contempt
        self.pruning = pruning
    }
}

/// One search: iterative deepening over alpha-beta (PVS) with a quiescence search.
///
/// A value type holding the position, counters and plain pointers to the shared tables, so
/// the recursion touches no reference counts.
public struct Searcher {
    var position: Position
    let tt: TTView
    let heap: SearchHeap
    let history: UnsafeMutablePointer<Int32>
    let continuationHistory: UnsafeMutablePointer<Int16>
    let correctionHistory: UnsafeMutablePointer<Int16>
    let excludedMoves: UnsafeMutablePointer<Move>
    let counterMoves: UnsafeMutablePointer<Move>
    let killers: UnsafeMutablePointer<Move>
    let pv: UnsafeMutablePointer<Move>
    let pvLength: UnsafeMutablePointer<Int>
    let staticEvals: UnsafeMutablePointer<Int>
    let playedMoves: UnsafeMutablePointer<Move>
    let movedPieces: UnsafeMutablePointer<Piece>
    let undos: UnsafeMutablePointer<Undo>
    /// The reversible end of the game before the root: each position with the move played
    /// from it, oldest first (for judging repetition cycles that reach back before the root).
    let historyFrames: [(position: Position, move: Move)]
    /// For each move of `historyFrames`: whether it captured and whether it gave check (for
    /// the no-capture limit, which leaves out a side's checks beyond the tenth in a row).
    let historyMoveFacts: [(capture: Bool, check: Bool)]
    /// Keys of the game before the root and of the search path (for repetitions).
    var keys: KeyStack
    let evaluator: Evaluator
    /// The network's accumulators along the current line, when a network evaluates.
    let accumulators: AccumulatorStack?
    let signals: SearchSignals
    let limits: SearchLimits
    let rootMoves: [Move]
    let options: SearchOptions
    /// Late-move reductions by depth × 64 + move number, for ``SearchParameters/reductionDivisor``.
    let reductions: UnsafePointer<Int>
    let rootSide: Color
    let start: MonotonicInstant
    let budget: TimeBudget?
    /// The engine's score for its previous move in this game, for the time manager.
    let previousScore: Int?
    /// What the time manager weighs at the end of each iteration.
    var trend = IterationTrend()
    /// Best-move changes at the root during the current iteration.
    var bestMoveChanges = 0
    /// Each root move's index in `rootMoves` by from × 90 + to, ``SearchHeap/noRootMove`` for
    /// other moves (in the heap: no search over the list at each root move).
    let rootMoveIndices: UnsafePointer<UInt8>
    /// Nodes spent under each root move (parallel to `rootMoves`), for the time manager.
    var rootMoveNodes: [UInt64]
    /// Set when the optimum has passed while pondering: the search stops at the ponder hit.
    var stopOnPonderHit = false
    /// This search's thread in a parallel search (0: the main thread, which alone keeps the
    /// clock and reports), and the group it belongs to (`nil`: a single-threaded search).
    let threadIndex: Int
    let threads: SearchThreadGroup?
    /// Nodes the other threads of the group had searched at the last check (refreshed every
    /// 256 nodes), so that a node limit counts all threads.
    var otherThreadsNodes: UInt64 = 0

    /// Nodes this thread has searched.
    public internal(set) var nodes: UInt64 = 0
    var selectiveDepth = 0
    var stopped = false
    var completedDepth = 0
    var rootBest: Move = .none
    var rootBestScore = -Score.infinite
    var rootBestOfPreviousIteration: Move?
    /// Receives the root move being searched (after the first second); nil: not reported.
    public var onCurrentMove: ((CurrentMoveInfo) -> Void)?
    var rootDepth = 0
    /// Which of the MultiPV lines is being searched (0: the best).
    var pvIndex = 0
    /// Root moves of better lines of this iteration, left out of the current line's search.
    var excludedRootMoves: [Move] = []

    /// Prepares a search of `position` (whose game history before it is `history`, oldest
    /// first, not including `position` itself) over `rootMoves` (all legal moves if empty).
    public init(position: Position, history gameKeys: [UInt64],
                historyFrames: [(position: Position, move: Move)] = [], rootMoves: [Move], limits: SearchLimits,
                options: SearchOptions = SearchOptions(), previousScore: Int? = nil,
                table: TranspositionTable, heap: SearchHeap, evaluator: Evaluator, signals: SearchSignals,
                thread: Int = 0, of threads: SearchThreadGroup? = nil) {
        var options = options
        options.parameters = options.parameters.searchable
        self.options = options
        reductions = heap.reductions(for: options.parameters)
        threadIndex = thread
        self.threads = threads
        rootSide = position.sideToMove
        self.position = position
        tt = table.view
        self.heap = heap
        history = heap.history
        continuationHistory = heap.continuationHistory
        correctionHistory = heap.correctionHistory
        excludedMoves = heap.excludedMoves
        counterMoves = heap.counterMoves
        killers = heap.killers
        pv = heap.pv
        pvLength = heap.pvLength
        staticEvals = heap.staticEvals
        playedMoves = heap.playedMoves
        movedPieces = heap.movedPieces
        undos = heap.undos
        self.historyFrames = historyFrames
        historyMoveFacts = historyFrames.indices.map { j in
            let frame = historyFrames[j]
            let after = j + 1 < historyFrames.count ? historyFrames[j + 1].position : position
            return (!frame.position.piece(at: frame.move.to).isNone, after.isInCheck)
        }
        keys = heap.keyStack(history: gameKeys, root: position.key)
        self.evaluator = evaluator
        accumulators = evaluator.activeNetwork.map { heap.accumulators(for: $0) }
        accumulators?.refresh(position, ply: 0)
        self.signals = signals
        self.limits = limits
        let legal = position.legalMoves
        self.rootMoves = rootMoves.isEmpty ? legal : rootMoves.filter { legal.contains($0) }
        rootMoveNodes = [UInt64](repeating: 0, count: self.rootMoves.count)
        rootMoveIndices = heap.rootMoveIndices(for: self.rootMoves)
        self.previousScore = previousScore
        let now = MonotonicInstant.now
        start = limits.startTime.map { min($0, now) } ?? now
        budget = limits.timeBudget
    }

    /// Milliseconds since the search started.
    func elapsed() -> Int {
        start.millisecondsElapsed
    }

    /// Runs iterative deepening until a limit or the stop signal; reports each iteration
    /// (with ``SearchOptions/multiPV`` lines, each searched with the better ones excluded,
    /// then reported best first once the iteration's lines are known).
    public mutating func run(onInfo: (SearchInfo) -> Void) -> SearchResult {
        guard let first = rootMoves.first else {
            let score = -Score.mate
            return SearchResult(bestMove: nil, ponderMove: nil, score: score, depth: 0, nodes: 0)
        }
        rootBest = first
        if let entry = tt.probe(position.key), rootMoves.contains(entry.move) { rootBest = entry.move }
        var ponder: Move?
        let maxDepth = min(limits.depth ?? (Score.maxPly - 8), Score.maxPly - 8)
        let lineCount = max(1, min(options.multiPV, rootMoves.count))
        var lines: [RootLine] = []
        var iterationScores: [Int] = []
        var depth = 1
        while depth <= maxDepth {
            if SearchThreadGroup.skipsDepth(depth, thread: threadIndex) && depth < maxDepth {
                depth += 1
                continue
            }
            var newLines: [RootLine] = []
            rootDepth = depth
            trend.bestMoveChanges /= 2
            bestMoveChanges = 0
            for index in 0..<lineCount {
                pvIndex = index
                excludedRootMoves = newLines.map(\.move)
                selectiveDepth = 0
                let previous = index < lines.count ? lines[index].score : 0
                var delta = options.parameters.aspirationDelta
                var alpha = -Score.infinite, beta = Score.infinite
                if depth >= 5 && index < lines.count {
                    alpha = max(previous - delta, -Score.infinite)
                    beta = min(previous + delta, Score.infinite)
                }
                var iterationScore = 0
                while true {
                    iterationScore = search(alpha, beta, depth, 0, pvNode: true, cutNode: false)
                    if stopped { break }
                    if iterationScore <= alpha {
                        // A fail low proved no line: the report shows this line's previous one.
                        report(depth, iterationScore, .upper, index, onInfo,
                               fallback: index < lines.count ? lines[index].principalVariation : [rootBest])
                        beta = (alpha + beta) / 2
                        alpha = max(iterationScore - delta, -Score.infinite)
                    } else if iterationScore >= beta {
                        report(depth, iterationScore, .lower, index, onInfo)
                        beta = min(iterationScore + delta, Score.infinite)
                    } else {
                        break
                    }
                    delta += delta / 2
                }
                if stopped { break }
                let line = (0..<pvLength[0]).map { pv[$0] }
                guard let move = line.first else { break }
                newLines.append(RootLine(move: move, score: iterationScore, principalVariation: line))
                if index == 0 {
                    rootBest = move
                    rootBestScore = iterationScore
                    ponder = line.count > 1 ? line[1] : nil
                }
                if lineCount == 1 { report(depth, iterationScore, .exact, index, onInfo) }
            }
            pvIndex = 0
            excludedRootMoves = []
            if lineCount > 1 && !newLines.isEmpty {
                // A later line can score above an earlier one (each line's search starts from
                // tables the earlier ones changed): the lines of the iteration, or of as much
                // of it as a stop left, are reported and kept best first, and the best of
                // them is the move.
                let ranked = newLines.enumerated()
                    .sorted { $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset }
                    .map(\.element)
                let best = ranked[0]
                if best.move != rootBest {
                    bestMoveChanges &+= 1
                    rootBest = best.move
                    rootBestScore = best.score
                    ponder = best.principalVariation.count > 1 ? best.principalVariation[1] : nil
                }
                newLines = ranked
                for (index, line) in ranked.enumerated() {
                    report(depth, line.score, .exact, line.principalVariation, index, onInfo)
                }
            }
            if stopped { break }
            lines = newLines
            completedDepth = depth
            let score = lines.first?.score ?? rootBestScore
            if let mate = limits.mate, Score.isMate(score), score > 0, Score.mateInMoves(score) <= mate { break }
            if timeToStop(depth: depth, score: score, scores: &iterationScores, best: lines.first?.move) {
                if !signals.pondering.load() { break }
                stopOnPonderHit = true
            }
            depth += 1
        }
        // A search ended by the stop signal in the middle of an iteration keeps the best
        // move that iteration proved; its expected reply is no longer known.
        if rootBest != lines.first?.move { ponder = nil }
        threads?.publish(nodes, thread: threadIndex)
        return SearchResult(bestMove: rootBest, ponderMove: ponder, score: rootBestScore,
                            depth: completedDepth, nodes: nodes, lines: lines)
    }

    /// The time manager's verdict at the end of iteration `depth`: whether to start no other
    /// (see ``TimeManager``). A single legal move on a clock is played after a short search.
    mutating func timeToStop(depth: Int, score: Int, scores: inout [Int], best: Move?) -> Bool {
        scores.append(score)
        trend.stableIterations = best == rootBestOfPreviousIteration ? trend.stableIterations + 1 : 0
        rootBestOfPreviousIteration = best
        trend.bestMoveChanges += Double(bestMoveChanges)
        // A fixed move time is used in full; only a clock has an optimum to stretch or cut.
        guard let budget, !limits.infinite, limits.clock != nil else { return false }
        if rootMoves.count == 1 && depth >= 4 { return true }
        if let previousScore, !Score.isMate(previousScore), !Score.isMate(score) {
            trend.dropSincePreviousMove = previousScore - score
        }
        if scores.count >= 4, !Score.isMate(score), !Score.isMate(scores[scores.count - 4]) {
            trend.dropOverIterations = scores[scores.count - 4] - score
        }
        if nodes > 0, let best, let index = rootMoves.firstIndex(of: best) {
            trend.bestMoveNodeShare = Double(rootMoveNodes[index]) / Double(nodes)
        }
        return TimeManager.shouldStop(elapsed: elapsed(), budget: budget, trend: trend)
    }

    /// Reports line `index` of iteration `depth`: the root's principal variation, or
    /// `fallback` (a line already proved legal from the root) when the root has none, as
    /// after a fail low, so that a bound line always names the move it is about.
    mutating func report(_ depth: Int, _ score: Int, _ bound: Bound, _ index: Int, _ onInfo: (SearchInfo) -> Void,
                fallback: [Move] = []) {
        var line: [Move] = []
        for i in 0..<pvLength[0] { line.append(pv[i]) }
        if line.isEmpty { line = fallback }
        report(depth, score, bound, line, index, onInfo)
    }

    /// Reports `line` with `score` and `bound` as line `index` of iteration `depth`.
    mutating func report(_ depth: Int, _ score: Int, _ bound: Bound, _ line: [Move], _ index: Int, _ onInfo: (SearchInfo) -> Void) {
        let allNodes = nodes &+ (threads?.nodes(excluding: threadIndex) ?? 0), time = elapsed()
        onInfo(SearchInfo(depth: depth, selectiveDepth: selectiveDepth, score: score, bound: bound,
                          nodes: allNodes, time: time, hashfull: sampledHashfull(at: time), principalVariation: line,
                          multiPV: index + 1))
    }

    /// The index of `move` in `rootMoves`, or `nil` if it is not a root move.
    @inline(__always)
    func rootMoveIndex(_ move: Move) -> Int? {
        let index = rootMoveIndices[move.from.index &* 90 &+ move.to.index]
        return index == SearchHeap.noRootMove ? nil : Int(index)
    }

    /// The table's fill in permille, sampled again only when the last sample (of any search
    /// on this heap since its last clear) is 100 ms old: a sample reads 4,000 entries, which at
    /// every iteration of searches of a thousand nodes (datagen's) took 2% of the time.
    mutating func sampledHashfull(at time: Int) -> Int {
        let now = start.advanced(byMilliseconds: time)
        if let sample = heap.hashfullSample, sample.time <= now, now.milliseconds(since: sample.time) < 100 {
            return sample.permille
        }
        let permille = tt.hashfull
        heap.hashfullSample = (permille, now)
        return permille
    }

    /// Sets ``stopped`` when a limit is reached; called at every node. Helper threads have
    /// no limits of their own: they stop when the main thread's search ends.
    @inline(__always)
    mutating func checkLimits() {
        // Limits wait for the first iteration, so that the move played was searched, but only
        // up to a hard bound (a first iteration that explodes must not hang the engine or
        // lose on time): 64 times the node budget (at least 65,536 nodes), or the time
        // budget's maximum once 1,024 nodes are searched.
        if let limit = limits.nodes, nodes &+ otherThreadsNodes >= limit,
           completedDepth >= 1 || nodes &+ otherThreadsNodes >= max(limit &* 64, 1 << 16) {
            stopped = true
            return
        }
        guard nodes & 255 == 0 else { return }
        if signals.stop.load() {
            stopped = true
            return
        }
        if let threads {
            threads.publish(nodes, thread: threadIndex)
            if threads.finished.load() {
                stopped = true
                return
            }
            otherThreadsNodes = threads.nodes(excluding: threadIndex)
        }
        if !signals.pondering.load() && (completedDepth >= 1 || nodes >= 1 << 10) {
            if stopOnPonderHit {
                stopped = true
            } else if let budget, elapsed() - signals.ponderHitTime.load() >= budget.maximum {
                stopped = true
            }
        }
    }

    /// Whether neither side has a piece that can cross the river (chariot, horse, cannon,
    /// soldier): a draw by insufficient material (``RuleJudge/isInsufficientMaterial(_:)``),
    /// tested without allocation for every node.
    @inline(__always)
    func isInsufficientMaterial() -> Bool {
        let red = position.pieces(of: .red, .chariot) | position.pieces(of: .red, .horse)
            | position.pieces(of: .red, .cannon) | position.pieces(of: .red, .soldier)
        let black = position.pieces(of: .black, .chariot) | position.pieces(of: .black, .horse)
            | position.pieces(of: .black, .cannon) | position.pieces(of: .black, .soldier)
        return (red | black).isEmpty
    }

    /// The score of a draw for the side to move (contempt counts against the engine's side).
    @inline(__always)
    func drawScore() -> Int {
        position.sideToMove == rootSide ? -options.contempt : options.contempt
    }

    /// How many plies back the current position occurred before (same side to move, since
    /// the last capture), or 0 if it did not.
    @inline(__always)
    func repetitionDistance() -> Int {
        let n = keys.count
        let key = keys[n &- 1]
        let reach = min(position.halfmoveClock, n &- 1)
        var back = 2
        while back <= reach {
            if keys[n &- 1 &- back] == key { return back }
            back &+= 2
        }
        return 0
    }

    /// Whether the no-capture limit has drawn the game at `ply` (checked only once the
    /// half-move clock reaches 120): the plies since the last capture, counted back through
    /// the line and the game as ``Game/status(moveLimit:repetitionFold:)`` counts them
    /// (``NoCaptureCount``: a side's checks beyond the tenth in a row left out), reach 120.
    /// Changes nothing; `mutating` for the reason ``scoreMoves(_:ttMove:ply:)`` is.
    mutating func noCaptureLimitReached(ply: Int) -> Bool {
        var count = NoCaptureCount()
        var mover = position.sideToMove.opponent
        var gaveCheck = position.isInCheck
        var walked = 0
        // The line's moves, newest first: a move gave check when the position after it
        // (the next move's undo record) was in check. Null moves count like quiet ones.
        var k = ply &- 1
        while k >= 0 {
            let undo = undos[k]
            if !undo.capturedPiece.isNone { return false }
            count.countEarlierMove(by: mover, givingCheck: gaveCheck)
            if count.plies >= 120 { return true }
            gaveCheck = undo.moverWasInCheck
            mover = mover.opponent
            walked &+= 1
            k &-= 1
        }
        // Then the game's moves before the root.
        var j = historyMoveFacts.count &- 1
        while j >= 0 {
            let facts = historyMoveFacts[j]
            if facts.capture { return false }
            count.countEarlierMove(by: mover, givingCheck: facts.check)
            if count.plies >= 120 { return true }
            mover = mover.opponent
            walked &+= 1
            j &-= 1
        }
        // Plies before the known moves: only their number is known, and all count.
        count.countEarlierPlies(position.halfmoveClock &- walked)
        return count.plies >= 120
    }

    /// The score of a repetition `back` plies long for the side to move at `ply`: a win or
    /// loss by rule when one side forced it (perpetual check or chase), else a draw.
    mutating func repetitionScore(_ back: Int, ply: Int) -> Int {
        // Rebuild the cycle's positions: search path moves are undone on a copy, earlier
        // ones come from the game history.
        var frames: [(position: Position, move: Move)] = []
        var q = position
        var i = ply - 1
        var remaining = back
        while remaining > 0 && i >= 0 {
            let move = playedMoves[i]
            if !move.isReal { return drawScore() }  // a null move inside the cycle
            q.unmake(move, undos[i])
            frames.append((q, move))
            i -= 1
            remaining -= 1
        }
        if remaining > 0 {
            guard remaining <= historyFrames.count else { return drawScore() }
            frames += historyFrames.suffix(remaining).reversed()
        }
        frames.reverse()
        switch RuleJudge.judgeCycle(positions: frames.map(\.position), moves: frames.map(\.move)) {
        case .draw:
            return drawScore()
        case .loss(let loser, _):
            let score = Score.ruleWin - ply
            return loser == position.sideToMove ? -score : score
        }
    }
}
