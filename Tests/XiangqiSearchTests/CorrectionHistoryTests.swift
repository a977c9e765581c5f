import Testing
import XiangqiCore
@testable import XiangqiSearch

@Suite struct CorrectionHistoryTests {
    static let middlegame = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR w - - 0 1"

    /// A search records what it found the evaluation off by, within the entries' bound, and
    /// a new game forgets it: the search after `clear()` is the one a fresh heap makes.
    @Test func searchesLearnCorrectionsAndANewGameForgetsThem() throws {
        let position = try Position(fen: Self.middlegame)
        let table = TranspositionTable(megabytes: 4)
        defer { withExtendedLifetime(table) {} }
        func search(_ heap: SearchHeap) -> (UInt64, Move?) {
            table.clear()
            var searcher = Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: 8),
                                    table: table, heap: heap, evaluator: Evaluator(), signals: SearchSignals())
            let result = searcher.run { _ in }
            return (searcher.nodes, result.bestMove)
        }
        let heap = SearchHeap()
        let fresh = search(heap)
        let entries = UnsafeBufferPointer(start: heap.correctionHistory, count: SearchHeap.correctionCount)
        #expect(entries.contains { $0 != 0 })
        #expect(entries.allSatisfy { abs(Int($0)) <= Searcher.correctionLimit })
        // A second search of the same game starts from what the first learned.
        let learned = search(heap)
        #expect(learned.0 != fresh.0)
        heap.clear()
        #expect(entries.allSatisfy { $0 == 0 })
        let again = search(heap)
        #expect(again.0 == fresh.0)
        #expect(again.1 == fresh.1)
    }

    /// The static evaluation is corrected by both tables' entries (at most 64 centipawns in
    /// all), while the table keeps the uncorrected one.
    @Test func theTableKeepsTheUncorrectedEvaluation() throws {
        let position = try Position(fen: Self.middlegame)
        let table = TranspositionTable(megabytes: 1)
        defer { withExtendedLifetime(table) {} }
        let heap = SearchHeap()
        heap.correctionHistory.update(repeating: Int16(Searcher.correctionLimit), count: SearchHeap.correctionCount)
        var searcher = Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: 1),
                                table: table, heap: heap, evaluator: Evaluator(), signals: SearchSignals())
        let raw = searcher.staticEvaluation(0)
        #expect(searcher.corrected(raw, searcher.correctionSlots()) == raw + 64)
        #expect(searcher.corrected(Score.ruleWin, searcher.correctionSlots()) < Score.ruleWin - Score.maxPly)
        _ = searcher.search(-Score.infinite, Score.infinite, 1, 0, pvNode: true, cutNode: false)
        let entry = try #require(table.probe(position.key))
        #expect(entry.eval == raw)
    }
}
