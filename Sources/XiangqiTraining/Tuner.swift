#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiSearch

/// Texel-style tuning of ``EvalParameter`` weights on game results.
///
/// Each sample is a position's feature vector (see ``Evaluator/features(_:)``) and the final
/// result of its game from red's view (1, 0.5, 0). The loss is the mean squared difference
/// between the result and `sigmoid(K * eval / 400)`; `K` is first fitted to the current
/// weights, then the weights follow Adam gradient steps. Pure computation: the caller reads
/// the games.
public struct Tuner {
    public struct Sample: Sendable {
        public var features: [Double]
        public var fixed: Double
        public var result: Double
        /// With ``Tuner/tunesTables``: the piece-square entries of the position, as weight
        /// indices (after the ``EvalParameter`` weights) and coefficients (±phase share).
        public var tableIndices: [Int32] = []
        public var tableCoefficients: [Double] = []
    }

    public private(set) var samples: [Sample] = []
    /// The ``EvalParameter`` weights, then (with ``tunesTables``) the piece-square entries.
    public var weights: [Double]
    public private(set) var scale = 1.0
    /// Whether the piece-square tables are fitted too, as weights of their own: per piece kind
    /// and half of the tapered score, one entry per square of the left half of the board
    /// (files a-e; the right half mirrors it), ``PieceSquareTables/halfSquares`` each.
    public let tunesTables: Bool

    public init(weights: [Int] = EvalParameter.defaults, tunesTables: Bool = false) {
        self.tunesTables = tunesTables
        var w = weights.map(Double.init)
        if tunesTables {
            for kind in PieceKind.allCases {
                for endgame in [false, true] {
                    let table = (endgame ? PieceSquareTables.endgame : PieceSquareTables.middlegame)[kind.index]
                    for half in 0..<PieceSquareTables.halfSquares {
                        let (row, file) = (half / 5, half % 5)
                        // The left and right halves agree; take their mean if they do not.
                        w.append(Double(table[row * 9 + file] + table[row * 9 + 8 - file]) / 2)
                    }
                }
            }
        }
        self.weights = w
    }

    /// The weight index of the piece-square entry of `kind` (middlegame or endgame half) for
    /// a piece of `color` on `square`.
    static func tableWeight(_ kind: PieceKind, endgame: Bool, _ color: Color, _ square: Square) -> Int {
        let i = PieceSquareTables.index(color, square)
        let half = (i / 9) * 5 + min(i % 9, 8 - i % 9)
        return EvalParameter.allCases.count + (kind.index * 2 + (endgame ? 1 : 0)) * PieceSquareTables.halfSquares + half
    }

    /// The sample of one position with game result `result` (red's view).
    func sample(_ p: Position, result: Double) -> Sample {
        let (f, fixed) = Evaluator.features(p)
        var s = Sample(features: f, fixed: tunesTables ? 0 : fixed, result: result)
        if tunesTables {
            let phase = Double(Evaluator.phase(p)) / Double(Evaluator.fullPhase)
            for color in Color.allCases {
                let sign = color == .red ? 1.0 : -1.0
                for kind in PieceKind.allCases {
                    for square in p.pieces(of: color, kind) {
                        s.tableIndices.append(Int32(Self.tableWeight(kind, endgame: false, color, square)))
                        s.tableCoefficients.append(sign * phase)
                        s.tableIndices.append(Int32(Self.tableWeight(kind, endgame: true, color, square)))
                        s.tableCoefficients.append(sign * (1 - phase))
                    }
                }
            }
        }
        return s
    }

    /// The fitted piece-square tables (full boards, rows from rank 9 as in
    /// ``PieceSquareTables``), middlegame and endgame by ``PieceKind`` index; nil unless
    /// ``tunesTables``.
    public var tables: (middlegame: [[Int]], endgame: [[Int]])? {
        guard tunesTables else { return nil }
        func table(_ kind: PieceKind, _ endgame: Bool) -> [Int] {
            (0..<90).map { i in
                let half = (i / 9) * 5 + min(i % 9, 8 - i % 9)
                let w = weights[EvalParameter.allCases.count + (kind.index * 2 + (endgame ? 1 : 0)) * PieceSquareTables.halfSquares + half]
                return Int(w.rounded())
            }
        }
        return (PieceKind.allCases.map { table($0, false) }, PieceKind.allCases.map { table($0, true) })
    }

