import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiEngine
import XiangqiSearch
import XiangqiTraining

struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train an evaluation network on datagen records and write the network file.",
        discussion: """
        Reads files of 32-byte records (xiangqi datagen), holds out a share for validation, \
        trains with Adam on the CPU and writes the quantized network (XQNN format) as \
        OUTPUT.partial, renamed to OUTPUT at the end. Each epoch prints its training and \
        validation loss; --loss-log also writes them to a file. Reproducible for a seed and a \
        thread count.

        Example: xiangqi train data.bin -o my.nnue
        """
    )

    @Argument(help: "Record files.")
    var data: [String]

    @Option(name: .shortAndLong, help: "The network file to write.")
    var output: String

    @Option(help: "Accumulator width (a multiple of 16).")
    var hidden = 256

    @Option(help: "King buckets: 1 or 6.")
    var buckets = 6

    @Option(help: "Output buckets: 1, or 8 chosen by material (2 x chariots + horses + cannons, halved).")
    var outputBuckets = 1

    @Option(help: "Passes over the data.")
    var epochs = 10

    @Option(help: "Positions per gradient step.")
    var batchSize = 16384

    @Option(help: "Adam's learning rate.")
    var learningRate: Float = 0.001

    @Option(help: "Learning rate factor after each epoch.")
    var decay: Float = 0.85

    @Option(help: "Weight of the search score in the target (the rest is the game result).")
    var scoreWeight: Float = 0.7

    @Option(help: "Centipawns per unit of the logistic turning scores into expected points.")
    var sigmoidScale: Float = 300

    @Option(help: "The seed of the initial weights and the shuffles.")
    var seed: UInt64 = 1

    @Option(help: "Threads computing gradients.")
    var threads = 1

    @Option(help: "Also write the loss per epoch to this file.")
    var lossLog: String?

    @Option(parsing: .upToNextOption,
            help: "Validate on these record files (all of them) instead of holding out a share of the games of the data.")
    var validation: [String] = []

    @Flag(inversion: .prefixedNo, help: "With 6 buckets, also train bucket-free factor rows (added into the buckets' rows on writing).")
    var factorize = true

    func validate() throws {
        guard hidden > 0, hidden % 16 == 0, hidden <= NetworkFile.maximumHidden else {
            throw ValidationError("--hidden must be a multiple of 16 from 16 to \(NetworkFile.maximumHidden)")
        }
        guard buckets == 1 || buckets == 6 else { throw ValidationError("--buckets must be 1 or 6") }
        guard outputBuckets == 1 || outputBuckets == Network.materialBuckets else {
            throw ValidationError("--output-buckets must be 1 or \(Network.materialBuckets)")
        }
        guard (1...1000).contains(epochs) else { throw ValidationError("--epochs must be between 1 and 1000") }
        guard (1...1_000_000).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 1000000") }
        guard learningRate > 0, learningRate < 1, decay > 0, decay <= 1 else {
            throw ValidationError("--learning-rate must be in (0, 1) and --decay in (0, 1]")
        }
        guard (0...1).contains(scoreWeight), sigmoidScale > 0 else {
            throw ValidationError("--score-weight must be in [0, 1] and --sigmoid-scale positive")
        }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256") }
    }

    func run() throws {
        let records = try readRecords(data)
        let validationRecords = validation.isEmpty ? nil : try readRecords(validation)
        guard records.count >= 2 else { throw CommandFailure("no training data: \(records.count) records read") }
        var settings = NetworkTrainer.Settings()
        settings.hidden = hidden
        settings.buckets = buckets
        settings.outputBuckets = outputBuckets
        settings.epochs = epochs
        settings.batchSize = batchSize
        settings.learningRate = learningRate
        settings.learningRateDecay = decay
        settings.scoreWeight = scoreWeight
        settings.sigmoidScale = sigmoidScale
        settings.seed = seed
        settings.threads = threads
        settings.factorized = factorize
        let trainer = NetworkTrainer(settings: settings, records: records, validationRecords: validationRecords)
        let log = try lossLog.map { try OutputFile(path: $0) }
        let header = "# xiangqi train: \(trainer.trainingCount) training and \(trainer.validationCount) validation positions, "
            + "hidden \(hidden), buckets \(buckets), batch \(batchSize), lr \(learningRate) decay \(decay), "
            + "score weight \(scoreWeight), K \(sigmoidScale), seed \(seed), \(threads) thread(s)"
            + (buckets > 1 ? (factorize ? ", factorized" : ", not factorized") : "")
            + (outputBuckets > 1 ? ", \(outputBuckets) output buckets by material" : "") + "\n"
            + "# the handcrafted evaluation's validation loss: \(fixed(handcraftedLoss(trainer, validationRecords ?? records), 6))\n"
            + "epoch\ttraining loss\tvalidation loss\tseconds\tpositions/s\n"
        print(header, terminator: "")
        log?.write(header)
        let network = trainer.train { report in
            let rate = Int(Double(trainer.trainingCount) / max(report.seconds, 0.001))
            let line = "\(report.epoch)\t\(fixed(report.trainingLoss, 6))\t\(fixed(report.validationLoss, 6))\t"
                + "\(format1(report.seconds))\t\(rate)\n"
            print(line, terminator: "")
            log?.write(line)
        }
        let partial = output + ".partial"
        try writeBinaryFile(partial, NetworkFile.bytes(of: network))
        guard rename(partial, output) == 0 else {
            throw CommandFailure("cannot rename \(partial) to \(output): \(String(cString: strerror(errno)))")
        }
        print("network \(output): epoch \(trainer.bestEpoch) (lowest validation loss), hidden \(hidden), buckets \(buckets), "
              + (outputBuckets > 1 ? "output buckets \(outputBuckets), " : "") + "hash \(network.hashText)")
    }
}

/// The readable records of `paths`, reporting each file's count on standard error.
private func readRecords(_ paths: [String]) throws -> TrainingRecords {
    var records = TrainingRecords()
    for path in paths {
        let bytes = try readBinaryFile(path)
        let whole = bytes.count / TrainingRecord.byteCount
        let bad = records.append(readableRecordsOf: bytes)
        let tail = bytes.count % TrainingRecord.byteCount
        errorWrite("\(path): \(whole - bad) records" + (bad > 0 ? ", \(bad) unreadable skipped" : "")
                   + (tail > 0 ? ", \(tail) trailing bytes ignored" : "") + "\n")
    }
    return records
}

/// The validation loss of the handcrafted evaluation (static, as the network is), the
/// figure a network must beat.
private func handcraftedLoss(_ trainer: NetworkTrainer, _ records: TrainingRecords) -> Double {
    let evaluator = Evaluator()
    return trainer.validationLoss { index in
        guard let position = try? Position(fen: records[index].fen) else { return 0 }
        return Double(evaluator.evaluate(position))
    }
}

/// `x` with `digits` decimals.
func fixed(_ x: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((abs(x) * scale).rounded())
    let whole = n / Int(scale), fraction = String(n % Int(scale))
    return (x < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

/// The bytes of a file; a validation error naming it when it cannot be read.
func readBinaryFile(_ path: String) throws -> [UInt8] {
    do {
        return try readFileBytes(path)
    } catch {
        throw CommandFailure("cannot read \(path): \(error)")
    }
}

/// Writes `bytes` to `path` (replacing it); a validation error when it cannot.
func writeBinaryFile(_ path: String, _ bytes: [UInt8]) throws {
    guard let file = fopen(path, "wb") else {
        throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    let closed = fclose(file) == 0
    guard written == bytes.count && closed else { throw CommandFailure("cannot write \(path): write error") }
}
