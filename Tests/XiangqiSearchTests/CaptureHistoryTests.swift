import Testing
import XiangqiCore
@testable import XiangqiSearch

/// The capture history: an entry rises for captures that cut off and falls for those tried
/// before the move that did, per piece, square and victim, and never leaves its bound.
@Suite struct CaptureHistoryTests {
    /// Runs `body` with a zeroed table.
    func withTable(_ body: (CaptureHistory) throws -> Void) rethrows {
        let table = UnsafeMutablePointer<Int16>.allocate(capacity: CaptureHistory.count)
        table.initialize(repeating: 0, count: CaptureHistory.count)
        defer { table.deallocate() }
        try body(CaptureHistory(table))
    }

    @Test func anEntryMovesWithCutOffsAndStaysBounded() throws {
        let chariot = Piece(.red, .chariot), to = try #require(Square(name: "a9"))
        withTable { history in
            #expect(history.value(chariot, to: to, captures: .horse) == 0)
            // Cut-offs at depth 8 raise the entry, by less each time as it nears the bound
            // (where the step rounds to nothing).
            var previous = 0, previousStep = Int.max
            for _ in 0..<400 {
                history.update(chariot, to: to, captures: .horse, by: CaptureHistory.bonus(depth: 8))
                let now = history.value(chariot, to: to, captures: .horse)
                #expect(now >= previous && now - previous <= previousStep && now <= CaptureHistory.limit)
                previousStep = now - previous
                previous = now
            }
            #expect(previous > CaptureHistory.limit * 9 / 10)
            // Only that entry moved: another victim, square or piece is untouched.
            #expect(history.value(chariot, to: to, captures: .cannon) == 0)
            #expect(history.value(Piece(.black, .chariot), to: to, captures: .horse) == 0)
            // Being tried before other cut-offs brings it down again, and below zero.
            for _ in 0..<400 { history.update(chariot, to: to, captures: .horse, by: -CaptureHistory.bonus(depth: 8)) }
            #expect(history.value(chariot, to: to, captures: .horse) < -CaptureHistory.limit * 9 / 10)
            // Whatever the bonuses, every entry stays within the bound.
            var random = SeededGenerator(seed: 3)
            for _ in 0..<5000 {
                let bonus = Int.random(in: -100_000...100_000, using: &random)
                history.update(chariot, to: to, captures: .soldier, by: bonus)
                #expect(abs(history.value(chariot, to: to, captures: .soldier)) <= CaptureHistory.limit)
            }
            #expect(CaptureHistory.bonus(depth: 1) == 16 && CaptureHistory.bonus(depth: 30) == 4000)
        }
    }

    /// With the option on, a search still finds a mate at its distance, gives legal moves,
    /// gives the same tree twice from cleared tables, and leaves entries within bounds.
    @Test func searchesWithCaptureHistoryKeepTheirInvariants() throws {
        var options = SearchOptions()
        options.captureHistory = true
        let mate = try search(options, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", depth: 5, heap: SearchHeap())
        #expect(mate.score == Score.mate - 1 && mate.bestMove == Move(iccs: "a0d0"))
        let fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1"
        let heap = SearchHeap()
        let first = try search(options, fen, depth: 9, heap: heap)
        #expect(first.bestMove.map { try! Position(fen: fen).isLegal($0) } == true)
        let entries = UnsafeBufferPointer(start: heap.captures, count: CaptureHistory.count)
        #expect(entries.contains { $0 != 0 })
        #expect(entries.allSatisfy { abs(Int($0)) <= CaptureHistory.limit })
        heap.clear()
        #expect(entries.allSatisfy { $0 == 0 })
        let again = try search(options, fen, depth: 9, heap: heap)
        #expect(again.nodes == first.nodes && again.bestMove == first.bestMove)
        // Off, the table is not touched.
        let off = SearchHeap()
        _ = try search(SearchOptions(), fen, depth: 9, heap: off)
        #expect(UnsafeBufferPointer(start: off.captures, count: CaptureHistory.count).allSatisfy { $0 == 0 })
    }

    private func search(_ options: SearchOptions, _ fen: String, depth: Int, heap: SearchHeap) throws -> SearchResult {
        let position = try Position(fen: fen)
        let table = TranspositionTable(megabytes: 1)
        var searcher = Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: depth),
                                options: options, table: table, heap: heap,
                                evaluator: Evaluator(), signals: SearchSignals())
        return withExtendedLifetime(table) { searcher.run { _ in } }
    }
}
