#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiSearch

/// Trains a ``Network`` on ``TrainingRecord``s on the CPU (`xiangqi train`).
///
/// The model is the network in floating point: accumulators `b1 + Σ W1[f]` per side,
/// SCReLU (clamp to 0...1, square), one output `W2 · [us, them] + b2`, read as
/// `output × scale` centipawns; with output buckets, `W2` and `b2` of the position's material
/// bucket (``Network/materialBucket(of:)-swift.type.method``). A position's target blends the search score and the result,
/// both from the side to move's view: `λ σ(score / K) + (1 − λ) result`, and the loss is
/// `(σ(output × scale / K) − target)²`, so the output stays in centipawns as the
/// handcrafted evaluation is. Adam over mini-batches; each thread computes the gradient of a
/// fixed slice of the batch, so a run is reproducible for a given seed and thread count.
///
/// Why a Swift trainer rather than PyTorch: the first layer's gradient touches only the rows
/// of the 30-odd active features per position, so a plain loop over them costs about as
/// much as a forward pass, with no dependency to install on the 2-core machines that build
/// this project (figures per million positions in bench/nnue.md).
public final class NetworkTrainer: @unchecked Sendable {
    // The parameters and moments are written only by `train`'s calling thread (the Adam
    // step) and read by the gradient threads between steps, never at the same time.

    public struct Settings: Sendable {
        public var buckets = 6
        public var hidden = 256
        /// Output buckets: 1, or ``Network/materialBuckets`` (chosen by material).
        public var outputBuckets = 1
        public var epochs = 10
        public var batchSize = 16384
        public var learningRate: Float = 0.001
        /// The learning rate is multiplied by this after each epoch.
        public var learningRateDecay: Float = 0.85
        /// λ: the weight of the search score in the target (the rest is the result).
        public var scoreWeight: Float = 0.7
        /// K: centipawns per unit of the logistic that turns scores into expected points.
        public var sigmoidScale: Float = 300
        /// Share of the positions kept out of training to measure the validation loss.
        public var validationShare = 0.05
        public var seed: UInt64 = 1
        public var threads = 1
        /// Centipawns per unit of output, and the quantization of the file.
        public var outputScale = 400
        public var qa = 255
        public var qb = 512
        /// With several king buckets, also train one bucket-free row per piece-square
        /// feature, added to each bucket's row when the network is written: what is true of
        /// a piece on a square whatever the king's square is learnt from every position
        /// rather than from the sixth whose king shares the bucket. The file and the
        /// inference are unchanged.
        public var factorized = true

        public init() {}
    }

    /// One epoch's figures.
    public struct EpochReport: Sendable {
        public var epoch: Int
        public var trainingLoss: Double
        public var validationLoss: Double
        public var seconds: Double
        public var learningRate: Float
    }

    public let settings: Settings
    /// The positions' network features, position after position: the side to move's, then as
    /// many of the other side's (one per piece each). Factor rows are not stored: feature `f`'s
    /// is `featureCount + f % featuresPerBucket`. Allocated to the exact size (tens of millions
    /// of positions take gigabytes).
    private let features: UnsafeMutablePointer<UInt16>
    /// Where each position's features start in `features`, and one past the last position's.
    private let featureStarts: [Int]
    private var targets: [Float] = []
    /// Each position's output bucket.
    private var outputBucketOf: [UInt8] = []
    public private(set) var trainingCount = 0
    /// The index of each validation position, in order, in the records it came from (the
    /// validation records given to `init`, or else its records).
    public private(set) var validationRecordIndices: [Int] = []
    public var validationCount: Int { targets.count - trainingCount }

    /// The network's features (buckets × piece-square).
    private let featureCount: Int
    /// The trained rows: the network's, then the bucket-free factor rows when factorized.
    private let rowCount: Int
    private let hidden: Int
    private let outputBuckets: Int
    // Parameters and Adam moments: W1 [row][hidden], b1 [hidden], W2 [output bucket][2 × hidden],
    // b2 [output bucket].
    private let parameterCount: Int
    private let parameters: UnsafeMutablePointer<Float>
    private let firstMoment: UnsafeMutablePointer<Float>
    private let secondMoment: UnsafeMutablePointer<Float>
    private var step = 0

