#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Elo arithmetic on a win/draw/loss count (logistic Elo, trinomial model, normal
/// approximation), as match runners commonly report it.
public struct MatchStatistics: Sendable, Equatable {
    public var wins: Int
    public var draws: Int
    public var losses: Int

    public init(wins: Int, draws: Int, losses: Int) {
        self.wins = wins
        self.draws = draws
        self.losses = losses
    }

    public var games: Int { wins + draws + losses }

    /// Points per game, 0...1.
    public var score: Double { games == 0 ? 0.5 : (Double(wins) + Double(draws) / 2) / Double(games) }

    /// The Elo difference that predicts `score`: −400 log10(1/score − 1); infinite at 0% and 100%.
    public static func elo(forScore score: Double) -> Double {
        if score <= 0 { return -.infinity }
        if score >= 1 { return .infinity }
        return -400 * log10(1 / score - 1)
    }

    /// The expected score at an Elo difference.
    public static func score(forElo elo: Double) -> Double { 1 / (1 + pow(10, -elo / 400)) }

    public var elo: Double { Self.elo(forScore: score) }

    /// Variance of one game's points.
    public var variance: Double {
        guard games > 0 else { return 0 }
        let s = score, n = Double(games)
        return (Double(wins) * (1 - s) * (1 - s) + Double(draws) * (0.5 - s) * (0.5 - s) + Double(losses) * s * s) / n
    }

    /// Half the width of the 95% confidence interval of ``elo`` (scores clamped away from 0
    /// and 1 so that the interval stays finite); `nil` for no games or a 0% / 100% score.
    public var eloMargin95: Double? {
        let s = score
        guard games > 0, s > 0, s < 1 else { return nil }
        return Self.eloMargin95(score: s, deviation: 1.959964 * (variance / Double(games)).squareRoot())
    }

    /// Half the Elo width of `score ± deviation`, scores clamped away from 0 and 1.
    static func eloMargin95(score s: Double, deviation: Double) -> Double {
        func clampedElo(_ p: Double) -> Double { elo(forScore: min(max(p, 1e-6), 1 - 1e-6)) }
        return (clampedElo(s + deviation) - clampedElo(s - deviation)) / 2
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses only (draws carry no information): Φ((W − L) / √(W + L)).
    public var likelihoodOfSuperiority: Double {
        guard wins + losses > 0 else { return 0.5 }
        return 0.5 * (1 + erf(Double(wins - losses) / (2 * Double(wins + losses)).squareRoot()))
    }

    /// The log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`) in the
    /// generalized SPRT with the normal approximation: N (s1 − s0)(2s − s0 − s1) / (2σ²),
    /// where s0, s1 are the expected scores of the hypotheses, s the observed score and σ²
    /// the per-game variance. 0 when there is no variance yet.
    public func logLikelihoodRatio(elo0: Double, elo1: Double) -> Double {
        let v = variance
        guard games > 0, v > 0 else { return 0 }
        let s0 = Self.score(forElo: elo0), s1 = Self.score(forElo: elo1)
        return Double(games) * (s1 - s0) * (2 * score - s0 - s1) / (2 * v)
    }

    /// The SPRT bounds for error rates α and β: (ln(β/(1−α)), ln((1−β)/α)); ±2.944 at 5%/5%.
    public static func sprtBounds(alpha: Double = 0.05, beta: Double = 0.05) -> (lower: Double, upper: Double) {
        (log(beta / (1 - alpha)), log((1 - beta) / alpha))
    }

    /// The SPRT's verdict so far.
    public enum SPRTVerdict: String, Sendable {
        /// H1 accepted: the first engine is at least `elo1` stronger.
        case acceptH1 = "H1 accepted"
        /// H0 accepted: it is at most `elo0` stronger.
        case acceptH0 = "H0 accepted"
        case continuing = "continue"
    }

    public func sprt(elo0: Double, elo1: Double, alpha: Double = 0.05, beta: Double = 0.05) -> SPRTVerdict {
        let llr = logLikelihoodRatio(elo0: elo0, elo1: elo1)
        let bounds = Self.sprtBounds(alpha: alpha, beta: beta)
        return llr >= bounds.upper ? .acceptH1 : llr <= bounds.lower ? .acceptH0 : .continuing
    }
}

/// Results counted by game pairs (one opening played twice, colours swapped), from the first
/// engine's view: the pentanomial model. Pairing removes the variance that the openings
/// themselves add (a lopsided opening gives a 1-1 pair, not a win and a loss counted as
/// independent), so the SPRT decides with fewer games than the trinomial model.
public struct PairStatistics: Sendable, Equatable {
    /// `counts[k]`: pairs in which the first engine scored k half-points (0 to 4, i.e. 0-2 points).
    public var counts: [Int]

