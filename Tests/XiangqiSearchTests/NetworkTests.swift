import CNetworkKernels
import Testing
import XiangqiCore
import XiangqiEngine
@testable import XiangqiSearch

/// The network evaluation: incremental accumulators equal fresh ones, the colour symmetry of
/// the features, and the file format's checks.
@Suite struct NetworkTests {
    static func randomNetwork(buckets: Int, hidden: Int, outputBuckets: Int = 1, seed: UInt64) -> Network {
        Network.random(buckets: buckets, hidden: hidden, outputBuckets: outputBuckets, seed: seed)
    }

    /// A random walk through a tree as a search makes it (moves made and taken back, null
    /// moves, evaluations at some nodes only): every lazy evaluation equals the network's
    /// evaluation from scratch, and the accumulators equal fresh ones.
    @Test(arguments: zip([1, 6, 6], [1, 1, Network.materialBuckets]))
    func lazyAccumulatorsEqualFreshOnes(buckets: Int, outputBuckets: Int) {
        let network = Self.randomNetwork(buckets: buckets, hidden: 32, outputBuckets: outputBuckets, seed: UInt64(buckets))
        let stack = AccumulatorStack(network: network, plies: 64)
        // From scratch: not through the stack's refresh cache, which the stack under test uses.
        let fresh = UnsafeMutablePointer<Int16>.allocate(capacity: network.hidden)
        defer { fresh.deallocate() }
        var random = SeededGenerator(seed: 99)
        var evaluations = 0, kingMoves = 0, captures = 0
        for game in 0..<12 {
            // Roots deep into random games, so that kings have left their start squares.
            var root = Position.start
            for _ in 0..<(game * 6) {
                guard let move = root.legalMoves.randomElement(using: &random) else { break }
                _ = root.make(move)
            }
            stack.refresh(root, ply: 0)
            var line: [(Move, Undo)] = [], position = root
            for _ in 0..<600 {
                let ply = line.count
                let roll = Int.random(in: 0..<10, using: &random)
                if roll < 3 && ply > 0 {
                    let (move, undo) = line.removeLast()
                    if move == .null { position.unmakeNull(undo) } else { position.unmake(move, undo) }
                } else if roll == 3 && ply < 60 && !position.isInCheck {
                    line.append((.null, position.makeNull()))
                    stack.recordNullMove(ply: ply + 1)
                } else if ply < 60, let move = position.legalMoves.randomElement(using: &random) {
                    let moved = position.piece(at: move.from)
                    let undo = position.make(move)
                    stack.record(ply: ply + 1, move: move, moved: moved, captured: undo.capturedPiece)
                    line.append((move, undo))
                    if moved.kind == .king { kingMoves += 1 }
                    if !undo.capturedPiece.isNone { captures += 1 }
                }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let ply = line.count
                    #expect(stack.evaluate(ply: ply, position: position) == network.evaluate(position), "\(position.fen)")
                    for color in [Color.red, .black] {
                        network.refresh(fresh, position, for: color)
                        let a = stack.slot(ply, color)
                        #expect((0..<network.hidden).allSatisfy { a[$0] == fresh[$0] })
                    }
                    evaluations += 1
                }
            }
        }
        #expect(evaluations > 1000 && kingMoves > 50 && captures > 50, "\(evaluations) \(kingMoves) \(captures)")
    }

    /// The Float output layer agrees with the exact integer one within a centipawn, for the
    /// largest weights a file can hold too.
    @Test func floatOutputMatchesExactArithmetic() {
        var random = SeededGenerator(seed: 12)
        for (network, name) in [(Self.randomNetwork(buckets: 6, hidden: 256, seed: 5), "trained range"),
                                (Self.randomNetwork(buckets: 6, hidden: 64, outputBuckets: 8, seed: 6), "output buckets"),
                                (Network(buckets: 1, hidden: 64,
                                         featureWeights: (0..<(1260 * 64)).map { _ in Int16.random(in: -400...400, using: &random) },
                                         featureBias: (0..<64).map { _ in Int16.random(in: 0...600, using: &random) },
                                         outputWeights: (0..<128).map { _ in Int16.random(in: -32767...32767, using: &random) },
                                         outputBias: 0), "extreme weights")] {
            var position = Position.start
            var largest = 0
            for _ in 0..<200 {
                largest = max(largest, abs(network.evaluate(position) - network.evaluate(position, exactly: true)))
                guard let move = position.legalMoves.randomElement(using: &random) else { break }
                _ = position.make(move)
            }
            #expect(largest <= 1, "\(name): \(largest) cp")
        }
    }

    /// The C kernels give the same bits with the baseline loops and with AVX2 (where the
    /// processor has it): accumulator updates of each shape, in place and not, and a row
    /// added, equal a plain Swift sum, and the output layer's Float sums are equal to the bit.
    @Test func kernelLevelsGiveTheSameBits() {
        var random = SeededGenerator(seed: 21)
        let n = 256
        func lane() -> [Int16] { (0..<n).map { _ in Int16.random(in: -2000...2000, using: &random) } }
        let before = xq_kernel_level(0)
        defer { _ = xq_kernel_level(Int32(before)) }
        let levels: [Int32] = xq_kernel_level(2) == 2 || xq_kernel_level(0) == 2 ? [1, 2] : [1]
        var updates = 0, sums = 0
        for _ in 0..<50 {
            let source = lane(), add0 = lane(), add1 = lane(), remove0 = lane(), remove1 = lane()
            let weights = (0..<n).map { _ in Float.random(in: -2...2, using: &random) }
            for (twoAdded, twoRemoved) in [(false, false), (false, true), (true, false), (true, true)] {
                var expected = [Int16](repeating: 0, count: n)
                for i in 0..<n {
                    let added: Int16 = add0[i] &+ (twoAdded ? add1[i] : 0)
                    let removed: Int16 = remove0[i] &+ (twoRemoved ? remove1[i] : 0)
                    expected[i] = source[i] &+ added &- removed
                }
                for level in levels {
                    _ = xq_kernel_level(level)
                    var out = [Int16](repeating: 0, count: n), inPlace = source
                    add1.withUnsafeBufferPointer { a1 in
                        remove1.withUnsafeBufferPointer { r1 in
                            let a1p = twoAdded ? a1.baseAddress : nil, r1p = twoRemoved ? r1.baseAddress : nil
                            xq_accumulator_update(&out, source, add0, a1p, remove0, r1p, Int32(n))
                            inPlace.withUnsafeMutableBufferPointer {
                                xq_accumulator_update($0.baseAddress, $0.baseAddress, add0, a1p, remove0, r1p, Int32(n))
                            }
                        }
                    }
                    #expect(out == expected && inPlace == expected, "level \(level), two added \(twoAdded), two removed \(twoRemoved)")
                    updates += 1
                }
            }
            for level in levels {
                _ = xq_kernel_level(level)
                var sum = source
                xq_accumulator_add(&sum, add0, Int32(n))
                #expect(sum == (0..<n).map { source[$0] &+ add0[$0] }, "level \(level): a row added")
            }
            let dots = levels.map { level -> UInt32 in
                _ = xq_kernel_level(level)
                return xq_screlu_dot(source, weights, Int32(n), 255).bitPattern
            }
            #expect(Set(dots).count == 1, "\(dots)")
            sums += 1
        }
        #expect(updates == 50 * 4 * levels.count && sums == 50)
        // Where the processor has AVX2 (the machines the engine is measured on), both levels ran.
        #expect(levels.count == 2 || !Self.processorHasAVX2)
    }

    /// Whether /proc/cpuinfo lists AVX2 (false where there is no such file).
    static var processorHasAVX2: Bool {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
        return text.contains(" avx2")
    }

    /// Each side sees the board from its own end: swapping colours and flipping the board
    /// leaves the evaluation for the side to move unchanged.
    @Test func colourFlippedPositionsEvaluateAlike() throws {
        let network = Self.randomNetwork(buckets: 6, hidden: 32, seed: 3)
        var random = SeededGenerator(seed: 4)
        var position = Position.start
        for _ in 0..<80 {
            #expect(network.evaluate(position) == network.evaluate(position.colorFlipped))
            guard let move = position.legalMoves.randomElement(using: &random) else { break }
            _ = position.make(move)
        }
        // Not a constant: different positions evaluate differently.
        let start = network.evaluate(.start), after = network.evaluate(try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"))
        #expect(start != after)
    }

    @Test func filesRoundTripAndBadFilesAreRefused() throws {
        let network = Self.randomNetwork(buckets: 6, hidden: 16, seed: 8)
        let bytes = NetworkFile.bytes(of: network)
        let read = try NetworkFile.network(from: bytes)
        #expect(read.contentHash == network.contentHash && read.hidden == 16 && read.buckets == 6)
        #expect(read.evaluate(.start) == network.evaluate(.start))
        #expect(NetworkFile.bytes(of: read) == bytes)

        #expect(throws: NetworkFile.ReadError.wrongLength(expected: bytes.count, actual: bytes.count - 1)) {
            try NetworkFile.network(from: Array(bytes.dropLast()))
        }
        var corrupted = bytes
        corrupted[1000] ^= 1
        #expect(throws: NetworkFile.ReadError.hashMismatch) { try NetworkFile.network(from: corrupted) }
        #expect(throws: NetworkFile.ReadError.notANetwork) { try NetworkFile.network(from: Array("SQLite format 3".utf8)) }
        #expect(throws: NetworkFile.ReadError.notANetwork) { try NetworkFile.network(from: []) }
        var newer = bytes
        newer[4] = 3
        #expect(throws: NetworkFile.ReadError.unsupportedVersion(3)) { try NetworkFile.network(from: newer) }
        // A version-1 file read as version 2 has no output-bucket fields that make sense.
        var relabelled = bytes
        relabelled[4] = 2
        #expect(throws: NetworkFile.ReadError.self) { try NetworkFile.network(from: relabelled) }
        var shape = bytes
        shape[12] = 3
        #expect(throws: NetworkFile.ReadError.badShape("3 king buckets (1 or 6)")) { try NetworkFile.network(from: shape) }
        var width = bytes
        width[16] = 17
        #expect(throws: NetworkFile.ReadError.self) { try NetworkFile.network(from: width) }
        var huge = bytes
        huge[18] = 0xFF  // a width of millions: refused before any allocation
        #expect(throws: NetworkFile.ReadError.self) { try NetworkFile.network(from: huge) }
    }

    /// A network with output buckets is written in format 2 and reads back whole; one with
    /// one output is still written in format 1, so the files of older networks keep their
    /// bytes and hash; the built-in network (8 output buckets) is written back byte for byte;
    /// bad output-bucket fields are refused.
    @Test func outputBucketFilesRoundTripAndOldFilesStayAsTheyWere() throws {
        let network = Self.randomNetwork(buckets: 6, hidden: 16, outputBuckets: 8, seed: 9)
        let bytes = NetworkFile.bytes(of: network)
        #expect(bytes[4] == 2 && bytes[40] == 8 && bytes[44] == 1)
        #expect(bytes.count == NetworkFile.headerSizeWithOutputBuckets + 2 * (6 * 1260 * 16 + 16 + 8 * 32) + 4 * 8)
        let read = try NetworkFile.network(from: bytes)
        #expect(read.outputBuckets == 8 && read.contentHash == network.contentHash)
        #expect(NetworkFile.bytes(of: read) == bytes)
        // The buckets differ: the same accumulators give other evaluations in other buckets.
        var random = SeededGenerator(seed: 10)
        var position = Position.start
        var evaluationsByBucket: [Int: Set<Int>] = [:]
        for _ in 0..<300 {
            #expect(read.evaluate(position) == network.evaluate(position))
            evaluationsByBucket[network.outputBucket(of: position), default: []].insert(network.evaluate(position))
            guard let move = position.legalMoves.randomElement(using: &random) else { break }
            _ = position.make(move)
        }
        #expect(evaluationsByBucket.count >= 2)

        var count = bytes
        count[40] = 4
        #expect(throws: NetworkFile.ReadError.badShape("4 output buckets (8)")) { try NetworkFile.network(from: count) }
        var scheme = bytes
        scheme[44] = 2
        #expect(throws: NetworkFile.ReadError.badShape("output bucket scheme 2 (1: by material)")) { try NetworkFile.network(from: scheme) }
        #expect(throws: NetworkFile.ReadError.self) { try NetworkFile.network(from: Array(bytes.prefix(44))) }
        var corrupted = bytes
        corrupted[bytes.count - 3] ^= 1  // an output bias
        #expect(throws: NetworkFile.ReadError.hashMismatch) { try NetworkFile.network(from: corrupted) }

        let single = Self.randomNetwork(buckets: 6, hidden: 16, outputBuckets: 1, seed: 11)
        let singleBytes = NetworkFile.bytes(of: single)
        #expect(singleBytes[4] == 1)
        #expect(singleBytes.count == NetworkFile.headerSize + 2 * (6 * 1260 * 16 + 16 + 32) + 4)
        let singleRead = try NetworkFile.network(from: singleBytes)
        #expect(singleRead.outputBuckets == 1 && singleRead.contentHash == single.contentHash)
        #expect(NetworkFile.bytes(of: singleRead) == singleBytes)

        let builtIn = Array(NetworkFile.builtInBytes)
        #expect(builtIn[4] == 2 && builtIn[40] == UInt8(Network.materialBuckets))
        #expect(NetworkFile.bytes(of: NetworkFile.builtIn) == builtIn)
        #expect(NetworkFile.builtIn.outputBuckets == Network.materialBuckets)
    }

    /// The material bucket: (2 x chariots + horses + cannons) / 2, at most 7.
    @Test func materialBucketsFollowTheMajorPieces() throws {
        #expect(Network.materialBucket(of: .start) == 7)
        // Both chariot pairs traded: 8 horses and cannons.
        #expect(Network.materialBucket(of: try Position(fen: "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1")) == 4)
        // One chariot and one horse a side.
        #expect(Network.materialBucket(of: try Position(fen: "rnbakab2/9/9/p3p3p/9/9/P3P3P/9/9/RNBAKAB2 w - - 0 1")) == 3)
        #expect(Network.materialBucket(of: try Position(fen: "r2akab2/9/9/4p4/9/9/4P4/9/9/R2AKAB2 w - - 0 1")) == 2)
        #expect(Network.materialBucket(of: try Position(fen: "3akab2/9/9/4p4/9/9/4P4/9/9/3AKAB2 w - - 0 1")) == 0)
        for chariots in 0...4 {
            for others in 0...8 {
                let bucket = Network.materialBucket(chariots: chariots, horsesAndCannons: others)
                #expect(bucket == min((2 * chariots + others) / 2, 7))
            }
        }
    }

    /// Searches with a network: legal moves, mates still found, and the same tree twice (the
    /// lazy accumulators leave nothing behind between searches), with one thread or two.
    @Test func searchesWithANetworkAreSoundAndReproducible() throws {
        let network = Self.randomNetwork(buckets: 6, hidden: 32, seed: 17)
        func searched(_ fen: String, depth: Int, threads: Int = 1) throws -> SearchResult {
            let engine = Engine(hashMegabytes: 4)
            engine.setNetwork(network)
            engine.setThreadCount(threads)
            engine.setGame(Game(try Position(fen: fen)))
            return engine.search(SearchLimits(depth: depth))
        }
        for fen in [Position.startFEN, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                    "3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1"] {
            let first = try searched(fen, depth: 6), second = try searched(fen, depth: 6)
            #expect(first.bestMove == second.bestMove && first.score == second.score && first.nodes == second.nodes)
            let position = try Position(fen: fen)
            #expect(first.bestMove.map(position.isLegal) == true)
            let threaded = try searched(fen, depth: 6, threads: 2)
            #expect(threaded.bestMove.map(position.isLegal) == true && abs(threaded.score) < Score.mateBound)
        }
        // A mate in one is a mate whatever the evaluation.
        let mate = try searched("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", depth: 3)
        #expect(mate.bestMove == Move(iccs: "a0d0") && mate.score == Score.mate - 1)
    }
}
