import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiSearch

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Fit the evaluation weights to game results (Texel method); prints the new weights.",
        discussion: "Reads one game per line: 'RESULT<TAB>ICCS moves' (1-0, 0-1, 1/2-1/2). Every tenth game is held out to check the fit."
    )

    @Argument(help: "Game files.")
    var files: [String]

    @Option(help: "Adam steps over all samples.")
    var epochs = 300

    @Option(help: "Use every N-th position of a game (from ply 10).")
    var stride = 3

    @Flag(help: "Keep the material weights: master games rarely show an imbalance, so results fit them poorly.")
    var keepMaterial = false

    func run() throws {
        var tuner = Tuner()
        var games = 0, skipped = 0
        var holdout: [Tuner.Sample] = []
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read \(file)")
            }
            for (n, line) in text.split(separator: "\n").enumerated() {
                let fields = line.split(separator: "\t")
                let result: Double
                switch fields.first {
                case "1-0": result = 1
                case "0-1": result = 0
                case "1/2-1/2": result = 0.5
                default: skipped += 1; continue
                }
                guard fields.count == 2 else { skipped += 1; continue }
                let moves = fields[1].split(separator: " ").map(String.init)
                if n % 10 == 9 {
                    var side = Tuner()
                    if side.addGame(moves: moves, result: result, stride: stride) { holdout += side.samples }
                } else if tuner.addGame(moves: moves, result: result, stride: stride) {
                    games += 1
                } else {
                    skipped += 1
                }
            }
        }
        let training = 0..<tuner.samples.count
        print("games \(games) (skipped \(skipped)), training positions \(tuner.samples.count), held out \(holdout.count)")
        tuner.fitScale(training)
        var check = Tuner()
        check.weights = tuner.weights
        func heldOutLoss(_ w: [Double], _ scale: Double) -> Double {
            var total = 0.0
            for s in holdout {
                var e = s.fixed
                for i in 0..<w.count { e += s.features[i] * w[i] }
                let d = s.result - 1 / (1 + exp(-scale * e / 400))
                total += d * d
            }
            return total / Double(max(1, holdout.count))
        }
        print("scale K = \(tuner.scale); loss before: training \(tuner.loss(training)), held out \(heldOutLoss(tuner.weights, tuner.scale))")
        // The material weights come first, two per piece kind (advisor to soldier).
        let frozen: Set<Int> = keepMaterial ? Set(0..<12) : []
        tuner.optimize(training, epochs: epochs, frozen: frozen) { epoch, loss in
            if epoch % 50 == 0 { print("epoch \(epoch): training loss \(loss)") }
        }
        print("loss after: training \(tuner.loss(training)), held out \(heldOutLoss(tuner.weights, tuner.scale))")
        for p in EvalParameter.allCases {
            print("\(p): \(EvalParameter.defaults[p.rawValue]) -> \(Int(tuner.weights[p.rawValue].rounded()))")
        }
    }
}
