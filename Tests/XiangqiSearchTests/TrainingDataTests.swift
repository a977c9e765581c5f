import Foundation
import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch
import XiangqiTraining

/// Training positions: the 32-byte record and the self-play that writes it.
@Suite struct TrainingDataTests {
    @Test func recordsRoundTripOverRandomPlayouts() throws {
        var random = SeededGenerator(seed: 11)
        var checked = 0
        for _ in 0..<20 {
            var position = Position.start
            for ply in 0..<120 {
                let record = TrainingRecord(position: position, score: Int.random(in: -3000...3000, using: &random),
                                            redResult: Int.random(in: -1...1, using: &random), ply: ply)
                let bytes = record.bytes
                #expect(bytes.count == TrainingRecord.byteCount)
                let read = try TrainingRecord(bytes: bytes)
                #expect(read == record)
                // The record's FEN is the position's board and side to move.
                let again = try Position(fen: read.fen)
                #expect(again.fen.split(separator: " ").prefix(2) == position.fen.split(separator: " ").prefix(2))
                checked += 1
                guard let move = position.legalMoves.randomElement(using: &random) else { break }
                _ = position.make(move)
            }
        }
        #expect(checked > 1000)
        // Scores beyond Int16 are clamped, plies beyond 255 saturate.
        let extreme = try TrainingRecord(bytes: TrainingRecord(position: .start, score: 99_999, redResult: 1, ply: 700).bytes)
        #expect(extreme.score == Int(Int16.max) && extreme.ply == 255)
    }

    @Test func badRecordsAreRefused() {
        let good = TrainingRecord(position: .start, score: 12, redResult: 0, ply: 0).bytes
        #expect(throws: TrainingRecord.DecodingError.wrongSize(31)) { try TrainingRecord(bytes: good.dropLast()) }
        var crowded = good
        for i in 0..<12 { crowded[i] = 0xFF }
        #expect(throws: TrainingRecord.DecodingError.tooManyPieces(90)) { try TrainingRecord(bytes: crowded) }
        var empty = good
        empty[12] &= 0xF0  // the first occupied square (a0) loses its piece code
        #expect(throws: TrainingRecord.DecodingError.badPiece(square: 0)) { try TrainingRecord(bytes: empty) }
        var result = good
        result[30] = 2
        #expect(throws: TrainingRecord.DecodingError.badResult(2)) { try TrainingRecord(bytes: result) }
    }

    /// Game i depends on the seed and i only: one thread or two, a whole range or a part of it.
    @Test func selfPlayIsReproducibleAndKeepsQuietPositions() throws {
        var settings = DataGeneration()
        settings.nodes = 150
        settings.maxPlies = 160
        settings.seed = 5
        func collect(_ range: Range<Int>, threads: Int) -> [Int: DataGeneration.Outcome?] {
            let box = OutcomeBox()
            settings.run(games: range, threads: threads) { index, outcome in box.add(index, outcome) }
            return box.outcomes
        }
        let one = collect(0..<3, threads: 1)
        let two = collect(0..<3, threads: 2)
        let last = collect(2..<3, threads: 1)
        #expect(one.keys.sorted() == [0, 1, 2] && two.keys.sorted() == [0, 1, 2])
        for i in 0..<3 {
            #expect(one[i]??.records == two[i]??.records)
        }
        #expect(one[2]??.records == last[2]??.records)
        let played = one.values.compactMap { $0 }
        #expect(!played.isEmpty)
        for outcome in played {
            let red = outcome.result == .redWins ? 1 : outcome.result == .blackWins ? -1 : 0
            #expect(!outcome.records.isEmpty)
            for record in outcome.records {
                #expect(record.redResult == red)
                let position = try Position(fen: record.fen)
                #expect(!position.isInCheck)
                #expect(abs(record.score) < 10_000)
            }
        }
        // Another seed, other games.
        settings.seed = 6
        let other = collect(0..<1, threads: 1)
        #expect(other[0]??.records != one[0]??.records)
        // A network scores (and plays) the games instead of the handcrafted evaluation; with
        // it too, one thread or two make the same data.
        settings.seed = 5
        settings.openingScoreLimit = 30_000  // random weights judge any opening lopsided
        let handcrafted = collect(0..<1, threads: 1)
        settings.network = Network.random(buckets: 1, hidden: 32, seed: 3)
        let networkOne = collect(0..<2, threads: 1)
        let networkTwo = collect(0..<2, threads: 2)
        #expect(handcrafted[0]??.records != nil && networkOne[0]??.records != nil)
        #expect(networkOne[0]??.records != handcrafted[0]??.records)
        #expect(networkOne[0]??.records == networkTwo[0]??.records && networkOne[1]??.records == networkTwo[1]??.records)
    }

