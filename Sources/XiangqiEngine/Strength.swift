import XiangqiSearch

/// `UCI_Elo` on the measured ladder of skill levels (bench/levels.md: matches between levels
/// 0:5, 5:10, 10:15, 15:17 and 17:20 at 300 ms per move): an app or a protocol session turns a wanted Elo into the
/// `SkillLevel` that plays it. The scale is relative: level 20 is set at 2400 by convention,
/// and the others sit below it by their measured Elo differences (margins there). Between
/// measured levels the mapping is linear.
public enum StrengthLadder {
    /// (level, Elo), measured.
    public static let points: [(level: Int, elo: Int)] = [(0, 260), (5, 715), (10, 1125), (15, 1495), (17, 1870), (20, 2400)]
    /// The lowest `UCI_Elo` (level 0's).
    public static var minimumElo: Int { points.first!.elo }
    /// The highest `UCI_Elo` (level 20's).
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
