import Testing
import XiangqiCore
@testable import XiangqiSearch

/// The network evaluation: incremental accumulators equal fresh ones, the colour symmetry of
/// the features, and the file format's checks.
@Suite struct NetworkTests {
    /// A network with seeded random weights in the ranges training produces.
    static func randomNetwork(buckets: Int, hidden: Int, seed: UInt64) -> Network {
        var random = SeededGenerator(seed: seed)
        let features = buckets * Network.featuresPerBucket
        return Network(buckets: buckets, hidden: hidden,
                       featureWeights: (0..<features * hidden).map { _ in Int16.random(in: -90...90, using: &random) },
                       featureBias: (0..<hidden).map { _ in Int16.random(in: -60...120, using: &random) },
                       outputWeights: (0..<2 * hidden).map { _ in Int16.random(in: -127...127, using: &random) },
                       outputBias: Int32.random(in: -20_000...20_000, using: &random))
    }

    /// Over random playouts (captures, king moves across the middle file, null moves), every
    /// accumulator pushed move by move equals the one computed from scratch.
    @Test(arguments: [1, 6])
    func incrementalAccumulatorsEqualFreshOnes(buckets: Int) {
        let network = Self.randomNetwork(buckets: buckets, hidden: 32, seed: UInt64(buckets))
        let stack = AccumulatorStack(network: network, plies: 200)
        let fresh = AccumulatorStack(network: network, plies: 1)
        var random = SeededGenerator(seed: 99)
        var checkedKingMoves = 0, checkedCaptures = 0
        for _ in 0..<30 {
            var position = Position.start
            stack.refresh(position, ply: 0)
            for ply in 0..<150 {
                guard let move = position.legalMoves.randomElement(using: &random) else { break }
                let moved = position.piece(at: move.from), captured = position.piece(at: move.to)
                _ = position.make(move)
                stack.push(ply: ply, move: move, moved: moved, captured: captured, after: position)
                if moved.kind == .king { checkedKingMoves += 1 }
                if !captured.isNone { checkedCaptures += 1 }
                fresh.refresh(position, ply: 0)
                for color in [Color.red, .black] {
                    let a = stack.slot(ply + 1, color), b = fresh.slot(0, color)
                    #expect((0..<network.hidden).allSatisfy { a[$0] == b[$0] }, "ply \(ply) \(move.iccs) \(position.fen)")
                }
                #expect(stack.evaluate(ply: ply + 1, sideToMove: position.sideToMove) == network.evaluate(position))
            }
        }
        #expect(checkedKingMoves > 50 && checkedCaptures > 50)
        // A null move keeps the pieces.
        stack.refresh(.start, ply: 0)
        stack.pushNullMove(ply: 0)
        #expect(stack.evaluate(ply: 1, sideToMove: .black) == stack.evaluate(ply: 0, sideToMove: .black))
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
        newer[4] = 2
        #expect(throws: NetworkFile.ReadError.unsupportedVersion(2)) { try NetworkFile.network(from: newer) }
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
}
