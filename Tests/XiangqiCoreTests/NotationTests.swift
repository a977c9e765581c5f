import Testing
import XiangqiCore

@Suite struct NotationTests {
    func check(_ fen: String, _ iccs: String, wxf: String, chinese: String) throws {
        let p = try Position(fen: fen)
        let move = try #require(Move(iccs: iccs))
        #expect(p.isLegal(move))
        #expect(p.wxf(move) == wxf)
        #expect(p.chinese(move) == chinese)
        #expect(p.parseMove(wxf) == move)
        #expect(p.parseMove(chinese) == move)
        #expect(p.parseMove(iccs) == move)
    }

    @Test func openingMoves() throws {
        let start = Position.startFEN
        try check(start, "h2e2", wxf: "C2=5", chinese: "炮二平五")
        try check(start, "b0c2", wxf: "H8+7", chinese: "马八进七")
        try check(start, "a0a1", wxf: "R9+1", chinese: "车九进一")
        try check(start, "f0e1", wxf: "A4+5", chinese: "仕四进五")
        try check(start, "c0e2", wxf: "E7+5", chinese: "相七进五")
        try check(start, "g3g4", wxf: "P3+1", chinese: "兵三进一")
        try check(start, "e0e1", wxf: "K5+1", chinese: "帅五进一")
        let afterCentralCannon = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"
        try check(afterCentralCannon, "h9g7", wxf: "H8+7", chinese: "马８进７")
        try check(afterCentralCannon, "h7e7", wxf: "C8=5", chinese: "炮８平５")
        try check(afterCentralCannon, "b7e7", wxf: "C2=5", chinese: "炮２平５")
        try check(afterCentralCannon, "g6g5", wxf: "P7+1", chinese: "卒７进１")
        try check(afterCentralCannon, "c6c5", wxf: "P3+1", chinese: "卒３进１")
    }

    @Test func tandemPiecesAreFrontAndRear() throws {
        // Red chariots a3 (front) and a0 (rear).
        let fen = "5k3/9/9/9/9/9/R8/9/9/R2K5 w"
        try check(fen, "a3b3", wxf: "R+=8", chinese: "前车平八")
        try check(fen, "a0a1", wxf: "R-+1", chinese: "后车进一")
        // Black chariots: the front one is the lower rank.
        let black = "r4k3/9/9/9/r8/9/9/9/9/3K5 b"
        try check(black, "a5a4", wxf: "R++1", chinese: "前车进１")
        try check(black, "a9b9", wxf: "R-=2", chinese: "后车平２")
    }

    @Test func threeSoldiersOnAFile() throws {
        let fen = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w"
        try check(fen, "c7c8", wxf: "P++1", chinese: "前兵进一")
        try check(fen, "c6d6", wxf: "P7=6", chinese: "中兵平六")
        try check(fen, "c5b5", wxf: "P-=8", chinese: "后兵平八")
    }

    @Test func fourSoldiersAreCounted() throws {
        let fen = "5k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w"
        try check(fen, "c8b8", wxf: "++=8", chinese: "一兵平八")
        try check(fen, "c7b7", wxf: "P+=8", chinese: "二兵平八")
        try check(fen, "c6b6", wxf: "P-=8", chinese: "三兵平八")
        try check(fen, "c5b5", wxf: "--=8", chinese: "四兵平八")
    }

    @Test func variantsAreRead() throws {
        let p = Position.start
        let move = Move(iccs: "h2e2")!
        for text in ["C2.5", "c2=5", "C25", "砲二平五", "炮2平5", "H2-E2", " h2e2 "] {
            #expect(p.parseMove(text) == move, "\(text)")
        }
        #expect(p.parseMove("H8+7") == Move(iccs: "b0c2"))
        #expect(p.parseMove("N8+7") == Move(iccs: "b0c2"))
        #expect(p.parseMove("傌八進七") == Move(iccs: "b0c2"))
    }

    @Test func badTextIsRejected() {
        let p = Position.start
        for text in ["", "h2h8", "C2=4x", "马八进六", "R1+5", "zzzz", "e0e2", "炮", "0000"] {
            #expect(p.parseMove(text) == nil, "\(text)")
        }
    }

    @Test func everyLegalMoveRoundTrips() {
        for p in InvariantTests.positions.prefix(600) {
            for move in p.legalMoves {
                #expect(p.parseMove(p.wxf(move)) == move, "\(p.wxf(move)) in \(p.fen)")
                #expect(p.parseMove(p.chinese(move)) == move, "\(p.chinese(move)) in \(p.fen)")
            }
        }
    }
}
