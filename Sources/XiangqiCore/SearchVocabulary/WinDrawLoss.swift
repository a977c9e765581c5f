#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Win, draw and loss chances per mille, for the side to move.
public struct Chances: Sendable, Equatable {
    /// Per mille each; the three sum to 1000.
    public var win: Int
    public var draw: Int
    public var loss: Int

    /// Chances as given (per mille).
    public init(win: Int, draw: Int, loss: Int) {
        self.win = win
        self.draw = draw
        self.loss = loss
    }

    /// The chances of `score` in the model of ``WinDrawLoss``.
    public init(score: Int) {
        (win, draw, loss) = WinDrawLoss.chances(forScore: score)
    }
}

/// Win, draw and loss chances from a score: what `UCI_ShowWDL` prints and what an app's
/// evaluation bar shows.
public enum WinDrawLoss {
    /// Win, draw and loss chances per mille for the side to move, from a logistic model of
    /// the score (a draw is likeliest near 0, as in master games); mates are certain.
    public static func chances(forScore score: Int) -> (win: Int, draw: Int, loss: Int) {
        if Score.isMate(score) { return score > 0 ? (1000, 0, 0) : (0, 0, 1000) }
        func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
        let s = Double(score)
        let w = Int((1000 * logistic((s - 150) / 100)).rounded())
        let l = Int((1000 * logistic((-s - 150) / 100)).rounded())
        return (w, 1000 - w - l, l)
    }

    /// The score whose chances (``chances(forScore:)``) give `points` per game (0...1), within
    /// ±1000 cp: how a book move's results become a score.
    public static func score(forExpectedPoints points: Double) -> Int {
        func expected(_ s: Int) -> Double {
            let (w, d, _) = chances(forScore: s)
            return (Double(w) + Double(d) / 2) / 1000
        }
        var low = -1000, high = 1000
        while low < high {
            let mid = (low + high) >> 1
            if expected(mid) < points { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
