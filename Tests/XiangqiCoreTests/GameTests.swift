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

    @Test func theNoCaptureCountStartsAtTheLastCapture() throws {
        // The clock of 99 in the FEN stops counting once Red's chariot takes on a1; then the
        // kings and the chariot shuffle (no repetition judged below fold 100).
        var game = Game(try Position(fen: "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 99 1"))
        #expect(game.status(moveLimit: 10, repetitionFold: 100) == .draw(.moveLimit))
        try game.play("a0a1")
        let shuffle = ["d9d8", "a1a2", "d8d9", "a2a1"]
        for ply in 0..<19 {
            try game.play(shuffle[ply % 4])
            #expect(game.status(moveLimit: 10, repetitionFold: 100) == .ongoing)
        }
        try game.play(shuffle[19 % 4])
        #expect(game.status(moveLimit: 10, repetitionFold: 100) == .draw(.moveLimit))
    }

    @Test func positionsTakenBackAreThoseOfTheReplay() throws {
        let text = try resourceText("games-sample.txt")
        var compared = 0
        for line in text.split(separator: "\n").prefix(10) {
            var game = Game()
            for token in line.split(separator: "\t")[1].split(separator: " ") { try game.play(String(token)) }
            let replay = game.positionsBeforeMoves
            let n = game.moves.count
            for start in [-3, 0, 1, n / 2, n - 1, n, n + 5] {
                let tail = game.positionsBeforeMoves(from: start)
                let expected = replay[min(max(start, 0), n)...]
                #expect(tail.map(\.fen) == expected.map(\.fen))
                #expect(tail.map(\.key) == expected.map(\.key))
                #expect(tail.map(\.isInCheck) == expected.map(\.isInCheck))
                #expect(tail.allSatisfy { $0.consistencyError() == nil })
                compared += tail.count
            }
        }
        #expect(compared > 1000)
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
