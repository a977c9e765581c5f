// Durations as the tools print them. The client and the command-line tool measure with
// ContinuousClock (macOS 13+; apps do not link these targets); the libraries an app links
// use MonotonicInstant instead.

extension Duration {
    /// Whole milliseconds, rounded down.
    public var wholeMilliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }

    /// Seconds as a floating-point number.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
