#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The search's tunable margins and factors: the numbers the selective search is built on,
/// in one place so that a tuner (``SearchParameters/table``, `xiangqi spsa`) can move them.
///
/// The defaults are the engine's play; each value is an integer in the unit its doc comment
/// names. Values outside a parameter's ``Tunable/range`` are never set by the protocol (it
/// clamps); the search takes any value (``searchable`` says how it reads values that would divide by zero or never widen the
/// aspiration window).
public struct SearchParameters: Sendable, Equatable {
    /// Reverse futility: a node at depth ≤ ``reverseFutilityDepth`` returns its evaluation when
    /// that is this many centipawns per ply above beta.
    public var reverseFutilityMargin = 90
    /// Centipawns the reverse-futility margin shrinks by when the side is improving.
    public var reverseFutilityImproving = 40
    /// Deepest node (plies) reverse futility applies to.
    public var reverseFutilityDepth = 6
    /// Null move: the reduction grows by a ply per this many centipawns of evaluation above
    /// beta (at most 3 plies).
    public var nullMoveEvalDivisor = 200
    /// Null move: the reduction grows by a ply per this many quarter plies of depth.
    public var nullMoveDepthDivisor = 16
    /// Null move: the reduction's base in plies, before depth and evaluation add to it.
    public var nullMoveBase = 3
    /// Futility pruning of quiet moves: the base margin in centipawns.
    public var futilityBase = 120
    /// Futility pruning of quiet moves: centipawns added per ply of the move's reduced depth
    /// (the depth less the late-move reduction table's value for it).
    public var futilityPerDepth = 110
    /// Futility pruning of quiet moves applies while the move's reduced depth is below this
    /// (plies).
    public var futilityDepth = 8
    /// Late quiet moves past `lateQuietBase + lateQuietFactor·depth²/4` (divided by
    /// ``lateQuietNotImprovingDivisor`` when not improving) are left out, at any depth.
    public var lateQuietBase = 3
    /// See ``lateQuietBase``: quarters.
    public var lateQuietFactor = 4
    /// See ``lateQuietBase``: the late quiet count is divided by this when the side to move's
    /// evaluation is not improving.
    public var lateQuietNotImprovingDivisor = 2
    /// Exchange pruning of captures: a losing capture is left out when it loses more than this
    /// many centipawns per ply of depth.
    public var exchangeCaptureMargin = 120
    /// Exchange pruning of quiet moves: a quiet move is left out when its piece is lost for
    /// more than this many centipawns times the square of its reduced depth.
    public var exchangeQuietMargin = 25
    /// Late-move reductions: `ln(depth)·ln(moveNumber) / (this / 100)` plies, plus
    /// ``reductionBase``, rounded down.
    public var reductionDivisor = 210
    /// Late-move reductions: hundredths of a ply added before the table rounds down.
    public var reductionBase = 50
    /// Late-move reductions: one ply less per this much history (own and continuation).
    public var reductionHistoryDivisor = 12_000
    /// Singular extensions: the table move is singular when every other move stays this many
    /// eighths of a centipawn per ply of depth below the table score.
    public var singularMargin = 16
    /// Aspiration windows: the first half-width in centipawns (widened by half each fail).
    public var aspirationDelta = 30
    /// History bonus of a quiet move that cut off a node of depth d: `(this·d + 332)·d − 676`,
    /// at least 16·d and at most 3317.
    public var historyBonusFactor = 8
    /// Quiescence delta pruning: a capture is left out when even winning its victim plus this
    /// many centipawns leaves the score at or below alpha.
    public var quiescenceDeltaMargin = 200
    /// Check extension: a check that does not lose material is searched a ply deeper at
    /// nodes of at least this depth (plies; 0: at every depth).
    public var checkExtensionDepth = 8

    /// The engine's defaults.
    public init() {}

    /// One tunable value: its name (the hidden protocol option), where it lives, the range
    /// the protocol accepts and SPSA's final perturbation `cEnd` (fishtest's c_end; its r_end
    /// is 0.002 unless given).
    public struct Tunable: Sendable {
        public let name: String
        public let keyPath: WritableKeyPath<SearchParameters, Int> & Sendable
        public let range: ClosedRange<Int>
        public let cEnd: Double
        public let rEnd: Double

        init(_ name: String, _ keyPath: WritableKeyPath<SearchParameters, Int> & Sendable,
             _ range: ClosedRange<Int>, cEnd: Double, rEnd: Double = 0.002) {
            self.name = name
            self.keyPath = keyPath
            self.range = range
            self.cEnd = cEnd
            self.rEnd = rEnd
        }

