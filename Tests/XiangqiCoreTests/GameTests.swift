import Testing
import XiangqiCore

@Suite struct GameTests {
    @Test func resultsReadTheirTextAndFollowTheStatus() throws {
        #expect(GameResult(text: "1-0") == .redWins && GameResult(text: "0-1") == .blackWins)
        #expect(GameResult(text: "1/2-1/2") == .draw && GameResult(text: "½-½") == .draw)
        #expect(GameResult(text: "*") == nil && GameResult(text: "1-1") == nil)
        #expect(GameResult.draw.rawValue == "1/2-1/2")
        #expect(GameStatus.ongoing.result == nil)
        #expect(GameStatus.win(.black, .checkmate).result == .blackWins)
        #expect(GameStatus.draw(.moveLimit).result == .draw)
        // Checkmated: Black's chariot mates the red king.
        let mated = Game(try Position(fen: "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1"))
        #expect(mated.status().result == .blackWins)
    }

    @Test func repetitionIsCounted() throws {
        var game = Game()
        #expect(game.repetitionCount == 0)
        for _ in 0..<2 {
            for text in ["h0g2", "h9g7", "g2h0", "g7h9"] { try game.play(text) }
        }
        #expect(game.repetitionCount == 2)
        #expect(game.keys.count == 9)
        try game.play("h0g2")
        #expect(game.repetitionCount == 2)  // the position after h0g2 occurred twice before
    }

    @Test func captureResetsTheHistory() throws {
        var game = Game()
        for text in ["h2h9", "i9h9", "b2b9", "a9b9"] { try game.play(text) }
        // Every move captured: no earlier position can repeat.
        #expect(game.position.halfmoveClock == 0)
        #expect(game.repetitionCount == 0)
    }

    @Test func illegalMovesChangeNothing() throws {
        var game = Game()
        #expect(throws: MoveError.illegal(Move(iccs: "h2h8")!)) { try game.play(Move(iccs: "h2h8")!) }
        #expect(throws: MoveError.unreadable("xyz")) { try game.play("xyz") }
        #expect(game.moves.isEmpty)
        #expect(game.position.fen == Position.startFEN)
    }

    @Test func takeBackRestores() throws {
        var game = Game()
        try game.play("炮二平五")
        try game.play("马８进７")
        #expect(game.moves.map(\.iccs) == ["h2e2", "h9g7"])
        #expect(game.takeBack() == Move(iccs: "h9g7"))
        #expect(game.takeBack() == Move(iccs: "h2e2"))
        #expect(game.takeBack() == nil)
        #expect(game.position.fen == Position.startFEN)
        #expect(game.keys == [Position.start.key])
    }

    @Test func realGamesReplay() throws {
        // The first games of the CCPD master collection (shared data, CC BY 4.0).
        let text = try resourceText("games-sample.txt")
        var plies = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            var game = Game()
            for token in fields[1].split(separator: " ") {
                let before = game.position
                let move = try game.play(String(token))
                // Notation written for the move reads back as the same move.
                #expect(before.parseMove(before.wxf(move)) == move)
                #expect(before.parseMove(before.chinese(move)) == move)
                plies += 1
            }
            #expect(game.position.consistencyError() == nil)
        }
        #expect(plies > 1000)
    }
}
