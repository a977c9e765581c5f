import XiangqiCore

/// How long one search may think: the optimum it aims at (stretched or cut at the end of each
/// iteration by ``TimeManager/scale(_:)``) and the maximum at which it aborts.
public struct TimeBudget: Sendable, Equatable {
    /// Milliseconds the search aims at; no iteration starts after `optimum x scale`.
    public var optimum: Int
    /// Milliseconds after which the search stops in the middle of an iteration.
    public var maximum: Int

    /// A budget of `optimum` and `maximum` milliseconds.
    public init(optimum: Int, maximum: Int) {
        self.optimum = optimum
        self.maximum = maximum
    }
}

/// What the search knows at the end of an iteration that bears on spending more time.
public struct IterationTrend: Sendable, Equatable {
    /// Changes of the best root move, halved at each new iteration (so recent ones weigh most).
    public var bestMoveChanges: Double = 0
    /// How far the score fell since the engine's previous move in this game (centipawns,
    /// negative when it rose); 0 when unknown.
    public var dropSincePreviousMove = 0
    /// How far the score fell over the last few iterations of this search.
    public var dropOverIterations = 0
    /// Completed iterations in a row that kept the same best move.
    public var stableIterations = 0
    /// The best move's share of the root nodes searched so far (0...1).
    public var bestMoveNodeShare = 0.0

    /// A trend with nothing known yet.
    public init() {}
}

/// The clock policy: pure functions of the clock, so that they can be tested without a search.
///
/// A clock gives an optimum of one "share" of what is left: the time after this move's
/// overhead, plus the increments still to come, divided by the moves to go (40 in sudden
/// death, 32 with an increment that pays the overhead, fewer before a `movestogo` control). The share shrinks as the clock does, so the
/// opening and the middlegame, where games are decided, get the most time, and the clock can
/// never reach zero by the share alone. The maximum is a few optima, never more than 80% of
/// what is left.
///
/// Every move costs its overhead (the pipe, the GUI, the scheduler). Where the increment pays
/// for it (10 s + 0.1 s with 10 ms), this move's overhead is charged once, to the move it
/// delays; where it does not (sudden death), the overheads of the moves to go are kept back
/// too, or a short game's clock runs out after about a hundred plies of 1 ms searches: each
/// move's real cost stays near the overhead however small its share becomes.
///
/// No budget plans to leave less than ``reserveOverheads`` move overheads on the clock (100 ms
/// at the default 10 ms): a move that runs to its maximum still leaves them, so a latency
/// spike that the overhead did not foresee is absorbed. Without it, at 1 s + 0.01 s (an
/// increment that only just pays the overhead) the clock sank to 10-16 ms in a fifth of the
/// games on a loaded machine (bench/records/matches/tm32-vs-fsf-tc-1+0.01). The reserve does not
/// change what a move spends once the clock has settled (about the increment, whatever the
/// level), only the level it settles at; it binds only on a clock below five reserves (about
/// half a second), where it is smaller than the 80% cap.
///
/// The horizon is shorter with an increment because the clock cannot run dry there: each
/// move gives the increment back, so the clock tends to about one increment whatever the
/// horizon, and a shorter one only reaches it later in the game. With 40 moves the engine
/// left 16% of a 30 s + 0.3 s game's time unused (12% at 10 s + 0.1 s; Fairy-Stockfish 8%)
/// and thought 0.88x as long as Fairy-Stockfish in plies 0-39 (bench/records/matches,
/// nnue-66f8e295-vs-fsf-tc-30+0.3); 32 gives plies 0-39 about an eighth more.
public enum TimeManager {
    /// Larger clock values are treated as this one (``SearchLimits/clockLimit``).
    public static let clockLimit = SearchLimits.clockLimit
    /// Moves the rest of a sudden-death game is spread over.
    public static let suddenDeathHorizon = 40
    /// Moves the clock is spread over when an increment pays each move's overhead.
    public static let incrementHorizon = 32
    /// The largest move overhead honoured, in milliseconds.
    public static let overheadLimit = 60_000
    /// Move overheads' worth of clock that no budget plans to spend.
    public static let reserveOverheads = 10

