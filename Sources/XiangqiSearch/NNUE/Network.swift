import CNetworkKernels
import XiangqiCore

/// An efficiently updatable network (NNUE) that evaluates a position in centipawns for the
/// side to move.
///
/// **Features.** Each side sees the board from its own end: for Black the ranks are flipped
/// and the colours swapped, so "own" pieces always start at ranks 0-3. The board is also
/// mirrored left-right when the side's king stands on files f-i, so that its king is always on
/// files d or e (xiangqi is left-right symmetric, and this halves what the network must
/// learn). A feature is (king bucket, own or enemy piece kind, square): 14 × 90 = 1260 per
/// bucket. With 6 buckets the bucket is the king's square among the 6 it can then stand on
/// (files d-e, ranks 0-2); with 1 bucket there is none. Each side's accumulator is the sum
/// of the first-layer rows of its active features (at most 32) plus a bias; a move changes
/// two or three features, so the search updates accumulators instead of recomputing them
/// (see ``AccumulatorStack``), except when a king move changes its side's mirror or bucket.
///
/// **Output.** `[side to move's accumulator, other side's]` through SCReLU (clamp to
/// `0...qa`, then square) and one linear output: a single hidden layer, which trains in
/// minutes on a CPU from a few million positions (the data this project can make on two
/// cores) and evaluates in a few hundred cycles. A network may have 8 output buckets
/// instead of one output: 8 sets of output weights and biases, the position's material
/// choosing which (``materialBucket(of:)-swift.type.method``), so that the weight of each
/// hidden unit can differ between the opening and the endgame.
///
/// **Quantization.** First layer and bias in Int16 scaled by ``qa``; output weights in Int16
/// scaled by ``qb``; output bias in Int32 scaled by `qa × qb`. The evaluation is
/// `(Σ screlu(a) × w / qa + bias) × scale / (qa × qb)` centipawns.
public final class Network: @unchecked Sendable {
    // Immutable after init: the weight buffers are written once, then only read (from any
    // number of search threads).

    /// Piece-square features per bucket: 2 sides × 7 kinds × 90 squares.
    public static let featuresPerBucket = 1260
    /// Squares a king can stand on after mirroring (files d-e, ranks 0-2): the largest bucket count.
    public static let maximumBuckets = 6
    /// Output buckets of a network that has them (the other shape has 1).
    public static let materialBuckets = 8
    /// The accumulator width must be a multiple of this (the SIMD chunk).
    public static let hiddenMultiple = 16

