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

    /// Captures scored good on trust and settled by exchange when picked come out in the order
    /// (and with the scores) that settling every capture first gives, ties included: quiet
    /// moves here share a few scores, so any move that changed places would show.
    @Test func capturesSettledWhenPickedKeepTheOrder() {
        var random = SeededGenerator(seed: 55)
        var sequences = 0, demoted = 0
        let starts = [Position.start] + benchPositions.compactMap { try? Position(fen: $0) }
        for game in 0..<40 {
            var position = starts[game % starts.count]
            for _ in 0..<60 {
                var eager = ScoredMoves(), lazy = ScoredMoves()
                position.generatePseudoLegal(.all, into: &eager.moves)
                position.generatePseudoLegal(.all, into: &lazy.moves)
                for i in 0..<eager.moves.count {
                    let move = eager.moves.move(at: i)
                    let victim = position.piece(at: move.to), mover = position.piece(at: move.from)
                    if victim.isNone {
                        let score = Int32(random.next() % 3) * 1000
                        eager.setScore(score, at: i)
                        lazy.setScore(score, at: i)
                    } else {
                        let mvvLva = Int32(ExchangeValue.of(victim.kind) * 16 - Int(mover.kind.rawValue))
                        let good = position.exchangeAtLeast(move, 0)
                        if !good { demoted += 1 }
                        eager.setScore((good ? Searcher.goodCaptureBase : Searcher.badCaptureBase) + mvvLva, at: i)
                        lazy.setScore(Searcher.goodCaptureBase + mvvLva, at: i)
                    }
                }
                var eagerOrder: [String] = [], lazyOrder: [String] = []
                while let move = eager.pick(in: position) { eagerOrder.append("\(move.iccs) \(eager.pickedScore)") }
                while let move = lazy.pick(in: position) { lazyOrder.append("\(move.iccs) \(lazy.pickedScore)") }
                #expect(lazyOrder == eagerOrder, "\(position.fen)")
                sequences += 1
                let legal = position.legalMoves
                guard !legal.isEmpty else { break }
                _ = position.make(legal[Int(random.next() % UInt64(legal.count))])
            }
        }
        // The positions had losing captures to settle.
        #expect(sequences > 1000 && demoted > 500)
    }
}