    private var w1: UnsafeMutablePointer<Float> { parameters }
    private var b1: UnsafeMutablePointer<Float> { parameters + rowCount * hidden }
    private var w2: UnsafeMutablePointer<Float> { b1 + hidden }
    private var b2: UnsafeMutablePointer<Float> { w2 + outputBuckets * 2 * hidden }

    /// The trainer over decoded records (as the initializer that takes ``TrainingRecords``).
    public convenience init(settings: Settings, records: [TrainingRecord], validationRecords: [TrainingRecord]? = nil) {
        self.init(settings: settings, records: TrainingRecords(records), validationRecords: validationRecords.map { TrainingRecords($0) })
    }

    /// A trainer over `records` (in the order datagen wrote them), validated on
    /// `validationRecords` or, without them, on about ``Settings/validationShare`` of
    /// `records` held out as whole games chosen by the seed. Keeps none of the records: only
    /// each position's features (about 2 bytes a piece a side), target and output bucket.
    /// Precondition: `settings.hidden` a positive multiple of 16, buckets 1 or 6, output buckets
    /// 1 or 8.
    public init(settings: Settings, records: TrainingRecords, validationRecords: TrainingRecords? = nil) {
        precondition(settings.hidden > 0 && settings.hidden % 16 == 0)
        precondition(settings.buckets == 1 || settings.buckets == Network.maximumBuckets)
        precondition(settings.outputBuckets == 1 || settings.outputBuckets == Network.materialBuckets)
        self.settings = settings
        featureCount = settings.buckets * Network.featuresPerBucket
        let factorized = settings.factorized && settings.buckets > 1
        rowCount = featureCount + (factorized ? Network.featuresPerBucket : 0)
        hidden = settings.hidden
        outputBuckets = settings.outputBuckets
        parameterCount = rowCount * hidden + hidden + outputBuckets * (2 * hidden + 1)
        parameters = .allocate(capacity: parameterCount)
        firstMoment = .allocate(capacity: parameterCount)
        secondMoment = .allocate(capacity: parameterCount)
        firstMoment.initialize(repeating: 0, count: parameterCount)
        secondMoment.initialize(repeating: 0, count: parameterCount)

        // Held out by whole games, not by positions: the positions of a game share its result
        // and resemble each other, so a split by position rewards remembering games (see
        // bench/nnue.md). The split has its own generator, so that it is the same for every
        // shape of network.
        var splitRandom = SeededGenerator(seed: settings.seed ^ 0x5EED_5B17)
        var games = Self.games(in: records)
        games.shuffle(using: &splitRandom)
        var heldOutGames = 0
        if validationRecords == nil {
            // The last games, up to the validation share of the positions.
            let validationTarget = Int(Double(records.count) * settings.validationShare)
            var heldOut = 0
            while heldOut < validationTarget && heldOutGames < games.count {
                heldOutGames += 1
                heldOut += games[games.count - heldOutGames].count
            }
        }
        let trainingIndices = games.dropLast(heldOutGames).flatMap { $0 }
        let validationIndices = validationRecords.map { Array($0.indices) } ?? games.suffix(heldOutGames).flatMap { $0 }
        let validationSource = validationRecords ?? records
        // The piece count of each position, 0 for a record with a king missing (not a
        // position, left out), then the exact room for every feature, then the features.
        let trainingPieces = Self.pieceCounts(trainingIndices, of: records, threads: settings.threads)
        let validationPieces = Self.pieceCounts(validationIndices, of: validationSource, threads: settings.threads)
        var starts: [Int] = []
        starts.reserveCapacity(trainingIndices.count + validationIndices.count + 1)
        var total = 0
        for pieces in trainingPieces where pieces > 0 {
            starts.append(total)
            total += 2 * Int(pieces)
        }
        trainingCount = starts.count
        for pieces in validationPieces where pieces > 0 {
            starts.append(total)
            total += 2 * Int(pieces)
        }
        let positions = starts.count
        starts.append(total)
        featureStarts = starts
        features = .allocate(capacity: max(total, 1))
        targets = [Float](repeating: 0, count: positions)
        outputBucketOf = [UInt8](repeating: 0, count: positions)
        fill(trainingIndices, trainingPieces, of: records, from: 0)
        fill(validationIndices, validationPieces, of: validationSource, from: trainingCount)
        validationRecordIndices = zip(validationIndices, validationPieces).filter { $0.1 > 0 }.map(\.0)

        var random = SeededGenerator(seed: settings.seed)
        // Small uniform weights: an accumulator sums about 30 rows. The factor rows start at
        // zero, so that a bucket's row plus its factor row starts as an unfactorized row does.
        for i in 0..<(featureCount * hidden) { parameters[i] = Float.random(in: -0.1...0.1, using: &random) }
        for i in (featureCount * hidden)..<(rowCount * hidden) { parameters[i] = 0 }
        for i in 0..<hidden { b1[i] = Float.random(in: 0...0.2, using: &random) }
        let outputRange = 1 / Float(hidden).squareRoot()
        for i in 0..<(outputBuckets * 2 * hidden) { w2[i] = Float.random(in: -outputRange...outputRange, using: &random) }
        for o in 0..<outputBuckets { b2[o] = 0 }
    }