    /// King buckets: the feature rows are per bucket of the own king's square.
    public let buckets: Int
    /// Accumulator width per side.
    public let hidden: Int
    /// Output buckets: 1, or ``materialBuckets`` chosen by material.
    public let outputBuckets: Int
    /// Quantization of the feature layer (weights are value x qa).
    public let qa: Int
    /// Quantization of the output layer (weights are value x qb).
    public let qb: Int
    /// Centipawns per unit of the network's (unquantized) output.
    public let scale: Int
    /// FNV-1a 64 of the weights as stored in the file: names a network in records.
    public let contentHash: UInt64
    /// ``contentHash`` as 16 hexadecimal digits, the form every report shows.
    public var hashText: String {
        let digits = String(contentHash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `[feature][hidden]`.
    let featureWeights: UnsafeMutablePointer<Int16>
    let featureBias: UnsafeMutablePointer<Int16>
    /// `[outputBuckets][2 × hidden]`: per bucket the side to move's half, then the other side's.
    let outputWeights: UnsafeMutablePointer<Int16>
    /// The output weights as Float, for ``evaluate(us:them:bucket:)``.
    let outputWeightsFloat: UnsafeMutablePointer<Float>
    /// `[outputBuckets]`.
    let outputBiases: UnsafeMutablePointer<Int32>

    /// Rows of the feature layer: buckets x features per bucket.
    public var featureCount: Int { buckets * Self.featuresPerBucket }

    /// A network from its weights (row-major `[feature][hidden]` for the first layer), with
    /// one output.
    /// Precondition: sizes consistent, `buckets` 1 or 6, `hidden` a positive multiple of 16.
    public convenience init(buckets: Int, hidden: Int, qa: Int = 255, qb: Int = 512, scale: Int = 400,
                            featureWeights: [Int16], featureBias: [Int16], outputWeights: [Int16], outputBias: Int32) {
        self.init(buckets: buckets, hidden: hidden, qa: qa, qb: qb, scale: scale, featureWeights: featureWeights,
                  featureBias: featureBias, outputWeights: outputWeights, outputBiases: [outputBias])
    }

    /// A network from its weights, with one output per bucket: `outputWeights` holds
    /// `outputBiases.count` (1 or ``materialBuckets``) sets of `2 × hidden` weights.
    /// Precondition: sizes consistent, `buckets` 1 or 6, `hidden` a positive multiple of 16.
    public convenience init(buckets: Int, hidden: Int, qa: Int = 255, qb: Int = 512, scale: Int = 400,
                            featureWeights: [Int16], featureBias: [Int16], outputWeights: [Int16], outputBiases: [Int32]) {
        self.init(buckets: buckets, hidden: hidden, qa: qa, qb: qb, scale: scale, featureWeights: featureWeights,
                  featureBias: featureBias, outputWeights: outputWeights, outputBiases: outputBiases, verifiedHash: nil)
    }

    /// `verifiedHash`: the content hash when the caller has already checked it against these
    /// weights (a file's stored hash), which spares hashing them again; `nil` computes it.
    init(buckets: Int, hidden: Int, qa: Int, qb: Int, scale: Int, featureWeights: [Int16], featureBias: [Int16],
         outputWeights: [Int16], outputBiases: [Int32], verifiedHash: UInt64?) {
        precondition(buckets == 1 || buckets == Self.maximumBuckets)
        precondition(hidden > 0 && hidden % Self.hiddenMultiple == 0)
        precondition(outputBiases.count == 1 || outputBiases.count == Self.materialBuckets)
        precondition(featureWeights.count == buckets * Self.featuresPerBucket * hidden)
        precondition(featureBias.count == hidden && outputWeights.count == outputBiases.count * 2 * hidden)
        self.buckets = buckets
        self.hidden = hidden
        outputBuckets = outputBiases.count
        self.qa = qa
        self.qb = qb
        self.scale = scale
        self.featureWeights = .allocate(capacity: featureWeights.count)
        self.featureWeights.initialize(from: featureWeights, count: featureWeights.count)
        self.featureBias = .allocate(capacity: hidden)
        self.featureBias.initialize(from: featureBias, count: hidden)
        self.outputWeights = .allocate(capacity: outputWeights.count)
        self.outputWeights.initialize(from: outputWeights, count: outputWeights.count)
        outputWeightsFloat = .allocate(capacity: outputWeights.count)
        outputWeightsFloat.initialize(from: outputWeights.map(Float.init), count: outputWeights.count)
        self.outputBiases = .allocate(capacity: outputBiases.count)
        self.outputBiases.initialize(from: outputBiases, count: outputBiases.count)
        contentHash = verifiedHash ?? NetworkFile.hash(NetworkFile.payload(
            featureWeights: featureWeights, featureBias: featureBias, outputWeights: outputWeights, outputBiases: outputBiases))
    }

    /// A network with seeded random weights in the ranges training produces: for tests, and
    /// for measuring the speed of a shape before a trained network of it exists.
    public static func random(buckets: Int, hidden: Int, outputBuckets: Int = 1, seed: UInt64) -> Network {
        var random = SeededGenerator(seed: seed)
        let features = buckets * featuresPerBucket
        return Network(buckets: buckets, hidden: hidden,
                       featureWeights: (0..<features * hidden).map { _ in Int16.random(in: -90...90, using: &random) },
                       featureBias: (0..<hidden).map { _ in Int16.random(in: -60...120, using: &random) },
                       outputWeights: (0..<outputBuckets * 2 * hidden).map { _ in Int16.random(in: -400...400, using: &random) },
                       outputBiases: (0..<outputBuckets).map { _ in Int32.random(in: -200_000...200_000, using: &random) })
    }

    deinit {
        featureWeights.deallocate()
        featureBias.deallocate()
        outputWeights.deallocate()
        outputWeightsFloat.deallocate()
        outputBiases.deallocate()
    }

    // MARK: - Features

    /// How `perspective` sees the board: whether it is mirrored left-right and its king bucket.
    func orientation(of perspective: Color, kingSquare: Square) -> (mirrored: Bool, bucket: Int) {
        Self.orientation(of: perspective, kingSquare: kingSquare, buckets: buckets)
    }

    /// ``orientation(of:kingSquare:)`` for a network with `buckets` king buckets.
    @inline(__always)
    public static func orientation(of perspective: Color, kingSquare: Square, buckets: Int) -> (mirrored: Bool, bucket: Int) {
        let king = perspective == .red ? kingSquare : kingSquare.mirroredRanks
        let mirrored = king.file > 4
        guard buckets > 1 else { return (mirrored, 0) }
        let file = mirrored ? 8 - king.file : king.file
        // After mirroring a king in its palace stands on files d-e (3-4), ranks 0-2.
        return (mirrored, min(king.rank, 2) * 2 + max(0, min(file - 3, 1)))
    }

    /// The feature of `piece` on `square` for `perspective` in `orientation`.
    @inline(__always)
    public static func feature(_ piece: Piece, on square: Square, for perspective: Color,
                               _ orientation: (mirrored: Bool, bucket: Int)) -> Int {
        var s = perspective == .red ? square : square.mirroredRanks
        if orientation.mirrored { s = s.mirroredFiles }
        let side = piece.color == perspective ? 0 : 1
        return orientation.bucket * featuresPerBucket + (side * 7 + piece.kind.index) * 90 + s.index
    }

    @inline(__always)
    func feature(_ piece: Piece, on square: Square, for perspective: Color, _ orientation: (mirrored: Bool, bucket: Int)) -> Int {
        Self.feature(piece, on: square, for: perspective, orientation)
    }

    /// The active features of a board (pieces by square index) for `perspective`, with
    /// `buckets` king buckets.
    public static func features(of board: [Piece], for perspective: Color, buckets: Int) -> [Int] {
        guard let king = board.firstIndex(of: Piece(perspective, .king)) else { return [] }
        let o = orientation(of: perspective, kingSquare: Square(unchecked: king), buckets: buckets)
        var result: [Int] = []
        for (index, piece) in board.enumerated() where !piece.isNone {
            result.append(feature(piece, on: Square(unchecked: index), for: perspective, o))
        }
        return result
    }

    /// The active features of `position` for `perspective`.
    public func features(of position: Position, for perspective: Color) -> [Int] {
        let o = orientation(of: perspective, kingSquare: position.kingSquare(of: perspective))
        var result: [Int] = []
        for index in 0..<Square.count {
            let square = Square(unchecked: index)
            let piece = position.piece(at: square)
            if !piece.isNone { result.append(feature(piece, on: square, for: perspective, o)) }
        }
        return result
    }

    // MARK: - Output buckets

    /// The output bucket of a position with `chariots` chariots and `horsesAndCannons` horses
    /// and cannons on the board (both sides): `(2 × chariots + horses + cannons) / 2`, at most
    /// 7. The start position is in bucket 7, a middlegame that traded a chariot pair in 6, an
    /// endgame with one chariot and one horse a side in 3.
    @inline(__always)
    public static func materialBucket(chariots: Int, horsesAndCannons: Int) -> Int {
        min((2 &* chariots &+ horsesAndCannons) >> 1, materialBuckets &- 1)
    }

    /// The output bucket of `position`.
    @inline(__always)
    public static func materialBucket(of position: Position) -> Int {
        let chariots = position.pieces(of: .red, .chariot).count &+ position.pieces(of: .black, .chariot).count
        let others = position.pieces(of: .red, .horse).count &+ position.pieces(of: .black, .horse).count
            &+ position.pieces(of: .red, .cannon).count &+ position.pieces(of: .black, .cannon).count
        return materialBucket(chariots: chariots, horsesAndCannons: others)
    }

    /// The output bucket of a board (pieces by square index).
    public static func materialBucket(of board: [Piece]) -> Int {
        var chariots = 0, others = 0
        for piece in board where !piece.isNone {
            switch piece.kind {
            case .chariot: chariots += 1
            case .horse, .cannon: others += 1
            default: break
            }
        }
        return materialBucket(chariots: chariots, horsesAndCannons: others)
    }

    /// The output bucket this network uses for `position` (0 when it has one output).
    @inline(__always)
    public func outputBucket(of position: Position) -> Int {
        outputBuckets == 1 ? 0 : Self.materialBucket(of: position)
    }

    // MARK: - Evaluation

    /// The evaluation of accumulators `us` (the side to move's) and `them` with the output of
    /// `bucket` (``outputBucket(of:)``), in centipawns.
    ///
    /// The output layer runs in Float (clamp(a)² is exact in Float), in C
    /// (`xq_screlu_dot`): x86-64's baseline (SSE2) has no 32-bit integer multiply and sums
    /// of 255² × w need more than 32 bits, and Swift's SIMD conversions are calls into the
    /// standard library. The Float sum differs from the exact one by far less than a
    /// centipawn (``evaluateExactly(us:them:)`` is the reference the tests compare with).
    @inline(__always)
    func evaluate(us: UnsafePointer<Int16>, them: UnsafePointer<Int16>, bucket: Int) -> Int {
        let count = Int32(hidden), top = Int16(qa), weights = outputWeightsFloat + bucket &* 2 &* hidden
        let total = xq_screlu_dot(us, weights, count, top) + xq_screlu_dot(them, weights + hidden, count, top)
        let centipawns = (Double(total) / Double(qa) + Double(outputBiases[bucket])) * Double(scale) / Double(qa * qb)
        // Whatever a file holds, an evaluation stays far below the rule-win and mate scores.
        return Int(min(max(centipawns, -Double(Self.evaluationLimit)), Double(Self.evaluationLimit)))
    }

    /// The largest evaluation in centipawns (either way).
    public static let evaluationLimit = 10_000

    /// ``evaluate(us:them:bucket:)`` in exact integer arithmetic: the reference.
    func evaluateExactly(us: UnsafePointer<Int16>, them: UnsafePointer<Int16>, bucket: Int) -> Int {
        let weights = outputWeights + bucket * 2 * hidden
        let total = Self.exactDot(us, weights, hidden, qa) &+ Self.exactDot(them, weights + hidden, hidden, qa)
        return min(max((Int(total) / qa + Int(outputBiases[bucket])) * scale / (qa * qb), -Self.evaluationLimit), Self.evaluationLimit)
    }

    /// Σ clamp(a, 0, qa)² × w exactly: each lane's product fits Int32 (255² × 32767 < 2³¹),
    /// lanes are summed in Int64.
    static func exactDot(_ a: UnsafePointer<Int16>, _ w: UnsafePointer<Int16>, _ count: Int, _ qa: Int) -> Int64 {
        let zero = SIMD16<Int16>(repeating: 0), top = SIMD16<Int16>(repeating: Int16(qa))
        var total: Int64 = 0
        let rawA = UnsafeRawPointer(a), rawW = UnsafeRawPointer(w)
        var i = 0
        while i < count {
            let v = rawA.loadUnaligned(fromByteOffset: i * 2, as: SIMD16<Int16>.self).clamped(lowerBound: zero, upperBound: top)
            let weights = rawW.loadUnaligned(fromByteOffset: i * 2, as: SIMD16<Int16>.self)
            let v32 = SIMD16<Int32>(truncatingIfNeeded: v), w32 = SIMD16<Int32>(truncatingIfNeeded: weights)
            total &+= SIMD16<Int64>(truncatingIfNeeded: v32 &* w32 &* v32).wrappedSum()
            i += 16
        }
        return total
    }

    /// The evaluation of `position` from scratch (for tests and the trainer's checks); with
    /// `exactly`, the output layer in exact integer arithmetic.
    public func evaluate(_ position: Position, exactly: Bool = false) -> Int {
        let us = UnsafeMutablePointer<Int16>.allocate(capacity: hidden), them = UnsafeMutablePointer<Int16>.allocate(capacity: hidden)
        defer {
            us.deallocate()
            them.deallocate()
        }
        refresh(us, position, for: position.sideToMove)
        refresh(them, position, for: position.sideToMove.opponent)
        let bucket = outputBucket(of: position)
        return exactly ? evaluateExactly(us: us, them: them, bucket: bucket) : evaluate(us: us, them: them, bucket: bucket)
    }

    /// Writes `perspective`'s accumulator for `position` into `accumulator` (bias plus rows).
    func refresh(_ accumulator: UnsafeMutablePointer<Int16>, _ position: Position, for perspective: Color) {
        accumulator.update(from: featureBias, count: hidden)
        let o = orientation(of: perspective, kingSquare: position.kingSquare(of: perspective))
        // Over the occupied squares, without building a list: the search refreshes on some
        // king moves, and allocates nothing per node.
        for square in position.occupied {
            add(feature(position.piece(at: square), on: square, for: perspective, o), to: accumulator)
        }
    }

    /// Adds `feature`'s row to `accumulator` (`xq_accumulator_add`, AVX2 where the processor
    /// has it).
    @inline(__always)
    func add(_ feature: Int, to accumulator: UnsafeMutablePointer<Int16>) {
        xq_accumulator_add(accumulator, featureWeights + feature * hidden, Int32(hidden))
    }

    /// Subtracts `feature`'s row from `accumulator` (`xq_accumulator_subtract`).
    @inline(__always)
    func subtract(_ feature: Int, from accumulator: UnsafeMutablePointer<Int16>) {
        xq_accumulator_subtract(accumulator, featureWeights + feature * hidden, Int32(hidden))
    }

    /// `destination = source + Σ rows(added) − Σ rows(removed)` in one pass
    /// (`xq_accumulator_update`, AVX2 where the processor has it); `destination` may be
    /// `source`.
    @inline(__always)
    func update(_ destination: UnsafeMutablePointer<Int16>, from source: UnsafePointer<Int16>,
                adding added: (Int, Int), removing removed: (Int, Int), removedCount: Int) {
        xq_accumulator_update(destination, source,
                              featureWeights + added.0 * hidden,
                              added.1 >= 0 ? UnsafePointer(featureWeights + added.1 * hidden) : nil,
                              featureWeights + removed.0 * hidden,
                              removedCount > 1 ? UnsafePointer(featureWeights + removed.1 * hidden) : nil,
                              Int32(hidden))
    }
}