    /// Game 27,535 of seed 5 at 1000 nodes with the built-in network once reached, at ply
    /// 87, a position whose first iteration never ended before quiescence judged
    /// repetitions: checks answered by checks cycled to the maximum ply in every branch (the
    /// self-play chunk that held it hung). The game's first 87 plies (as 686b29a played them;
    /// another search plays another game from the same seed) lead there; from it the game is
    /// played to its end, every search completing depth 1 (not only stopped by the hard node
    /// bound, 64 times the budget).
    @Test func aGameWhoseQuiescenceChecksCycleEnds() throws {
        let moves = """
            h2h9 a9a7 b2e2 h7d7 h9h3 b7b4 h3h6 g6g5 b0c2 i9h9 h6c6 a7c7 c6c4 c9e7 a0b0 c7b7 h0g2 b7b6 \
            e2e6 b6e6 b0b4 h9h2 i0i2 h2i2 g0i2 b9c7 g3g4 g5g4 i2g4 c7d5 b4b0 f9e8 g4e2 d5c3 b0b3 d7c7 \
            g2f4 e6e5 d0e1 c3e2 c0e2 c7c2 c4a4 e5f5 b3c3 a6a5 a4e4 c2a2 c3c2 f5f4 c2a2 f4f3 e4b4 f3e3 \
            b4b9 e7c9 a2c2 g9e7 c2c6 e3i3 b9a9 i3e3 c6i6 e3e2 i6i9 e8f9 i9i5 e2b2 e1d0 f9e8 i5a5 b2e2 \
            f0e1 e2a2 a3a4 e8d7 a9a6 d9e8 a6e6 a2e2 a5a6 e9f9 a4a5 e2i2 e6f6 f9e9 a6d6
            """.split(separator: " ").compactMap { Move(iccs: String($0)) }
        var game = Game()
        for move in moves { try game.play(move) }
        #expect(game.moves.count == 87)
        #expect(game.position.fen == "2b1k4/4a4/3ab4/3R1C3/P8/9/9/8r/4A4/3AK4 b - - 16 44")
        let engine = Engine(hashMegabytes: 4)
        engine.setNetwork(NetworkFile.builtIn)
        engine.newGame()
        while game.status().result == nil && game.moves.count < 400 {
            let searched = engine.search(SearchLimits(nodes: 1000), game: game, fullStrength: true)
            #expect(searched.depth >= 1)
            let move = try #require(searched.bestMove)
            try game.play(move)
        }
        #expect(game.moves.count > 87)
    }
}

/// Recorded games scored by the search: the game's result on every kept position.
@Suite struct ReplayTests {
    @Test func recordedGamesGiveQuietPositionsWithTheirResult() throws {
        var settings = DataGeneration()
        settings.nodes = 150
        let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5", "h0h6", "b9c7", "b2d2", "a9b9", "b0c2", "b7a7",
                     "e3e4", "h7h8", "d2d1", "h8e8", "h6g6", "c6c5", "g2e3", "h9h7"].map { Move(iccs: $0)! }
        let engine = Engine(hashMegabytes: 2)
        let outcome = try #require(settings.replay(moves, result: .blackWins, skipPlies: 6, engine: engine))
        #expect(!outcome.records.isEmpty && outcome.records.count <= moves.count - 6)
        for record in outcome.records {
            #expect(record.redResult == -1 && record.ply >= 6)
            #expect(!(try Position(fen: record.fen)).isInCheck)
        }
        // The same game gives the same records; an illegal move gives none.
        #expect(settings.replay(moves, result: .blackWins, skipPlies: 6, engine: engine)?.records == outcome.records)
        #expect(settings.replay(moves + [Move(iccs: "a0a9")!], result: .draw, skipPlies: 6, engine: engine) == nil)
    }
}

