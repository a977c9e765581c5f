import Testing
import XiangqiCore
@testable import XiangqiSearch

/// The correction history: entries learn the evaluation's error where searches found it, in
/// the right direction, for the right positions, and never leave their bound.
@Suite struct CorrectionHistoryTests {
    /// Runs `body` with zeroed tables (with `pieces`, the tables of each side's other pieces too).
    func withTables(pieces: Bool = false, _ body: (CorrectionHistory) throws -> Void) rethrows {
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: CorrectionHistory.count)
        table.initialize(repeating: 0, count: CorrectionHistory.count)
        defer { table.deallocate() }
        try body(CorrectionHistory(table, pieces: pieces))
    }

    @Test func pieceTablesTellPlacementsApartAndStayBounded() throws {
        let position = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        // The same soldiers and material, Red's cannon elsewhere: only Red's piece entry differs.
        let redMoved = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1")
        // Black's horse elsewhere: only Black's piece entry differs.
        let blackMoved = try Position(fen: "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        withTables(pieces: true) { history in
            #expect(history.entries(of: position).soldiers == history.entries(of: redMoved).soldiers)
            #expect(history.entries(of: position).material == history.entries(of: redMoved).material)
            #expect(history.pieceEntries(of: position).red != history.pieceEntries(of: redMoved).red)
            #expect(history.pieceEntries(of: position).black == history.pieceEntries(of: redMoved).black)
            #expect(history.pieceEntries(of: position).red == history.pieceEntries(of: blackMoved).red)
            #expect(history.pieceEntries(of: position).black != history.pieceEntries(of: blackMoved).black)
            // Searches find 80 cp more: all four entries rise, the correction toward +80.
            for _ in 0..<300 {
                history.update(for: position, searched: 180, evaluation: history.corrected(100, for: position), depth: 8)
            }
            let (red, black) = history.pieceEntries(of: position)
            #expect(red.pointee > 0 && black.pointee > 0)
            #expect((75...80).contains(history.correction(for: position)))
            // The position whose Red cannon stands elsewhere shares three of the four entries.
            let shared = history.correction(for: redMoved)
            #expect(shared > 50 && shared < history.correction(for: position))
            // Without the piece tables the same memory gives the mean of soldiers and material.
            let plain = CorrectionHistory(history.table)
            #expect((75...80).contains(plain.correction(for: position)))
            var random = SeededGenerator(seed: 5)
            for _ in 0..<3000 {
                history.update(for: position, searched: Int.random(in: -30_000...30_000, using: &random),
                               evaluation: Int.random(in: -3000...3000, using: &random), depth: Int.random(in: 1...60, using: &random))
                let (red, black) = history.pieceEntries(of: position)
                #expect(abs(Int(red.pointee)) <= CorrectionHistory.limit && abs(Int(black.pointee)) <= CorrectionHistory.limit)
            }
        }
    }

    @Test func anEntryMovesTowardWhatSearchesFound() throws {
        let position = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        withTables { history in
            #expect(history.correction(for: position) == 0)
            // Searches keep finding 60 cp more than the evaluation said: the correction rises
            // toward +60 and does not pass it.
            var previous = 0
            for _ in 0..<200 {
                let evaluation = history.corrected(100, for: position)
                history.update(for: position, searched: 160, evaluation: evaluation, depth: 8)
                let now = history.correction(for: position)
                #expect(now >= previous && now <= 60)
                previous = now
            }
            #expect(previous >= 55)
            #expect(history.corrected(100, for: position) == 100 + previous)
            // Then it learns the other way.
            for _ in 0..<200 {
                history.update(for: position, searched: 40, evaluation: history.corrected(100, for: position), depth: 8)
            }
            #expect((-60 ... -55).contains(history.correction(for: position)))
        }
    }

    @Test func entriesBelongToTheSideToMoveAndTheStructure() throws {
        let red = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        let black = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
        // Another soldier structure and other material (a chariot less).
        let other = try Position(fen: "rnbakabn1/9/1c5c1/p1p1p3p/6p2/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
        withTables { history in
            for _ in 0..<50 { history.update(for: red, searched: 300, evaluation: history.corrected(0, for: red), depth: 10) }
            #expect(history.correction(for: red) > 100)
            #expect(history.correction(for: black) == 0)
            #expect(history.correction(for: other) == 0)
            // A deeper search moves an entry further in one step.
            let shallow = history.entries(of: black).soldiers.pointee
            history.update(for: black, searched: 50, evaluation: 0, depth: 2)
            let afterShallow = history.entries(of: black).soldiers.pointee
            history.update(for: other, searched: 50, evaluation: 0, depth: 16)
            #expect(afterShallow - shallow == 50 * CorrectionHistory.grain * 2 / CorrectionHistory.rateDivisor)
            #expect(history.entries(of: other).soldiers.pointee == 50 * CorrectionHistory.grain * 16 / CorrectionHistory.rateDivisor)
            #expect(afterShallow - shallow > 0)
        }
    }

    @Test func entriesStayWithinTheirLimitAndCorrectedScoresBelowRuleWins() throws {
        let position = try Position(fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
        withTables { history in
            var random = SeededGenerator(seed: 12)
            for _ in 0..<5000 {
                let searched = Int.random(in: -30_000...30_000, using: &random)
                let evaluation = Int.random(in: -3000...3000, using: &random)
                history.update(for: position, searched: searched, evaluation: evaluation, depth: Int.random(in: 1...60, using: &random))
                let (soldiers, material) = history.entries(of: position)
                #expect(abs(Int(soldiers.pointee)) <= CorrectionHistory.limit && abs(Int(material.pointee)) <= CorrectionHistory.limit)
            }
            for _ in 0..<100 { history.update(for: position, searched: 30_000, evaluation: -30_000, depth: 60) }
            #expect(history.correction(for: position) <= CorrectionHistory.limit / CorrectionHistory.grain)
            #expect(history.corrected(Score.ruleWin, for: position) < Score.ruleWin - Score.maxPly)
            #expect(history.corrected(-Score.ruleWin, for: position) > -(Score.ruleWin - Score.maxPly))
        }
    }

    /// With the option on, a search still finds a mate at its distance and gives legal moves;
    /// off, nothing changes (the bench signature is the default's).
    @Test func searchesWithCorrectionsKeepTheirInvariants() throws {
        var options = SearchOptions()
        options.correctionHistory = true
        let mate = try searchWith(options, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", depth: 5)
        #expect(mate.score == Score.mate - 1 && mate.bestMove == Move(iccs: "a0d0"))
        let start = try searchWith(options, Position.startFEN, depth: 8)
        #expect(start.bestMove.map { Position.start.isLegal($0) } == true)
        // The piece tables change the search (they are not dead code) and keep its invariants.
        options.correctionPieces = true
        let pieceMate = try searchWith(options, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", depth: 5)
        #expect(pieceMate.score == Score.mate - 1 && pieceMate.bestMove == Move(iccs: "a0d0"))
        let pieceStart = try searchWith(options, Position.startFEN, depth: 8)
        #expect(pieceStart.bestMove.map { Position.start.isLegal($0) } == true)
        #expect(pieceStart.nodes != start.nodes)
    }

    private func searchWith(_ options: SearchOptions, _ fen: String, depth: Int) throws -> SearchResult {
        let position = try Position(fen: fen)
        let heap = SearchHeap(), table = TranspositionTable(megabytes: 1)
        var searcher = Searcher(position: position, history: [], rootMoves: [], limits: SearchLimits(depth: depth),
                                options: options, table: table, heap: heap,
                                evaluator: Evaluator(), signals: SearchSignals())
        // The searcher reads the table through a view: the table lives until it is done.
        return withExtendedLifetime(table) { searcher.run { _ in } }
    }
}