        /// The engine's default value.
        public var defaultValue: Int { SearchParameters()[keyPath: keyPath] }
    }

    /// Every tunable parameter, in a fixed order (a tuner's trace lists values in this order).
    public static let table: [Tunable] = [
        Tunable("ReverseFutilityMargin", \.reverseFutilityMargin, 40...160, cEnd: 8),
        Tunable("ReverseFutilityImproving", \.reverseFutilityImproving, 0...100, cEnd: 8),
        Tunable("ReverseFutilityDepth", \.reverseFutilityDepth, 3...10, cEnd: 1),
        Tunable("NullMoveEvalDivisor", \.nullMoveEvalDivisor, 100...400, cEnd: 20),
        Tunable("NullMoveDepthDivisor", \.nullMoveDepthDivisor, 8...32, cEnd: 2),
        Tunable("NullMoveBase", \.nullMoveBase, 1...6, cEnd: 1),
        Tunable("FutilityBase", \.futilityBase, 40...250, cEnd: 12),
        Tunable("FutilityPerDepth", \.futilityPerDepth, 50...200, cEnd: 10),
        Tunable("FutilityDepth", \.futilityDepth, 1...16, cEnd: 1),
        Tunable("LateQuietBase", \.lateQuietBase, 1...12, cEnd: 1),
        Tunable("LateQuietFactor", \.lateQuietFactor, 3...16, cEnd: 1),
        Tunable("LateQuietNotImprovingDivisor", \.lateQuietNotImprovingDivisor, 1...8, cEnd: 1),
        Tunable("ExchangeCaptureMargin", \.exchangeCaptureMargin, 50...250, cEnd: 10),
        Tunable("ExchangeQuietMargin", \.exchangeQuietMargin, 8...50, cEnd: 3),
        Tunable("ReductionDivisor", \.reductionDivisor, 150...300, cEnd: 10),
        Tunable("ReductionBase", \.reductionBase, 0...150, cEnd: 10),
        Tunable("ReductionHistoryDivisor", \.reductionHistoryDivisor, 4000...24_000, cEnd: 1000),
        Tunable("SingularMargin", \.singularMargin, 4...40, cEnd: 2),
        Tunable("AspirationDelta", \.aspirationDelta, 10...80, cEnd: 3),
        Tunable("HistoryBonusFactor", \.historyBonusFactor, 0...40, cEnd: 2),
        Tunable("QuiescenceDeltaMargin", \.quiescenceDeltaMargin, 50...400, cEnd: 15),
        Tunable("CheckExtensionDepth", \.checkExtensionDepth, 0...16, cEnd: 1),
    ]

    /// These values as the search uses them: every divisor at least 1, and an aspiration
    /// window at least 2 wide (a narrower one would never widen: it grows by half each fail).
    public var searchable: SearchParameters {
        var p = self
        p.aspirationDelta = max(2, p.aspirationDelta)
        p.nullMoveEvalDivisor = max(1, p.nullMoveEvalDivisor)
        p.nullMoveDepthDivisor = max(1, p.nullMoveDepthDivisor)
        p.reductionDivisor = max(1, p.reductionDivisor)
        p.lateQuietNotImprovingDivisor = max(1, p.lateQuietNotImprovingDivisor)
        p.reductionHistoryDivisor = max(1, p.reductionHistoryDivisor)
        return p
    }

    /// The late-move reduction table (depth × 64 + move number) for ``reductionDivisor`` and
    /// ``reductionBase``, never below 0; the defaults' table is made once and shared.
    public var reductionTable: [Int] {
        reductionDivisor == Self.defaultReductionDivisor && reductionBase == Self.defaultReductionBase
            ? defaultReductions : Self.reductions(divisor: reductionDivisor, base: reductionBase)
    }

    static let defaultReductionDivisor = SearchParameters().reductionDivisor
    static let defaultReductionBase = SearchParameters().reductionBase

    static func reductions(divisor: Int, base: Int) -> [Int] {
        var table = [Int](repeating: 0, count: 64 * 64)
        let d100 = Double(max(divisor, 1)) / 100
        let offset = Double(base) / 100
        for d in 1..<64 {
            for m in 1..<64 {
                table[d * 64 + m] = max(0, Int((offset + log(Double(d)) * log(Double(m)) / d100).rounded(.down)))
            }
        }
        return table
    }
}

/// Late-move reductions of the default divisor and base, made once.
let defaultReductions = SearchParameters.reductions(
    divisor: SearchParameters.defaultReductionDivisor, base: SearchParameters.defaultReductionBase)