/// Outcomes collected from the generator's worker threads.
private final class OutcomeBox: @unchecked Sendable {
    // `lock` guards `storage`.
    private let lock = Lock()
    private var storage: [Int: DataGeneration.Outcome?] = [:]
    func add(_ index: Int, _ outcome: DataGeneration.Outcome?) { lock.withLock { storage[index] = .some(outcome) } }
    var outcomes: [Int: DataGeneration.Outcome?] { lock.withLock { storage } }
}

/// The trainer learns, and its quantized network evaluates as its floating-point model does.
@Suite struct NetworkTrainerTests {
    /// Positions from random playouts scored by the handcrafted evaluation: a target the
    /// network can learn (material and placement). A playout gives a position every
    /// `every` plies, as a game of datagen does (in growing plies).
    static func records(count: Int, seed: UInt64, every: Int = 3) -> [TrainingRecord] {
        var random = SeededGenerator(seed: seed)
        let evaluator = Evaluator()
        var records: [TrainingRecord] = []
        while records.count < count {
            var position = Position.start
            for ply in 0..<100 {
                guard let move = position.legalMoves.randomElement(using: &random) else { break }
                _ = position.make(move)
                if !position.isInCheck && ply % every == every - 1 {
                    records.append(TrainingRecord(position: position, score: evaluator.evaluate(position), redResult: 0, ply: ply))
                }
            }
        }
        return records
    }

    @Test func trainingLowersTheLossAndQuantizationKeepsTheModel() throws {
        var settings = NetworkTrainer.Settings()
        settings.hidden = 32
        settings.buckets = 6
        settings.epochs = 6
        settings.batchSize = 128
        settings.learningRate = 0.01
        settings.scoreWeight = 1
        settings.validationShare = 0.1
        settings.threads = 2
        // Held out by games, so that learning shows in the validation loss only when it
        // carries over to other games: few positions per playout, many playouts.
        let data = Self.records(count: 3000, seed: 21, every: 30)
        let trainer = NetworkTrainer(settings: settings, records: data)
        let before = trainer.validationLoss()
        var reports: [NetworkTrainer.EpochReport] = []
        let network = trainer.train { reports.append($0) }
        #expect(reports.count == 6)
        #expect(reports.map(\.validationLoss).min()! < before * 0.7, "\(before) -> \(reports.map(\.validationLoss))")
        #expect(reports.last!.trainingLoss < reports.first!.trainingLoss)
        // The network is the epoch with the lowest validation loss, and the model is left there.
        let lowest = reports.map(\.validationLoss).min()!
        #expect(reports[trainer.bestEpoch - 1].validationLoss == lowest)
        #expect(abs(trainer.validationLoss() - lowest) < 1e-9)
        // The quantized network follows the float model within a few centipawns (the
        // first layer's rounding to 1/255 is most of the difference).
        var worst = 0.0, total = 0.0
        let sample = Self.records(count: 200, seed: 77)
        for record in sample {
            let position = try Position(fen: record.fen)
            let error = abs(Double(network.evaluate(position)) - trainer.prediction(for: record))
            worst = max(worst, error)
            total += error
        }
        #expect(total / Double(sample.count) < 2 && worst < 10, "quantization error: mean \(total / Double(sample.count)), largest \(worst) cp")
        // Its file reads back as the same network.
        let read = try NetworkFile.network(from: NetworkFile.bytes(of: network))
        #expect(read.contentHash == network.contentHash)
    }

