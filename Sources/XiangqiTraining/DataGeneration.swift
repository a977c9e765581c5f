import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// Self-play that produces training positions (``TrainingRecord``) for an evaluation: each
/// game starts with a few random plies, then the engine plays both sides at a fixed node (or
/// depth) budget, and the quiet positions it searched are kept with its score and, once the
/// game ends, the result.
///
/// Game `i` depends only on ``seed`` and `i`: its opening comes from a generator seeded with
/// both, and the engine forgets everything before it (``Engine/newGame()``), so a run is
/// reproducible whatever the number of threads, and games `a..<b` and `b..<c` run apart
/// (on other machines, or after an interruption) make the same data as `a..<c`.
public struct DataGeneration: Sendable {
    /// Nodes per search (all searches use one thread).
    public var nodes: UInt64 = 5000
    /// A depth per search instead of (or besides) the node budget.
    public var depth: Int?
    /// How many random plies open each game (uniform in the range).
    public var randomPlies: ClosedRange<Int> = 6...9
    public var seed: UInt64 = 1
    public var hashMegabytes = 4
    /// The network the searches evaluate with (nil: the handcrafted evaluation). The data
    /// depend on it as on the seed: the next network learns from the best engine so far.
    public var network: Network?
    /// Games longer than this are drawn.
    public var maxPlies = 400
    /// An opening whose first search scores beyond this (either way) is not played.
    public var openingScoreLimit = 400
    /// A game is won when the score stays at least this large for ``winPlies`` plies in a row.
    public var winScore = 1500
    public var winPlies = 8
    /// A game is drawn when, from ply ``drawFromPly`` on, the score stays within
    /// ±``drawScore`` for ``drawPlies`` plies in a row.
    public var drawFromPly = 120
    public var drawScore = 10
    public var drawPlies = 16

    public init() {}

    /// One game's positions and how it ended.
    public struct Outcome: Sendable {
        public var records: [TrainingRecord]
        public var result: GameResult
        public var reason: String
        public var plies: Int
        /// The lowest depth that a search of the game completed (a search stopped by its
        /// hard node bound before depth 1 completes has depth 0).
        public var shallowestDepth = Int.max
    }

    /// Plays game `index` with `engine`; `nil` when its random opening was unusable (the game
    /// was over, or the position lopsided).
    public func playGame(_ index: Int, engine: Engine) -> Outcome? {
        engine.newGame()
        var random = SeededGenerator(seed: (seed &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: index))
        var game = Game()
        for _ in 0..<Int.random(in: randomPlies, using: &random) {
            guard let move = game.position.legalMoves.randomElement(using: &random) else { return nil }
            try? game.play(move)
        }
        guard game.status() == .ongoing else { return nil }
        let openingPlies = game.moves.count
        let limits = SearchLimits(depth: depth, nodes: depth == nil ? nodes : nil)
        var records: [TrainingRecord] = []
        var winning = (plies: 0, sign: 0), drawish = 0, shallowestDepth = Int.max
        func finish(_ result: GameResult, _ reason: String) -> Outcome {
            let red = result == .redWins ? 1 : result == .blackWins ? -1 : 0
            for i in records.indices { records[i].redResult = red }
            return Outcome(records: records, result: result, reason: reason, plies: game.moves.count,
                           shallowestDepth: shallowestDepth)
        }
        while true {
            let status = game.status()
            if let result = status.result { return finish(result, status.description) }
            if game.moves.count >= maxPlies { return finish(.draw, "max plies") }
            let position = game.position
            let searched = engine.search(limits, game: game, fullStrength: true)
            guard let move = searched.bestMove else { return finish(.draw, "no move") }
            shallowestDepth = min(shallowestDepth, searched.depth)
            let score = searched.score
            if game.moves.count == openingPlies && abs(score) > openingScoreLimit { return nil }
            let redScore = position.sideToMove == .red ? score : -score
            // Adjudication: a decided score held by both sides, or a long level endgame.
            let sign = redScore >= winScore ? 1 : redScore <= -winScore ? -1 : 0
            winning = sign != 0 && sign == winning.sign ? (winning.plies + 1, sign) : (sign == 0 ? 0 : 1, sign)
            if winning.plies >= winPlies { return finish(sign > 0 ? .redWins : .blackWins, "adjudicated win") }
            drawish = game.moves.count >= drawFromPly && abs(score) <= drawScore ? drawish + 1 : 0
            if drawish >= drawPlies { return finish(.draw, "adjudicated draw") }
            // Quiet positions only: not in check, a best move that captures nothing, a score
            // that is neither a mate nor a win by the repetition rules.
            if !position.isInCheck && position.piece(at: move.to).isNone && abs(score) < 10_000 {
                records.append(TrainingRecord(position: position, score: score, redResult: 0, ply: game.moves.count))
            }
            try? game.play(move)
        }
    }