    public init(counts: [Int]) {
        precondition(counts.count == 5, "five pair outcomes")
        self.counts = counts
    }

    /// Pairs whose two games are both finished; games are paired by number (1 with 2, 3 with 4,
    /// ...), as ``MatchRunner`` plays them.
    public init(games: [GameRecord]) {
        var byPair: [Int: [Double]] = [:]
        for game in games { byPair[(game.number - 1) / 2, default: []].append(game.firstPoints) }
        var counts = [0, 0, 0, 0, 0]
        for points in byPair.values where points.count == 2 {
            counts[Int(((points[0] + points[1]) * 2).rounded())] += 1
        }
        self.counts = counts
    }

    public var pairs: Int { counts.reduce(0, +) }

    /// Mean points per game, 0...1.
    public var score: Double {
        guard pairs > 0 else { return 0.5 }
        return (0..<5).reduce(0.0) { $0 + Double(counts[$1]) * Double($1) / 4 } / Double(pairs)
    }

    public var elo: Double { MatchStatistics.elo(forScore: score) }

    /// Variance of one pair's mean score (each pair scores 0, 1/4, 1/2, 3/4 or 1 per game).
    public var variance: Double {
        guard pairs > 0 else { return 0 }
        let s = score
        return (0..<5).reduce(0.0) { sum, k in
            let d = Double(k) / 4 - s
            return sum + Double(counts[k]) * d * d
        } / Double(pairs)
    }

    /// Half the width of the 95% confidence interval of ``elo``; `nil` without pairs or at 0% / 100%.
    public var eloMargin95: Double? {
        let s = score
        guard pairs > 0, s > 0, s < 1 else { return nil }
        return MatchStatistics.eloMargin95(score: s, deviation: 1.959964 * (variance / Double(pairs)).squareRoot())
    }

    /// The generalized SPRT's log-likelihood ratio of H1 (logistic Elo `elo1`) against H0
    /// (`elo0`) with the normal approximation over pairs: P (s1 − s0)(2s − s0 − s1) / (2σ²),
    /// where P is the number of pairs, s the mean score and σ² the variance of a pair's mean
    /// score. 0 while there is no variance.
    public func logLikelihoodRatio(elo0: Double, elo1: Double) -> Double {
        let v = variance
        guard pairs > 0, v > 0 else { return 0 }
        let s0 = MatchStatistics.score(forElo: elo0), s1 = MatchStatistics.score(forElo: elo1)
        return Double(pairs) * (s1 - s0) * (2 * score - s0 - s1) / (2 * v)
    }

    /// Pairs needed before the SPRT may decide: the normal approximation needs a variance
    /// estimated from more than a handful of pairs (two pairs of 1½ and 2 points gave an LLR
    /// past the bound with a variance of 0.016).
    public static let minimumPairsForVerdict = 20

    public func sprt(elo0: Double, elo1: Double, alpha: Double = 0.05, beta: Double = 0.05) -> MatchStatistics.SPRTVerdict {
        guard pairs >= Self.minimumPairsForVerdict else { return .continuing }
        let llr = logLikelihoodRatio(elo0: elo0, elo1: elo1)
        let bounds = MatchStatistics.sprtBounds(alpha: alpha, beta: beta)
        return llr >= bounds.upper ? .acceptH1 : llr <= bounds.lower ? .acceptH0 : .continuing
    }
}