    /// Validation holds out whole games (a game's positions share its result and resemble
    /// each other), or exactly the validation records when they are given.
    @Test func validationHoldsOutWholeGames() {
        var settings = NetworkTrainer.Settings()
        settings.hidden = 16
        settings.validationShare = 0.2
        let data = Self.records(count: 2000, seed: 9)
        // A playout's plies grow; the next playout starts again at a lower ply.
        var game = [Int](repeating: 0, count: data.count)
        for i in data.indices.dropFirst() { game[i] = game[i - 1] + (data[i].ply <= data[i - 1].ply ? 1 : 0) }
        let trainer = NetworkTrainer(settings: settings, records: data)
        let heldOut = Set(trainer.validationRecordIndices)
        #expect(trainer.validationCount == heldOut.count && trainer.trainingCount + trainer.validationCount == data.count)
        #expect(Double(heldOut.count) >= 0.2 * Double(data.count) && Double(heldOut.count) < 0.3 * Double(data.count))
        let heldOutGames = Set(heldOut.map { game[$0] })
        for i in data.indices { #expect(heldOut.contains(i) == heldOutGames.contains(game[i]), "record \(i) of game \(game[i])") }

        let validation = Self.records(count: 300, seed: 10)
        let separate = NetworkTrainer(settings: settings, records: data, validationRecords: validation)
        #expect(separate.trainingCount == data.count && separate.validationRecordIndices == Array(validation.indices))
        // Its validation loss is the handcrafted evaluation's loss on those records through
        // validationLoss(centipawns:), which is zero on the targets' own scores.
        var exact = settings
        exact.scoreWeight = 1
        let scored = NetworkTrainer(settings: exact, records: data, validationRecords: validation)
        #expect(scored.validationLoss { Double(validation[$0].score) } < 1e-12)
        #expect(scored.validationLoss { _ in 0 } > 0.001)
    }

    /// With 8 output buckets chosen by material and a target that blends score and result,
    /// the trainer still fits: the loss falls, the file (format 2) reads back as the same
    /// network, and the quantized network's evaluation follows the float model's forward pass
    /// on the same positions, in every bucket the data reach.
    @Test func outputBucketsAndResultBlendingFit() throws {
        var settings = NetworkTrainer.Settings()
        settings.hidden = 32
        settings.buckets = 6
        settings.outputBuckets = Network.materialBuckets
        settings.epochs = 5
        settings.batchSize = 128
        settings.learningRate = 0.01
        settings.scoreWeight = 0.7
        settings.validationShare = 0.1
        settings.threads = 2
        // The result: the side the handcrafted evaluation favours by a pawn won, else a draw.
        let data = Self.records(count: 3000, seed: 23, every: 30).map { record in
            var r = record
            let redScore = r.sideToMove == .red ? r.score : -r.score
            r.redResult = redScore > 100 ? 1 : redScore < -100 ? -1 : 0
            return r
        }
        let bucketsSeen = Set(data.map { Network.materialBucket(of: $0.board) })
        #expect(bucketsSeen.count >= 4, "\(bucketsSeen)")
        #expect(Set(data.map(\.redResult)) == [-1, 0, 1])
        let trainer = NetworkTrainer(settings: settings, records: data)
        let before = trainer.validationLoss()
        var reports: [NetworkTrainer.EpochReport] = []
        let network = trainer.train { reports.append($0) }
        #expect(network.outputBuckets == Network.materialBuckets)
        // Eight outputs on 2,700 positions fit the training games far better than other games:
        // the validation loss falls less than with one output.
        #expect(reports.map(\.validationLoss).min()! < before * 0.9, "\(before) -> \(reports.map(\.validationLoss))")
        #expect(reports.last!.trainingLoss < reports.first!.trainingLoss * 0.5, "\(reports.map(\.trainingLoss))")

        let bytes = NetworkFile.bytes(of: network)
        #expect(bytes[4] == 2 && bytes.count > NetworkFile.headerSizeWithOutputBuckets)
        let read = try NetworkFile.network(from: bytes)
        #expect(read.contentHash == network.contentHash && read.outputBuckets == Network.materialBuckets)
        #expect(NetworkFile.bytes(of: read) == bytes)

        var worst = 0.0, total = 0.0, perBucket: [Int: Int] = [:]
        let sample = Self.records(count: 300, seed: 78, every: 7)
        for record in sample {
            let position = try Position(fen: record.fen)
            let bucket = Network.materialBucket(of: position)
            #expect(bucket == Network.materialBucket(of: record.board))
            perBucket[bucket, default: 0] += 1
            let error = abs(Double(read.evaluate(position)) - trainer.prediction(for: record))
            worst = max(worst, error)
            total += error
        }
        #expect(perBucket.count >= 3, "\(perBucket)")
        // The result's share makes the targets steeper and the weights larger than in the test
        // above, and the rounding of the first layer to 1/255 costs a little more.
        #expect(total / Double(sample.count) < 3 && worst < 12, "quantization error: mean \(total / Double(sample.count)), largest \(worst) cp")
    }

    @Test func trainingIsReproducibleForASeed() {
        var settings = NetworkTrainer.Settings()
        settings.hidden = 16
        settings.buckets = 1
        settings.epochs = 2
        settings.batchSize = 64
        settings.threads = 2
        let data = Self.records(count: 500, seed: 5)
        let first = NetworkTrainer(settings: settings, records: data).train()
        let second = NetworkTrainer(settings: settings, records: data).train()
        #expect(first.contentHash == second.contentHash)
        settings.seed = 2
        #expect(NetworkTrainer(settings: settings, records: data).train().contentHash != first.contentHash)
    }

    /// Records kept as bytes read back as they were; a file's unreadable records are skipped
    /// and counted, and its trailing part-record is left.
    @Test func packedRecordsKeepTheReadableOnes() throws {
        let records = Array(Self.records(count: 50, seed: 3).prefix(50))
        var file = records.prefix(20).flatMap(\.bytes)
        var unreadable = records[20].bytes
        unreadable[30] = 7  // result 7
        file += unreadable
        file += records.suffix(from: 21).flatMap(\.bytes)
        file += [1, 2, 3]
        var packed = TrainingRecords()
        #expect(packed.append(readableRecordsOf: file) == 1)
        let expected = Array(records.prefix(20)) + Array(records.suffix(from: 21))
        #expect(packed.count == 49 && Array(packed) == expected)
        #expect(TrainingRecords(expected).elementsEqual(packed))
        #expect(packed.append(readableRecordsOf: [UInt8](repeating: 0, count: 31)) == 0 && packed.count == 49)
    }

    /// The trainer keeps each position's features in its own compact form; the loss it
    /// measures on them is the loss of the model's prediction from the decoded board (the
    /// path the quantized network's features take), so both read the same features. A record
    /// with a king missing is not a position and is left out.
    @Test func theTrainersFeaturesAreTheBoardsFeatures() {
        var settings = NetworkTrainer.Settings()
        settings.hidden = 32
        settings.outputBuckets = Network.materialBuckets
        settings.epochs = 1
        settings.batchSize = 64
        settings.scoreWeight = 1
        settings.threads = 3
        let data = Self.records(count: 1500, seed: 31, every: 5)
        var validation = Self.records(count: 400, seed: 32, every: 4)
        var kingless = validation[7]
        kingless.board[kingless.board.firstIndex(of: Piece(.black, .king))!] = .none
        validation.insert(kingless, at: 8)
        let trainer = NetworkTrainer(settings: settings, records: data, validationRecords: validation)
        #expect(trainer.trainingCount == data.count && trainer.validationCount == validation.count - 1)
        #expect(trainer.validationRecordIndices == Array(0..<8) + Array(9..<validation.count))
        _ = trainer.train()
        var sum = 0.0
        for index in trainer.validationRecordIndices {
            let record = validation[index]
            let p = 1 / (1 + exp(-trainer.prediction(for: record) / Double(settings.sigmoidScale)))
            let target = 1 / (1 + exp(-Double(record.score) / Double(settings.sigmoidScale)))
            sum += (p - target) * (p - target)
        }
        let fromBoards = sum / Double(trainer.validationCount), stored = trainer.validationLoss()
        #expect(stored > 0.0001 && abs(fromBoards - stored) < 1e-6 * stored, "\(fromBoards) against \(stored)")
    }
}