    /// Scores the positions of a recorded game (`moves` from the start position, ending in
    /// `result`) with the engine's search at this budget, from ply `skipPlies` on (the
    /// openings of many games repeat each other), keeping the quiet ones as self-play does,
    /// each with the game's result. `nil` when a move is illegal.
    public func replay(_ moves: [Move], result: GameResult, skipPlies: Int, engine: Engine) -> Outcome? {
        engine.newGame()
        let limits = SearchLimits(depth: depth, nodes: depth == nil ? nodes : nil)
        let red = result == .redWins ? 1 : result == .blackWins ? -1 : 0
        var game = Game()
        var records: [TrainingRecord] = []
        for move in moves {
            let position = game.position
            if game.moves.count >= skipPlies && !position.isInCheck {
                let searched = engine.search(limits, game: game, fullStrength: true)
                if let best = searched.bestMove, position.piece(at: best.to).isNone, abs(searched.score) < 10_000 {
                    records.append(TrainingRecord(position: position, score: searched.score, redResult: red,
                                                  ply: game.moves.count))
                }
            }
            do { try game.play(move) } catch { return nil }
        }
        return Outcome(records: records, result: result, reason: "recorded game", plies: moves.count)
    }

    /// Plays games `indices` on `threads` threads, each with its own engine, and hands each
    /// game's outcome to `deliver` in index order (one call at a time, on a worker thread).
    /// `play` makes game `i`'s outcome (default: ``playGame(_:engine:)``). Returns when all
    /// are delivered.
    public func run(games indices: Range<Int>, threads: Int,
                    play: (@Sendable (Int, Engine) -> Outcome?)? = nil,
                    deliver: @escaping @Sendable (Int, Outcome?) -> Void) {
        let queue = GameQueue(indices)
        let workers = max(1, min(threads, indices.count))
        for _ in 0..<workers {
            let settings = self
            startThread(stackSize: 64 << 20) {
                let engine = Engine(hashMegabytes: settings.hashMegabytes)
                if let network = settings.network { engine.setNetwork(network) }
                while let index = queue.next() {
                    let outcome = play.map { $0(index, engine) } ?? settings.playGame(index, engine: engine)
                    queue.finish(index, outcome, deliver)
                }
                queue.workerDone()
            }
        }
        queue.waitForWorkers(workers)
    }
}

/// The games of a run: the next index to play, and outcomes held until every earlier game
/// has been delivered.
private final class GameQueue: @unchecked Sendable {
    // Everything is guarded by `lock`.
    private let lock = Lock()
    private var nextIndex: Int
    private let end: Int
    private var nextToDeliver: Int
    private var held: [Int: DataGeneration.Outcome?] = [:]
    private var doneWorkers = 0

    init(_ indices: Range<Int>) {
        nextIndex = indices.lowerBound
        nextToDeliver = indices.lowerBound
        end = indices.upperBound
    }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < end else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func finish(_ index: Int, _ outcome: DataGeneration.Outcome?, _ deliver: (Int, DataGeneration.Outcome?) -> Void) {
        lock.withLock {
            held[index] = .some(outcome)
            while let ready = held.removeValue(forKey: nextToDeliver) {
                deliver(nextToDeliver, ready)
                nextToDeliver += 1
            }
        }
    }

    func workerDone() {
        lock.withLock {
            doneWorkers += 1
            lock.broadcast()
        }
    }

    func waitForWorkers(_ count: Int) {
        lock.withLock {
            while doneWorkers < count { lock.wait() }
        }
    }
}
