import Testing
import XiangqiCore
@testable import XiangqiSearch

@Suite struct SingularExtensionTests {
    /// A search that leaves a move out (as the singular-extension test does) never returns
    /// it, and stores nothing for the node, so the table keeps the real best move.
    @Test func theExcludedMoveIsNeverReturnedNorStored() throws {
        let position = try Position(fen: "4k4/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1")
        let best = try #require(Move(iccs: "a5e5"))
        let table = TranspositionTable(megabytes: 2)
        defer { withExtendedLifetime(table) {} }
        let heap = SearchHeap()
        func searcher() -> Searcher {
            Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: 8),
                     table: table, heap: heap, evaluator: Evaluator(), signals: SearchSignals())
        }
        var normal = searcher()
        let result = normal.run { _ in }
        #expect(result.bestMove == best)
        let stored = try #require(table.probe(position.key))
        #expect(stored.move == best)

        for depth in [1, 4, 8] {
            var excluding = searcher()
            heap.excludedMoves[0] = best
            let score = excluding.search(-Score.infinite, Score.infinite, depth, 0, pvNode: true, cutNode: false)
            heap.excludedMoves[0] = .none
            #expect(heap.pvLength[0] > 0)
            #expect(heap.pv[0] != best)
            #expect(score < result.score)
            // The root entry is the one the full search stored.
            #expect(table.probe(position.key) == stored)
        }
    }

    /// A position whose only legal move is excluded is not scored as lost: the others just
    /// fail low.
    @Test func excludingTheOnlyMoveIsNotAMate() throws {
        // Black's king can only step down: the chariot holds file c, the red king file e.
        let position = try Position(fen: "3k5/9/9/9/9/9/9/9/9/2R1K4 b - - 0 1")
        let moves = position.legalMoves
        try #require(moves.count == 1)
        let heap = SearchHeap()
        // The searcher borrows the table's memory: the table must outlive it.
        let table = TranspositionTable(megabytes: 1)
        withExtendedLifetime(table) {
            var excluding = Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: 3),
                                     table: table, heap: heap, evaluator: Evaluator(), signals: SearchSignals())
            heap.excludedMoves[0] = moves[0]
            let score = excluding.search(-100, -99, 3, 0, pvNode: false, cutNode: true)
            heap.excludedMoves[0] = .none
            #expect(score == -100)
        }
    }
}
