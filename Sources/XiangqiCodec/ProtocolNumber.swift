/// Whole numbers read from protocol lines, with range checks: no text can trap.
public enum ProtocolNumber {
    /// What reading a number gave.
    public enum Reading: Equatable, Sendable {
        /// In range.
        case value(Int)
        /// Out of range (or infinite): the nearest bound.
        case clamped(Int)
        /// Not a number (including `nan`).
        case invalid
    }

    /// Reads `text` as a whole number in `range`: an integer with an optional sign, or a
    /// finite decimal or exponent form (truncated toward zero, as GUIs that send `1e3` or
    /// `250.0` mean). Too large, too small or infinite values give the nearest bound.
    public static func read(_ text: String, in range: ClosedRange<Int>) -> Reading {
        if let n = Int(text) {
            return range.contains(n) ? .value(n) : .clamped(min(max(n, range.lowerBound), range.upperBound))
        }
        // Decimal only: Swift's Double(_:) also reads hexadecimal ("0x10" as 16), which no GUI means.
        guard !text.lowercased().contains("x"), let d = Double(text), !d.isNaN else { return .invalid }
        if d >= Double(range.upperBound) { return d == Double(range.upperBound) ? .value(range.upperBound) : .clamped(range.upperBound) }
        if d <= Double(range.lowerBound) { return d == Double(range.lowerBound) ? .value(range.lowerBound) : .clamped(range.lowerBound) }
        // Strictly inside the bounds, so the conversion cannot trap.
        return .value(Int(d))
    }
}
