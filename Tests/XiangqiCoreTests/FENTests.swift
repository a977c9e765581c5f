import Testing
import XiangqiCore
import XiangqiTestSupport

@Suite struct FENTests {
    static let start = Position.startFEN

    @Test(arguments: [
        ("", FENError.empty),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", .wrongRankCount(9)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", .wrongRankCount(11)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", .wrongRankLength(rank: 0, length: 8)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", .wrongRankLength(rank: 0, length: 10)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w", .wrongRankLength(rank: 1, length: 8)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w", .unknownPieceLetter("X")),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/0/P1P1P1P1P/1C5C1/9/RNBAKABNR w", .unknownPieceLetter("0")),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", .invalidSideToMove("x")),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", .invalidCounter("x")),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", .missingKing(.red)),
        ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", .missingKing(.black)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKKBNR w", .tooManyPieces(.red, .king, count: 2)),
        ("rnbakkbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", .tooManyPieces(.black, .king, count: 2)),
        ("4k4/9/9/9/9/PPPPPP3/9/9/9/3K5 w", .tooManyPieces(.red, .soldier, count: 6)),
        ("3k5/9/9/9/9/9/9/9/9/RRR1K4 w", .tooManyPieces(.red, .chariot, count: 3)),
        ("3k5/9/9/9/9/9/9/9/9/CCC1K4 w", .tooManyPieces(.red, .cannon, count: 3)),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNK w", .kingOutsidePalace(Square(name: "i0")!)),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", .kingOutsidePalace(Square(name: "a0")!)),
        ("3k5/9/9/9/9/9/9/9/r8/r3K4 b - - 0 1", .sideNotToMoveInCheck),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", .sideNotToMoveInCheck),
        ("4k4/9/9/9/9/9/9/9/9/4K4 b", .sideNotToMoveInCheck),
    ])
    func badFENIsRejectedWithItsReason(_ fen: String, _ expected: FENError) {
        #expect(throws: expected) { try Position(fen: fen) }
    }

    /// Composed problems place pieces where no game brings them; every such position is
    /// read, round-trips, and its pieces move by the rules of where they stand (the
    /// reference generator agrees move for move).
    @Test(arguments: [
        // A soldier on its own back rank (Jiang Hu endgame collections): mate in 2 for Red.
        "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAAKBNR w - - 0 1",   // advisor on e0
        "5k3/9/9/9/9/9/9/9/9/3BK4 w - - 0 1",          // elephant on d0
        "5k3/9/9/9/9/B8/9/9/9/4K4 w - - 0 1",          // elephant on a4
        "5k3/9/9/9/9/9/9/4P4/9/3K5 w - - 0 1",         // red soldier on e2, behind its start
        "5k3/9/9/9/9/9/1P7/9/9/3K5 w - - 0 1",         // red soldier on b3, off its files
        "5k3/9/4p4/9/9/9/9/9/9/3K5 b - - 0 1",         // black soldier on e7
        "3k5/P8/9/9/9/9/9/9/9/4K4 w - - 0 1",          // red soldier on the last rank: sideways only
    ])
    func composedPositionsArePlayable(_ fen: String) throws {
        let position = try Position(fen: fen)
        #expect(position.fen == fen)
        #expect(Set(position.legalMoves.map(\.iccs)) == ReferenceBoard(position).legalMoves())
    }

    @Test func startRoundTrips() throws {
        #expect(try Position(fen: Self.start).fen == Self.start)
    }

    @Test func synonymsAreAccepted() throws {
        let wxfLetters = try Position(fen: "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
        #expect(wxfLetters.fen == Self.start)
        let redLetter = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1")
        #expect(redLetter.sideToMove == .red)
        #expect(redLetter.key == Position.start.key)
    }

    @Test func optionalFieldsMayBeMissing() throws {
        let boardOnly = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
        #expect(boardOnly.fen == Self.start)
        let merged = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b -- 7 12")
        #expect(merged.sideToMove == .black)
        #expect(merged.halfmoveClock == 7)
        #expect(merged.fullmoveNumber == 12)
    }

    @Test func blackToMoveChangesTheKey() throws {
        let black = try Position(fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        #expect(black.key == Position.start.key ^ Zobrist.sideKey)
    }

    @Test func errorsDescribeTheProblem() {
        #expect(FENError.wrongRankLength(rank: 3, length: 8).description == "rank 3 describes 8 files instead of 9")
        #expect(FENError.tooManyPieces(.red, .soldier, count: 6).description.contains("at most 5"))
    }
}
