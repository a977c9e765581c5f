import Testing
import XiangqiCore

/// One position per movement rule, each with the exact set of legal moves expected.
@Suite struct RulesTests {
    func moves(_ fen: String, from square: String) throws -> Set<String> {
        let p = try Position(fen: fen)
        return Set(p.legalMoves(from: Square(name: square)!).map(\.iccs))
    }

    @Test func horseIsBlockedByItsLeg() throws {
        // Red horse c4 with its own soldier on c5: the two forward jumps are blocked.
        let got = try moves("5k3/9/9/9/2P6/2N6/9/9/9/3K5 w", from: "c4")
        #expect(got == ["c4a5", "c4a3", "c4e5", "c4e3", "c4b2", "c4d2"])
    }

    @Test func elephantIsBlockedByItsEye() throws {
        // An enemy horse on d3 is the eye between e2 and c4.
        let got = try moves("5k3/9/9/9/9/9/3n5/4B4/9/3K5 w", from: "e2")
        #expect(got == ["e2c0", "e2g0", "e2g4"])
    }

    @Test func elephantNeverCrossesTheRiver() throws {
        let got = try moves("5k3/9/9/9/9/2B6/9/9/9/3K5 w", from: "c4")
        #expect(got == ["c4a2", "c4e2"])
    }

    @Test func kingAndAdvisorStayInThePalace() throws {
        let fen = "5k3/9/9/9/9/9/9/9/4A4/3K5 w"
        #expect(try moves(fen, from: "d0") == ["d0d1", "d0e0"])
        #expect(try moves(fen, from: "e1") == ["e1f0", "e1d2", "e1f2"])
    }

    @Test func cannonCapturesOnlyOverExactlyOneScreen() throws {
        // Red cannon b2; black horse b5 is the screen, black chariot b8 the target.
        let got = try moves("5k3/1r7/9/9/1n7/9/9/1C7/9/3K5 w", from: "b2")
        #expect(got == ["b2b3", "b2b4", "b2b8", "b2b1", "b2b0", "b2a2", "b2c2", "b2d2",
                        "b2e2", "b2f2", "b2g2", "b2h2", "b2i2"])
    }

    @Test func soldierMovesSidewaysOnlyAfterCrossing() throws {
        let fen = "5k3/9/9/9/4P4/P8/9/9/9/3K5 w"
        #expect(try moves(fen, from: "a4") == ["a4a5"])
        #expect(try moves(fen, from: "e5") == ["e5e6", "e5d5", "e5f5"])
        // Black soldiers move down the board.
        let black = "5k3/9/9/9/9/8p/4p4/9/9/3K5 b"
        #expect(try moves(black, from: "i4") == ["i4i3", "i4h4"])
        #expect(try moves(black, from: "e3") == ["e3e2", "e3d3", "e3f3"])
    }

    @Test func kingsMayNotFaceEachOther() throws {
        // Red king e0 may not step to d0, the file of the black king.
        #expect(try moves("3k5/9/9/9/9/9/9/9/9/4K4 w", from: "e0") == ["e0e1", "e0f0"])
    }

    @Test func pieceBetweenTheKingsIsPinned() throws {
        // A lone piece between the two kings may not leave their file.
        #expect(try moves("4k4/9/9/9/4N4/9/9/9/9/4K4 w", from: "e5") == [])
        #expect(try moves("4k4/9/9/9/4P4/9/9/9/9/4K4 w", from: "e5") == ["e5e6"])
        // With a second piece (black advisor e8) on the file, the chariot is free.
        #expect(try moves("4k4/4a4/9/9/4R4/9/9/9/9/4K4 w", from: "e5").count == 15)
    }

    @Test func cannonScreenIsPinned() throws {
        // Black cannon e7 aims at red king e0 over two screens (horse e2, soldier e3): the
        // horse may not leave the file, the soldier may advance along it.
        let fen = "5k3/9/4c4/9/9/9/4P4/4N4/9/4K4 w"
        #expect(try moves(fen, from: "e2") == [])
        #expect(try moves(fen, from: "e3") == ["e3e4"])
    }

    @Test func movingBetweenKingAndCannonMakesAScreen() throws {
        // Black cannon e5 and red king e0 with nothing between: no check, but a red piece
        // landing on e1-e4 would become the screen.
        let fen = "5k3/9/9/9/4c4/9/R8/9/9/4K4 w"
        let chariot = try moves(fen, from: "a3")
        #expect(!chariot.contains("a3e3"))
        #expect(chariot.contains("a3d3") && chariot.contains("a3f3"))
    }

    @Test func horseLegBlockerIsPinned() throws {
        // Black horse g2 would check red king e1 through its leg f2... with the red
        // advisor on f2 blocking it, the advisor may not move.
        let fen = "5k3/9/9/9/9/9/9/5An2/4K4/9 w"
        #expect(try moves(fen, from: "f2") == [])
    }

    @Test func checkmateIsALoss() throws {
        let p = try Position(fen: "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1")
        #expect(p.isInCheck)
        #expect(p.legalMoves.isEmpty)
        #expect(p.isCheckmate)
        #expect(!p.isStalemate)
    }

    @Test func stalemateIsALossToo() throws {
        // Red king d0 is not attacked, but d1 and e0 both are.
        let p = try Position(fen: "5k3/4r4/9/9/9/9/9/9/8r/3K5 w - - 0 1")
        #expect(!p.isInCheck)
        #expect(p.legalMoves.isEmpty)
        #expect(p.isStalemate)
        #expect(!p.isCheckmate)
    }

    @Test func checkersAreReported() throws {
        // Double check: chariot on the file, horse through a free leg.
        let p = try Position(fen: "3k5/9/9/9/9/4r4/9/3n5/9/4K4 w")
        #expect(p.checkers == Bitboard(squares: [Square(name: "e4")!, Square(name: "d2")!]))
        #expect(p.attackers(to: Square(name: "e0")!, by: .black) == p.checkers)
    }

    @Test func mateInOneExists() throws {
        // From the protocol reference: a0d0 mates (the black king cannot step to e9).
        var p = try Position(fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
        let move = Move(iccs: "a0d0")!
        #expect(p.isLegal(move))
        _ = p.make(move)
        #expect(p.isCheckmate)
    }
}
