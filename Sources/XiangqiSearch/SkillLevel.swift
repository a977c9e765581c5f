#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

/// Playing strength from 0 (beginner) to 20 (full strength), made weaker the way people are:
/// a smaller search (depth, node and time caps: deeper tactics and plans are missed), a
/// noisier evaluation, and a choice among the best few moves with a temperature. From level 5
/// up a move scoring more than ``margin`` below the best is never chosen, so no piece is left
/// to a one-move capture for nothing (the candidates come from a search that sees captures).
/// Levels up to 15 judge with the handcrafted evaluation; from ``firstNetworkLevel`` up the
/// network judges, so that the strongest capped levels close the gap to level 20.
public struct SkillLevel: Sendable, Equatable {
    /// The full-strength level.
    public static let maximum = 20
    /// 0...20.
    public let level: Int

    /// Level `level`, clamped to 0...20.
    public init(_ level: Int) { self.level = min(max(level, 0), Self.maximum) }

    /// Level 20: no caps, no choice, no noise.
    public var isFull: Bool { level >= Self.maximum }

    /// The lowest level that evaluates with the network (when one is loaded).
    public static let firstNetworkLevel = 16
    /// Whether this level evaluates with the network when one is loaded: from
    /// ``firstNetworkLevel`` up. Below it the handcrafted evaluation judges, which is weaker
    /// per node, so that the node-capped low levels keep the strength they were measured at
    /// (bench/levels.md).
    public var usesNetwork: Bool { level >= Self.firstNetworkLevel }

    /// Deepest iteration: 4 at level 0, 6 at 5, 9 at 10, 11 at 15, 13 at 19.
    public var maxDepth: Int { 4 + level / 2 }
    /// Node cap, the main knob: 4,000 at level 0, x1.22 per level (about 10,800 at 5,
    /// 29,000 at 10, 79,000 at 15, 175,000 at 19).
    public var maxNodes: UInt64 { UInt64(4000 * pow(1.22, Double(level))) }
    /// Thinking time cap in ms, whatever the clock says: 100 at level 0 to 955 at 19.
    public var maxTime: Int { 100 + 45 * level }
    /// Root moves searched as candidates (MultiPV lines).
    public var candidateCount: Int { 4 }
    /// Softmax temperature in centipawns: 30 at level 0 to 11 at level 19.
    public var temperature: Double { Double(Self.maximum - level) + 10 }
    /// Candidates this far below the best are never chosen: 300 cp below level 5 (a
    /// beginner may drop a piece), then 125 at 5 down to 55 at 19.
    public var margin: Int { level < 5 ? 300 : 150 - 5 * level }
    /// Evaluation noise amplitude in centipawns: 15 at level 0 to 0 at 19.
    public var evaluationNoise: Int { (Self.maximum - level) * 3 / 4 }

    /// `limits` with this level's caps (no change at level 20): depth and nodes always; time,
    /// whatever the clock says, when time bounds the search (a clock or a move time), so that
    /// a practice game answers within ``maxTime``. A search bounded only by depth or nodes is
    /// bounded by the node cap and stays reproducible; an infinite one (analysis) runs until
    /// stopped.
    public func limits(_ limits: SearchLimits) -> SearchLimits {
        guard !isFull else { return limits }
        var capped = limits
        capped.depth = min(limits.depth ?? maxDepth, maxDepth)
        capped.nodes = min(limits.nodes ?? maxNodes, maxNodes)
        if !limits.infinite && (limits.clock != nil || limits.moveTime != nil) {
            // A fixed move time keeps back at most 2% of itself for the overhead (see
            // SearchLimits.timeBudget), so the cap itself keeps the answer within maxTime.
            capped.moveTime = min(limits.moveTime ?? Int.max, maxTime)
        }
        return capped
    }

    /// The move to play among `lines` (best first, as a search returns them): drawn with
    /// probability proportional to exp((score - best) / temperature) among those within
    /// ``margin`` of the best. Level 20, or a single line: the best.
    public func choose<R: RandomNumberGenerator>(from lines: [RootLine], using random: inout R) -> RootLine? {
        guard let best = lines.first else { return nil }
        if isFull || lines.count == 1 { return best }
        // Mates count as large but finite scores, so a found mate is (almost) always played.
        func clamped(_ score: Int) -> Double { Double(min(max(score, -3000), 3000)) }
        let top = clamped(best.score)
        let pool = lines.filter { clamped($0.score) >= top - Double(margin) }
        let weights = pool.map { exp((clamped($0.score) - top) / temperature) }
        var draw = Double.random(in: 0..<weights.reduce(0, +), using: &random)
        for (line, weight) in zip(pool, weights) {
            if draw < weight { return line }
            draw -= weight
        }
        return pool.last
    }
}
