import Testing
import XiangqiCore
@testable import XiangqiEngine
@testable import XiangqiSearch

@Suite struct ExchangeTests {
    /// The threshold test agrees with the full exchange evaluation on every move of random
    /// playout positions (captures and quiet moves), at thresholds around each value.
    @Test func thresholdTestAgreesWithFullExchange() {
        var random = SeededGenerator(seed: 2026)
        var checked = 0
        var mismatches: [String] = []
        let starts = [Position.start] + benchPositions.compactMap { try? Position(fen: $0) }
        for game in 0..<120 {
            var position = starts[game % starts.count]
            for _ in 0..<80 {
                let moves = position.legalMoves
                guard !moves.isEmpty else { break }
                for move in moves {
                    let value = position.staticExchange(move)
                    for threshold in [value - 1, value, value + 1, 0, -100, -400, 200] {
                        checked += 1
                        if position.exchangeAtLeast(move, threshold) != (value >= threshold), mismatches.count < 5 {
                            mismatches.append("\(position.fen) \(move.iccs) see \(value) threshold \(threshold)")
                        }
                    }
                }
                _ = position.make(moves[Int(random.next() % UInt64(moves.count))])
            }
        }
        #expect(checked > 100_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
