import XiangqiCodec
import XiangqiCore

/// Anything that can search a position for a suite: an external engine through
/// ``EngineClient``, or the engine in-process.
public protocol SuiteSolver: Sendable {
    /// Searches `position` afresh (a new game: no knowledge carried over) within `limits`.
    func solve(_ position: Position, limits: EngineLimits) async throws(EngineClientError) -> EngineReply
}

extension EngineClient: SuiteSolver {
    /// Restarts the engine first if an earlier failure killed it.
    public func solve(_ position: Position, limits: EngineLimits) async throws(EngineClientError) -> EngineReply {
        if !isRunning { try await restart() }
        try await newGame()
        return try await search(from: position, moves: [], limits: limits)
    }
}

/// The result of one suite position.
public struct SuiteOutcome: Sendable {
    public var entry: SuitePosition
    /// The move played (`nil`: none, or the engine failed).
    public var move: Move?
    public var solved: Bool
    /// Milliseconds from the start of the search to the report from which the engine's
    /// first choice stayed on a solving move (mate found, for `dm` alone).
    public var timeToSolution: Int?
    public var depth: Int?
    public var score: EngineScore?
    public var elapsed = 0
    /// Why the engine gave no answer.
    public var failure: String?
}

/// Solving rules: with `bm` the move must be one of them; with `am` none of them; with `dm`
/// alone, the final score must announce a mate within that many moves (or, for `dm 1`, the
/// move must mate).
public enum SuiteJudge {
    public static func judge(_ entry: SuitePosition, _ reply: EngineReply) -> SuiteOutcome {
        var outcome = SuiteOutcome(entry: entry, move: reply.move, solved: false, depth: reply.lastInfo?.depth,
                                   score: reply.lastInfo?.score, elapsed: reply.elapsed)
        guard let move = reply.move else { return outcome }
        func good(move: Move?, score: EngineScore?) -> Bool {
            if !entry.bestMoves.isEmpty || !entry.avoidMoves.isEmpty {
                guard let move else { return false }
                return (entry.bestMoves.isEmpty || entry.bestMoves.contains(move)) && !entry.avoidMoves.contains(move)
            }
            guard let mateIn = entry.mateIn else { return false }
            if case .mate(let n) = score, n > 0, n <= mateIn { return true }
            return false
        }
        var solved = good(move: move, score: reply.lastInfo?.score)
        if !solved, entry.bestMoves.isEmpty, entry.avoidMoves.isEmpty, entry.mateIn == 1 {
            var after = entry.position
            _ = after.make(move)
            solved = after.isCheckmate
        }
        outcome.solved = solved
        guard solved else { return outcome }
        var since: Int?
        for info in reply.infos where info.lineNumber == 1 {
            guard info.score != nil || !info.principalVariation.isEmpty else { continue }
            if good(move: info.principalVariation.first, score: info.score) {
                since = since ?? info.receivedAt
            } else {
                since = nil
            }
        }
        outcome.timeToSolution = since ?? reply.elapsed
        return outcome
    }
}

/// Runs a suite position by position.
public struct SuiteRunner: Sendable {
    public var solver: any SuiteSolver
    public var limits: EngineLimits

    public init(solver: any SuiteSolver, limits: EngineLimits) {
        self.solver = solver
        self.limits = limits
    }

    /// Solves every position in order; an engine failure marks that position unsolved with
    /// the reason and the run goes on (the client restarts a crashed or hung engine).
    public func run(_ positions: [SuitePosition],
                    onOutcome: @Sendable (Int, SuiteOutcome) -> Void = { _, _ in }) async -> [SuiteOutcome] {
        var outcomes: [SuiteOutcome] = []
        for (i, entry) in positions.enumerated() {
            let outcome: SuiteOutcome
            do {
                outcome = SuiteJudge.judge(entry, try await solver.solve(entry.position, limits: limits))
            } catch {
                outcome = SuiteOutcome(entry: entry, solved: false, failure: error.description)
            }
            outcomes.append(outcome)
            onOutcome(i, outcome)
        }
        return outcomes
    }
}
