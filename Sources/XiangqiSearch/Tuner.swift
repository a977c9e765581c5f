#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

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
    }

    public private(set) var samples: [Sample] = []
    public var weights: [Double]
    public private(set) var scale = 1.0

    public init(weights: [Int] = EvalParameter.defaults) {
        self.weights = weights.map(Double.init)
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
                let (f, fixed) = Evaluator.features(p)
                picked.append(Sample(features: f, fixed: fixed, result: result))
            }
        }
        samples += picked
        return true
    }

    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    func eval(_ s: Sample, _ w: [Double]) -> Double {
        var e = s.fixed
        for i in 0..<w.count { e += s.features[i] * w[i] }
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
                for k in 0..<n where s.features[k] != 0 { gradient[k] += g * s.features[k] }
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
