/// How a score relates to the true value: a search's report, a transposition-table entry.
public enum Bound: UInt8, Sendable {
    case none = 0
    /// The true value is at most the score (fail low).
    case upper = 1
    /// The true value is at least the score (fail high).
    case lower = 2
    /// The score is exact.
    case exact = 3
}
