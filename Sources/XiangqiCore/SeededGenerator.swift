/// A small, seedable random number generator (SplitMix64): the same seed gives the same
/// sequence on every machine, for reproducible book choices, skill-level choices and tests.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence depends only on `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