    /// The budget for one move on `clock`. Any values are accepted: negative times count as
    /// zero, absurdly large ones as ``clockLimit``; the result is always at least 1 ms and
    /// `optimum <= maximum`, and `maximum` leaves ``reserveOverheads`` overheads on the clock
    /// after this move's own whenever the clock holds more than that. With `ponder` (the GUI
    /// lets the engine think on the opponent's time, which pays for part of the search) the
    /// optimum grows by a quarter.
    public static func budget(for clock: SearchLimits.Clock, moveOverhead: Int, ponder: Bool = false) -> TimeBudget {
        let time = clamp(clock.timeLeft, 0, clockLimit)
        let increment = clamp(clock.increment, 0, clockLimit)
        let overhead = clamp(moveOverhead, 0, overheadLimit)
        let horizon = increment > 0 && increment >= overhead ? incrementHorizon : suddenDeathHorizon
        let movesToGo = clamp(clock.movesToGo ?? horizon, 1, horizon)
        let available = max(0, time - overhead)
        let unpaidOverhead = max(0, overhead - increment)
        let pool = max(0, available + (increment - unpaidOverhead) * (movesToGo - 1))
        var optimum = min(pool / movesToGo, available * 3 / 10)
        if ponder { optimum += optimum / 4 }
        let unreserved = available - overhead * reserveOverheads
        let maximum = max(1, min(available * 8 / 10, optimum * 5, unreserved))
        optimum = max(1, min(optimum, maximum))
        return TimeBudget(optimum: optimum, maximum: maximum)
    }

    /// The factor applied to the optimum at the end of an iteration: above 1 when the best
    /// move keeps changing or the score falls, below 1 when the best move has held for
    /// several iterations and takes most of the nodes. Between 0.4 and 3.
    public static func scale(_ trend: IterationTrend) -> Double {
        let falling = clampDouble(1 + 0.010 * Double(trend.dropSincePreviousMove)
                                    + 0.006 * Double(trend.dropOverIterations), 0.7, 1.6)
        let instability = 1 + 1.5 * min(trend.bestMoveChanges, 2)
        let stability = trend.stableIterations >= 6 ? 0.75 : trend.stableIterations >= 3 ? 0.9 : 1.0
        let effort = trend.bestMoveNodeShare >= 0.85 ? 0.75 : 1.0
        return clampDouble(falling * instability * stability * effort, 0.4, 3)
    }

    /// Whether a search that has run `elapsed` milliseconds should start no new iteration.
    public static func shouldStop(elapsed: Int, budget: TimeBudget, trend: IterationTrend) -> Bool {
        Double(elapsed) >= Double(budget.optimum) * scale(trend)
    }

    @inline(__always)
    static func clamp(_ x: Int, _ low: Int, _ high: Int) -> Int { min(max(x, low), high) }

    @inline(__always)
    static func clampDouble(_ x: Double, _ low: Double, _ high: Double) -> Double { min(max(x, low), high) }
}

extension SearchLimits {
    /// The time budget, or `nil` when time does not bound this search (see ``TimeManager``).
    /// A fixed move time is meant to be used in full: it sets the maximum, and no optimum
    /// of its own stops the search earlier. The move overhead it keeps back is at most 2% of
    /// it (no clock runs out there; 100 ms searches used 88 ms where Fairy-Stockfish used 100).
    public var timeBudget: TimeBudget? {
        if infinite { return nil }
        var budget = clock.map { TimeManager.budget(for: $0, moveOverhead: moveOverhead, ponder: ponderEnabled) }
        if let moveTime {
            let time = min(moveTime, TimeManager.clockLimit)
            let t = max(1, time - min(max(moveOverhead, 0), TimeManager.overheadLimit, time / 50))
            budget = budget.map { TimeBudget(optimum: min($0.optimum, t), maximum: min($0.maximum, t)) }
                ?? TimeBudget(optimum: Int.max / 4, maximum: t)
        }
        return budget
    }
}