    /// The piece count of each of `records[indices]`, 0 for a record without both kings.
    private static func pieceCounts(_ indices: [Int], of records: TrainingRecords, threads: Int) -> [UInt8] {
        var counts = [UInt8](repeating: 0, count: indices.count)
        counts.withUnsafeMutableBufferPointer { counts in
            let output = SharedPointer(counts.baseAddress)
            records.bytes.withUnsafeBytes { bytes in
                let input = SharedPointer(bytes.baseAddress), slices = Self.slices(of: indices.count, threads: threads)
                parallel(slices.count) { t in
                    for k in slices[t] {
                        let record = input.base! + indices[k] * TrainingRecord.byteCount
                        output.base![k] = UInt8(Self.writeFeatures(of: record, buckets: 1, into: nil))
                    }
                }
            }
        }
        return counts
    }

    /// Writes the features, target and output bucket of `records[indices]` whose piece count
    /// is not 0, in this order, from position `first` on. Each thread takes a slice, so the
    /// result is the same for any thread count.
    private func fill(_ indices: [Int], _ pieces: [UInt8], of records: TrainingRecords, from first: Int) {
        // The position each slice starts at: the positions kept before it.
        let slices = Self.slices(of: indices.count, threads: settings.threads)
        var firstPositions = [first]
        for slice in slices { firstPositions.append(firstPositions.last! + pieces[slice].lazy.filter { $0 > 0 }.count) }
        let firstPosition = firstPositions, featureOut = SharedPointer(features), buckets = settings.buckets
        targets.withUnsafeMutableBufferPointer { targets in
            outputBucketOf.withUnsafeMutableBufferPointer { outputBuckets in
                featureStarts.withUnsafeBufferPointer { starts in
                    records.bytes.withUnsafeBytes { bytes in
                        let targetOut = SharedPointer(targets.baseAddress), bucketOut = SharedPointer(outputBuckets.baseAddress)
                        let startOf = SharedPointer(starts.baseAddress), input = SharedPointer(bytes.baseAddress)
                        Self.parallel(slices.count) { [self] t in
                            var position = firstPosition[t]
                            for k in slices[t] where pieces[k] > 0 {
                                let record = input.base! + indices[k] * TrainingRecord.byteCount
                                _ = Self.writeFeatures(of: record, buckets: buckets, into: featureOut.base! + startOf.base![position])
                                targetOut.base![position] = target(ofRecordAt: record)
                                bucketOut.base![position] = UInt8(outputBucket(ofRecordAt: record))
                                position += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Writes the network features (with `buckets` king buckets) of the readable record at `r`
    /// into `out`, the side to move's then the other side's, in square order as
    /// ``Network/features(of:for:buckets:)`` lists them, and returns the piece count, the
    /// number of features a side; 0 (writing nothing) when a king is missing.
    private static func writeFeatures(of r: UnsafeRawPointer, buckets: Int, into out: UnsafeMutablePointer<UInt16>?) -> Int {
        var redKing = -1, blackKing = -1, pieces = 0
        TrainingRecord.forEachPiece(of: r) { square, piece in
            if piece == Piece(.red, .king) { redKing = square }
            if piece == Piece(.black, .king) { blackKing = square }
            pieces += 1
        }
        guard redKing >= 0, blackKing >= 0 else { return 0 }
        guard let out else { return pieces }
        let toMove = TrainingRecord.sideToMove(of: r)
        var n = 0
        for side in 0..<2 {
            let perspective = side == 0 ? toMove : toMove.opponent
            let king = Square(unchecked: perspective == .red ? redKing : blackKing)
            let orientation = Network.orientation(of: perspective, kingSquare: king, buckets: buckets)
            TrainingRecord.forEachPiece(of: r) { square, piece in
                out[n] = UInt16(Network.feature(piece, on: Square(unchecked: square), for: perspective, orientation))
                n += 1
            }
        }
        return pieces
    }

    /// The output bucket of the readable record at `r` (0 with one output).
    private func outputBucket(ofRecordAt r: UnsafeRawPointer) -> Int {
        guard outputBuckets > 1 else { return 0 }
        var chariots = 0, others = 0
        TrainingRecord.forEachPiece(of: r) { _, piece in
            switch piece.kind {
            case .chariot: chariots += 1
            case .horse, .cannon: others += 1
            default: break
            }
        }
        return Network.materialBucket(chariots: chariots, horsesAndCannons: others)
    }

    /// The output bucket of `record`'s position (0 with one output).
    private func outputBucket(of record: TrainingRecord) -> Int {
        outputBuckets == 1 ? 0 : Network.materialBucket(of: record.board)
    }

    /// The training target of the readable record at `r`.
    private func target(ofRecordAt r: UnsafeRawPointer) -> Float {
        let score = Int16(bitPattern: UInt16(r.load(fromByteOffset: 28, as: UInt8.self)) | UInt16(r.load(fromByteOffset: 29, as: UInt8.self)) << 8)
        let redResult = Int(Int8(bitPattern: r.load(fromByteOffset: 30, as: UInt8.self)))
        return target(score: Int(score), result: TrainingRecord.sideToMove(of: r) == .red ? redResult : -redResult)
    }

    /// The training target `λ σ(score / K) + (1 − λ) result` of a position, both from the side
    /// to move's view (result 1 win, 0 draw, −1 loss).
    private func target(score: Int, result: Int) -> Float {
        let points = Float(result) * 0.5 + 0.5
        let fromScore = Self.logistic(Float(score) / settings.sigmoidScale)
        return settings.scoreWeight * fromScore + (1 - settings.scoreWeight) * points
    }

    /// `0..<count` cut into a slice a thread, but none under 4,096 items (one at the least).
    private static func slices(of count: Int, threads: Int) -> [Range<Int>] {
        let slices = max(1, min(threads, count / 4096)), per = (count + slices - 1) / slices
        return (0..<slices).map { min(count, $0 * per)..<min(count, ($0 + 1) * per) }
    }

    /// Runs `body(0)` ... `body(count - 1)` at once, `body(count - 1)` on the calling thread,
    /// and returns when all are done.
    private static func parallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = WorkGroup(count: count)
        for t in 0..<count {
            let work: @Sendable () -> Void = {
                body(t)
                group.done()
            }
            if t == count - 1 { work() } else { startThread(stackSize: 1 << 20, work) }
        }
        group.wait()
    }

    /// The games of `records` as ranges of indices: datagen writes each game's positions
    /// together in the order played, so a game starts where the ply does not grow (the ply
    /// saturates at 255, where equal plies continue a game).
    static func games(in records: TrainingRecords) -> [Range<Int>] {
        var games: [Range<Int>] = []
        var start = 0
        for i in records.indices.dropFirst() {
            let previous = records.ply(at: i - 1), ply = records.ply(at: i)
            if ply < previous || (ply == previous && ply < 255) {
                games.append(start..<i)
                start = i
            }
        }
        if !records.isEmpty { games.append(start..<records.count) }
        return games
    }

    /// The trained rows active in `record` for `perspective`: its network features, each
    /// followed by its factor row when factorized.
    private func rows(of record: TrainingRecord, for perspective: Color) -> [Int] {
        let network = Network.features(of: record.board, for: perspective, buckets: settings.buckets)
        guard rowCount > featureCount else { return network }
        return network.flatMap { [$0, featureCount + $0 % Network.featuresPerBucket] }
    }

    deinit {
        features.deallocate()
        parameters.deallocate()
        firstMoment.deallocate()
        secondMoment.deallocate()
    }

    static func logistic(_ x: Float) -> Float { 1 / (1 + expf(-x)) }

    /// Runs every epoch, reporting each; returns the quantized network of the epoch with the
    /// lowest validation loss (``bestEpoch``).
    public func train(report: (EpochReport) -> Void = { _ in }) -> Network {
        var random = SeededGenerator(seed: settings.seed ^ 0x5151)
        var rate = settings.learningRate
        let threads = max(1, settings.threads)
        let gradients = (0..<threads).map { _ in GradientBuffer(count: parameterCount, hidden: hidden, rows: rowCount) }
        var order = Array(0..<trainingCount)
        // The parameters of the epoch with the lowest validation loss (early stopping: more
        // epochs past it only fit the training games better).
        var best: (loss: Double, parameters: [Float])?
        for epoch in 1...max(1, settings.epochs) {
            let start = MonotonicInstant.now
            order.shuffle(using: &random)
            var lossSum = 0.0
            var batchStart = 0
            while batchStart < order.count {
                let batch = order[batchStart..<min(batchStart + settings.batchSize, order.count)]
                lossSum += gradientStep(batch, gradients: gradients, rate: rate)
                batchStart += settings.batchSize
            }
            let seconds = MonotonicInstant.now.seconds(since: start)
            let loss = validationLoss()
            if validationCount == 0 {
                bestEpoch = epoch
            } else if loss < (best?.loss ?? .infinity) {
                best = (loss, Array(UnsafeBufferPointer(start: parameters, count: parameterCount)))
                bestEpoch = epoch
            }
            report(EpochReport(epoch: epoch, trainingLoss: lossSum / Double(max(order.count, 1)),
                               validationLoss: loss, seconds: seconds, learningRate: rate))
            rate *= settings.learningRateDecay
        }
        if let best { _ = UnsafeMutableBufferPointer(start: parameters, count: parameterCount).update(from: best.parameters) }
        return quantized()
    }

    /// The epoch whose parameters ``train(report:)`` returned: the one with the lowest
    /// validation loss (the last one without validation positions).
    public private(set) var bestEpoch = 0

    /// The mean loss over the held-out positions.
    public func validationLoss() -> Double {
        guard validationCount > 0 else { return 0 }
        let scratch = GradientBuffer(count: 0, hidden: hidden, rows: 0)
        var sum = 0.0
        for i in trainingCount..<targets.count {
            let out = forward(i, scratch)
            let p = Self.logistic(out * Float(settings.outputScale) / settings.sigmoidScale)
            sum += Double((p - targets[i]) * (p - targets[i]))
        }
        return sum / Double(validationCount)
    }

    /// The mean loss over the held-out positions of another evaluation: `centipawns(i)` is
    /// its score, for the side to move, of record `i` (as in ``validationRecordIndices``). Measures the network against the handcrafted evaluation on equal terms.
    public func validationLoss(centipawns: (Int) -> Double) -> Double {
        guard validationCount > 0 else { return 0 }
        var sum = 0.0
        for (n, index) in validationRecordIndices.enumerated() {
            let p = Double(Self.logistic(Float(centipawns(index)) / settings.sigmoidScale))
            let target = Double(targets[trainingCount + n])
            sum += (p - target) * (p - target)
        }
        return sum / Double(validationCount)
    }

    /// The floating-point model's evaluation of `record`'s position in centipawns for the side
    /// to move (what the quantized network approximates).
    public func prediction(for record: TrainingRecord) -> Double {
        let scratch = GradientBuffer(count: 0, hidden: hidden, rows: 0)
        let us = rows(of: record, for: record.sideToMove), them = rows(of: record, for: record.sideToMove.opponent)
        return Double(output(scratch, bucket: outputBucket(of: record)) { accumulator, side in
            accumulator.update(from: b1, count: hidden)
            for feature in side == 0 ? us : them { add(w1 + feature * hidden, to: accumulator) }
        } * Float(settings.outputScale))
    }

    /// The output for sample `i`, leaving the accumulators in `scratch`.
    private func forward(_ i: Int, _ scratch: GradientBuffer) -> Float {
        let ranges = featureRanges(i)
        return output(scratch, bucket: Int(outputBucketOf[i])) { accumulator, side in
            accumulate(side == 0 ? ranges.us : ranges.them, into: accumulator)
        }
    }

    /// The output of `bucket` once `fill` has written each side's accumulator (0: side to
    /// move) into `scratch`.
    private func output(_ scratch: GradientBuffer, bucket: Int, _ fill: (UnsafeMutablePointer<Float>, Int) -> Void) -> Float {
        fill(scratch.us, 0)
        fill(scratch.them, 1)
        let w = w2 + bucket * 2 * hidden
        var out = b2[bucket]
        var k = 0
        while k < hidden {
            let a = clampUnit(load(scratch.us + k)), b = clampUnit(load(scratch.them + k))
            out += (a * a * load(w + k)).sum() + (b * b * load(w + hidden + k)).sum()
            k += 16
        }
        return out
    }

    private func accumulate(_ range: Range<Int>, into accumulator: UnsafeMutablePointer<Float>) {
        accumulator.update(from: b1, count: hidden)
        let factored = rowCount > featureCount
        for j in range {
            let feature = Int(features[j])
            add(w1 + feature * hidden, to: accumulator)
            if factored { add(w1 + factorRow(of: feature) * hidden, to: accumulator) }
        }
    }

    /// The bucket-free factor row of network feature `feature`.
    @inline(__always) private func factorRow(of feature: Int) -> Int { featureCount + feature % Network.featuresPerBucket }

    /// The features of position `i`: the side to move's, then the other side's.
    @inline(__always) private func featureRanges(_ i: Int) -> (us: Range<Int>, them: Range<Int>) {
        let start = featureStarts[i], end = featureStarts[i + 1], middle = (start + end) / 2
        return (start..<middle, middle..<end)
    }

    /// Gradients of `batch` on the threads, then their sum and one Adam step, each thread
    /// taking a slice of the parameters. Returns the loss sum. Each parameter's gradients are
    /// added in thread order whatever the slices, so a run depends on the thread count only
    /// through the slices of the batch.
    private func gradientStep(_ batch: ArraySlice<Int>, gradients: [GradientBuffer], rate: Float) -> Double {
        let slices = gradients.count
        let per = (batch.count + slices - 1) / slices
        Self.parallel(slices) { [self] t in
            let lower = batch.startIndex + min(batch.count, t * per), upper = batch.startIndex + min(batch.count, (t + 1) * per)
            let buffer = gradients[t]
            buffer.clear()
            buffer.loss = 0
            for i in batch[lower..<upper] { accumulateGradient(i, buffer) }
        }
        step += 1
        let adam = AdamStep(step: step, rate: rate, scale: 1 / Float(batch.count))
        // Slices of whole first-layer rows (whole cache lines: hidden is a multiple of 16).
        let units = (parameterCount + hidden - 1) / hidden, unitsPer = (units + slices - 1) / slices
        Self.parallel(slices) { [self] t in
            let lower = min(parameterCount, t * unitsPer * hidden), upper = min(parameterCount, (t + 1) * unitsPer * hidden)
            adamStep(lower..<upper, gradients: gradients, adam)
        }
        return gradients.reduce(0) { $0 + $1.loss }
    }

    private func accumulateGradient(_ i: Int, _ g: GradientBuffer) {
        let out = forward(i, g)
        let k = Float(settings.outputScale) / settings.sigmoidScale
        let p = Self.logistic(out * k)
        let error = p - targets[i]
        g.loss += Double(error * error)
        let d = 2 * error * p * (1 - p) * k
        let bucket = Int(outputBucketOf[i]), w = w2 + bucket * 2 * hidden
        let gw1 = g.values, gb1 = g.values + rowCount * hidden, gw2 = gb1 + hidden + bucket * 2 * hidden
        gb1[hidden + outputBuckets * 2 * hidden + bucket] += d
        let zero = SIMD16<Float>(repeating: 0), one = SIMD16<Float>(repeating: 1), dv = SIMD16<Float>(repeating: d)
        var j = 0
        while j < hidden {
            let accUs = load(g.us + j), accThem = load(g.them + j)
            let a = clampUnit(accUs), b = clampUnit(accThem)
            store(load(gw2 + j) + dv * a * a, gw2 + j)
            store(load(gw2 + hidden + j) + dv * b * b, gw2 + hidden + j)
            // d/d(acc) of clamp(acc)²: 2 acc inside (0, 1), 0 outside.
            let insideUs = (accUs .> zero) .& (accUs .< one), insideThem = (accThem .> zero) .& (accThem .< one)
            let dUs = (dv * load(w + j) * 2 * a).replacing(with: 0, where: .!insideUs)
            let dThem = (dv * load(w + hidden + j) * 2 * b).replacing(with: 0, where: .!insideThem)
            store(dUs, g.us + j)  // the accumulators now hold their gradients
            store(dThem, g.them + j)
            store(load(gb1 + j) + dUs + dThem, gb1 + j)
            j += 16
        }
        let ranges = featureRanges(i), factored = rowCount > featureCount
        for side in 0..<2 {
            let range = side == 0 ? ranges.us : ranges.them, gradient = side == 0 ? g.us : g.them
            for index in range {
                let feature = Int(features[index])
                g.touch(feature)
                add(gradient, to: gw1 + feature * hidden)
                if factored {
                    let factor = factorRow(of: feature)
                    g.touch(factor)
                    add(gradient, to: gw1 + factor * hidden)
                }
            }
        }
    }

    /// One Adam step's constants.
    private struct AdamStep {
        let rate: Float, scale: Float, correction1: Float, correction2: Float
        static let beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8
        init(step: Int, rate: Float, scale: Float) {
            self.rate = rate
            self.scale = scale
            correction1 = 1 - powf(Self.beta1, Float(step))
            correction2 = 1 - powf(Self.beta2, Float(step))
        }
    }

    /// Adam on the parameters of `range` with gradient `(Σ gradients) × scale`, summed in
    /// thread order (a first-layer row that a thread did not touch adds nothing, as its zeros
    /// would); weights are kept within what the file's Int16 quantization can hold.
    private func adamStep(_ range: Range<Int>, gradients: [GradientBuffer], _ adam: AdamStep) {
        let firstLayerLimit = 32000 / Float(settings.qa), outputLimit = 32000 / Float(settings.qb)
        let firstLayerEnd = rowCount * hidden, outputStart = firstLayerEnd + hidden
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: max(range.count, 1))
        defer { sum.deallocate() }
        var i = range.lowerBound
        while i < range.upperBound {
            // One first-layer row, summed over the threads that touched it, or the dense rest.
            let upper = i < firstLayerEnd ? min(range.upperBound, (i / hidden + 1) * hidden) : range.upperBound
            let width = upper - i
            var started = false
            for buffer in gradients where i >= firstLayerEnd || buffer.touched[i / hidden] {
                let source = buffer.values + i
                if started {
                    for k in 0..<width { sum[k] += source[k] }
                } else {
                    sum.update(from: source, count: width)
                    started = true
                }
            }
            if !started { sum.update(repeating: 0, count: width) }
            for k in 0..<width {
                let j = i + k
                update(j, gradient: sum[k] * adam.scale, adam, limit: j < outputStart ? firstLayerLimit : outputLimit)
            }
            i = upper
        }
    }

    @inline(__always) private func update(_ i: Int, gradient g: Float, _ adam: AdamStep, limit: Float) {
        let beta1 = AdamStep.beta1, beta2 = AdamStep.beta2
        let m = beta1 * firstMoment[i] + (1 - beta1) * g
        let v = beta2 * secondMoment[i] + (1 - beta2) * g * g
        firstMoment[i] = m
        secondMoment[i] = v
        parameters[i] = min(max(parameters[i] - adam.rate * (m / adam.correction1) / ((v / adam.correction2).squareRoot() + AdamStep.epsilon), -limit), limit)
    }

    /// The network with the current parameters, quantized (factor rows added into each
    /// bucket's rows).
    public func quantized() -> Network {
        let qa = Float(settings.qa), qb = Float(settings.qb)
        func q(_ x: Float, _ s: Float) -> Int16 { Int16(clamping: Int((x * s).rounded())) }
        let factored = rowCount > featureCount, bucketWidth = Network.featuresPerBucket * hidden
        func weight(_ i: Int) -> Float { factored ? w1[i] + w1[featureCount * hidden + i % bucketWidth] : w1[i] }
        return Network(buckets: settings.buckets, hidden: hidden, qa: settings.qa, qb: settings.qb, scale: settings.outputScale,
                       featureWeights: (0..<(featureCount * hidden)).map { q(weight($0), qa) },
                       featureBias: (0..<hidden).map { q(b1[$0], qa) },
                       outputWeights: (0..<(outputBuckets * 2 * hidden)).map { q(w2[$0], qb) },
                       outputBiases: (0..<outputBuckets).map { Int32(clamping: Int((b2[$0] * qa * qb).rounded())) })
    }

    /// `x` clamped to 0...1 lane by lane (masks rather than `clamped(lowerBound:upperBound:)`,
    /// which compiles to standard-library calls).
    @inline(__always) private func clampUnit(_ x: SIMD16<Float>) -> SIMD16<Float> {
        var v = x
        v.replace(with: 0, where: v .< 0)
        v.replace(with: 1, where: v .> 1)
        return v
    }

    /// `destination += row`, over the accumulator width.
    @inline(__always) private func add(_ row: UnsafeMutablePointer<Float>, to destination: UnsafeMutablePointer<Float>) {
        var k = 0
        while k < hidden {
            store(load(destination + k) + load(row + k), destination + k)
            k += 16
        }
    }

    @inline(__always) private func load(_ p: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self)
    }

    @inline(__always) private func store(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self)
    }
}

/// One thread's gradient sums and scratch accumulators, with the first-layer rows it touched
/// since it was last cleared (the others hold zeros).
private final class GradientBuffer: @unchecked Sendable {
    // Owned by one thread during a batch, read by the trainer after it.
    let count: Int
    let values: UnsafeMutablePointer<Float>
    let us: UnsafeMutablePointer<Float>
    let them: UnsafeMutablePointer<Float>
    let hidden: Int
    let touched: UnsafeMutablePointer<Bool>
    private var touchedRows: [Int] = []
    var loss = 0.0

    init(count: Int, hidden: Int, rows: Int) {
        self.count = count
        self.hidden = hidden
        values = .allocate(capacity: max(count, 1))
        values.initialize(repeating: 0, count: max(count, 1))
        us = .allocate(capacity: hidden)
        us.initialize(repeating: 0, count: hidden)
        them = .allocate(capacity: hidden)
        them.initialize(repeating: 0, count: hidden)
        touched = .allocate(capacity: max(rows, 1))
        touched.initialize(repeating: false, count: max(rows, 1))
        firstLayerEnd = rows * hidden
    }

    private let firstLayerEnd: Int

    deinit {
        values.deallocate()
        us.deallocate()
        them.deallocate()
        touched.deallocate()
    }

    @inline(__always) func touch(_ row: Int) {
        if !touched[row] {
            touched[row] = true
            touchedRows.append(row)
        }
    }

    /// Zeros the touched rows and everything after the first layer.
    func clear() {
        for row in touchedRows {
            (values + row * hidden).update(repeating: 0, count: hidden)
            touched[row] = false
        }
        touchedRows.removeAll(keepingCapacity: true)
        (values + firstLayerEnd).update(repeating: 0, count: count - firstLayerEnd)
    }
}

/// Waits for a number of `done()` calls.
private final class WorkGroup: @unchecked Sendable {
    // `remaining` is guarded by `lock`.
    private let lock = Lock()
    private var remaining: Int
    init(count: Int) { remaining = count }
    func done() {
        lock.withLock {
            remaining -= 1
            lock.broadcast()
        }
    }
    func wait() {
        lock.withLock {
            while remaining > 0 { lock.wait() }
        }
    }
}

/// A pointer that threads share, each writing only its own part.
/// (`nil` for an empty buffer, which no thread then reads).
private struct SharedPointer<Pointer>: @unchecked Sendable {
    let base: Pointer?
    init(_ base: Pointer?) { self.base = base }
}
