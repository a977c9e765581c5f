import XiangqiSearch

/// How the engine plays beside its strength: the engine's policy for UCCI's `style`,
/// `randomness`, `knowledge` and `pruning` options (the protocol maps their words onto these).
public enum PlayingStyle: String, CaseIterable, Sendable {
    case solid, normal, risky

    /// The contempt it plays with: solid gives up 15 cp to draw, risky 25 cp to avoid one.
    public var contempt: Int {
        switch self {
        case .solid: -15
        case .normal: 0
        case .risky: 25
        }
    }
}

/// How much noise the evaluation gets (UCCI `randomness`), so that games vary.
public enum Randomness: String, CaseIterable, Sendable {
    case none, tiny, small, medium, large, huge

    /// The noise's amplitude in centipawns.
    public var noiseAmplitude: Int {
        switch self {
        case .none: 0
        case .tiny: 5
        case .small: 10
        case .medium: 20
        case .large: 40
        case .huge: 80
        }
    }
}

/// A level of UCCI's `knowledge` and `pruning` options.
public enum EffortLevel: String, CaseIterable, Sendable {
    case none, small, medium, large

    /// The evaluation at this level of knowledge: material alone, then piece-square tables,
    /// then everything (medium and large).
    public var knowledge: Evaluator.Knowledge {
        switch self {
        case .none: .material
        case .small: .tables
        case .medium, .large: .full
        }
    }

    /// Whether selective pruning and reductions are on at this level of pruning.
    public var prunes: Bool { self != .none }
}

extension Engine {
    /// Plays in `style` (its contempt) from the next search.
    public func setStyle(_ style: PlayingStyle) {
        searchOptions.contempt = style.contempt
    }

    /// Adds `randomness` to the evaluation from the next search, with noise drawn from
    /// `seed` (0: a random one; else the same noise for the same seed, so that a seeded game
    /// replays).
    public func setRandomness(_ randomness: Randomness, seed: UInt64) {
        evaluator.noiseAmplitude = randomness.noiseAmplitude
        evaluator.noiseSeed = Self.noiseSeed(for: seed)
    }

    /// The evaluation-noise seed of a game seed: derived from it, or random for 0.
    public static func noiseSeed(for seed: UInt64) -> UInt64 {
        seed == 0 ? UInt64.random(in: 1...UInt64.max) : (seed &+ 0x5DEE_CE66) &* 0x9E37_79B9_7F4A_7C15 | 1
    }
}
