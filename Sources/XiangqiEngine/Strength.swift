#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiSearch

/// `UCI_Elo` on the measured ladder of skill levels (bench/levels.md: matches five levels
/// apart at 300 ms per move): an app or a protocol session turns a wanted Elo into the
/// ``SkillLevel`` that plays it. The scale is relative: level 20 is set at 2400 by convention,
/// and the others sit below it by their measured Elo differences (margins there). Between
/// measured levels the mapping is linear.
public enum StrengthLadder {
    /// (level, Elo), measured.
    public static let points: [(level: Int, elo: Int)] = [(0, 820), (5, 1215), (10, 1530), (15, 1855), (20, 2400)]
    public static var minimumElo: Int { points.first!.elo }
    public static var maximumElo: Int { points.last!.elo }

    /// The highest level whose Elo on the ladder does not exceed `elo`.
    public static func level(forElo elo: Int) -> Int {
        var best = points.first!.level
        for level in 0...SkillLevel.maximum where self.elo(ofLevel: level) <= elo { best = level }
        return best
    }

    /// The ladder's Elo of `level`, interpolated between measured levels.
    public static func elo(ofLevel level: Int) -> Int {
        for (a, b) in zip(points, points.dropFirst()) where level >= a.level && level <= b.level {
            return a.elo + (b.elo - a.elo) * (level - a.level) / (b.level - a.level)
        }
        return points.last!.elo
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