    /// The piece-square entries (weight indices) that fewer than `share` of the samples use:
    /// too rare to fit (they took extreme values from a few games), so the tuner keeps them.
    public func rareTableEntries(share: Double) -> Set<Int> {
        guard tunesTables else { return [] }
        var counts = [Int](repeating: 0, count: weights.count)
        for s in samples {
            for (i, c) in zip(s.tableIndices, s.tableCoefficients) where c != 0 { counts[Int(i)] += 1 }
        }
        let minimum = share * Double(samples.count)
        return Set((EvalParameter.allCases.count..<weights.count).filter { Double(counts[$0]) < minimum })
    }

    /// Mean squared error of `samples` (for instance held-out ones) with the current weights and scale.
    public func loss(of samples: [Sample]) -> Double {
        var total = 0.0
        for s in samples {
            let d = s.result - Self.sigmoid(scale * eval(s, weights) / 400)
            total += d * d
        }
        return total / Double(max(1, samples.count))
    }

    /// Adds the positions of one game (moves from the start position): from ply `skip` on,
    /// every `stride`-th position that is not in check and was not reached by a capture.
    /// Returns `false` if a move was illegal (the game is then ignored).
    @discardableResult
    public mutating func addGame(moves: [String], result: Double, skip: Int = 10, stride: Int = 3) -> Bool {
        var game = Game()
        var picked: [Sample] = []
        for (ply, text) in moves.enumerated() {
            guard let move = Move(iccs: text), game.position.isLegal(move) else { return false }
            let capture = !game.position.piece(at: move.to).isNone
            try? game.play(move)
            let p = game.position
            if ply + 1 >= skip && (ply + 1) % stride == 0 && !capture && !p.isInCheck {
                picked.append(sample(p, result: result))
            }
        }
        samples += picked
        return true
    }

    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    func eval(_ s: Sample, _ w: [Double]) -> Double {
        var e = s.fixed
        for i in 0..<s.features.count { e += s.features[i] * w[i] }
        for (i, c) in zip(s.tableIndices, s.tableCoefficients) { e += w[Int(i)] * c }
        return e
    }

    /// Mean squared error of `range` of the samples with the current weights and scale.
    public func loss(_ range: Range<Int>? = nil) -> Double {
        let r = range ?? 0..<samples.count
        var total = 0.0
        for i in r {
            let d = samples[i].result - Self.sigmoid(scale * eval(samples[i], weights) / 400)
            total += d * d
        }
        return total / Double(max(1, r.count))
    }

    /// Fits the sigmoid scale to the current weights (golden-section search on 0.1...4).
    public mutating func fitScale(_ range: Range<Int>) {
        var lo = 0.1, hi = 4.0
        let phi = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let a = hi - phi * (hi - lo), b = lo + phi * (hi - lo)
            scale = a
            let la = loss(range)
            scale = b
            let lb = loss(range)
            if la < lb { hi = b } else { lo = a }
        }
        scale = (lo + hi) / 2
    }

    /// Runs `epochs` full-batch Adam steps on `range`, leaving the weights in `frozen` (raw
    /// values of ``EvalParameter``) as they are; `progress` gets (epoch, loss).
    public mutating func optimize(_ range: Range<Int>, epochs: Int, learningRate: Double = 1.0, frozen: Set<Int> = [],
                                  progress: (Int, Double) -> Void = { _, _ in }) {
        let n = weights.count
        var m = [Double](repeating: 0, count: n), v = [Double](repeating: 0, count: n)
        let beta1 = 0.9, beta2 = 0.999
        for epoch in 1...max(1, epochs) {
            var gradient = [Double](repeating: 0, count: n)
            var total = 0.0
            for i in range {
                let s = samples[i]
                let q = Self.sigmoid(scale * eval(s, weights) / 400)
                let d = q - s.result
                total += d * d
                let g = 2 * d * q * (1 - q) * scale / 400
                for k in 0..<s.features.count where s.features[k] != 0 { gradient[k] += g * s.features[k] }
                for (k, c) in zip(s.tableIndices, s.tableCoefficients) { gradient[Int(k)] += g * c }
            }
            let count = Double(range.count)
            for k in 0..<n where !frozen.contains(k) {
                let g = gradient[k] / count
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                let mHat = m[k] / (1 - pow(beta1, Double(epoch)))
                let vHat = v[k] / (1 - pow(beta2, Double(epoch)))
                weights[k] -= learningRate * mHat / (vHat.squareRoot() + 1e-12)
            }
            progress(epoch, total / count)
        }
    }
}
