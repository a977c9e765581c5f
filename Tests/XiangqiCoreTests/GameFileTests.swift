import Testing
import XiangqiCore

/// The game files that `book build` and `review` read: PGN in any notation, one game per
/// line, and errors that name the game, its line and the move.
@Suite struct GameFileTests {
    @Test func pgnGamesInEveryNotationWithCommentsVariationsAndMarks() throws {
        let text = """
        [Event "club"]
        [Red "Li"]
        [Black "Wang \\"the wall\\""]
        [Result "1-0"]

        1. h2e2 {central cannon} h9g7 2. H2+3?! (2. h0g2 c6c5) 2... 车9平8 $2 3. i0h0 1-0

        [Event "from a position"]
        [FEN "5k3/9/9/9/9/4p4/9/9/9/R2K5 b - - 0 1"]

        1... f9f8 2. a0a4 *
        """
        let games = GameFileReader.games(in: text)
        #expect(games.count == 2)
        let first = try games[0].get()
        #expect(first.number == 1 && first.line == 1)
        #expect(first.tag("Red") == "Li" && first.tag("Black") == "Wang \"the wall\"" && first.tag("FEN") == nil)
        #expect(first.result == .redWins)
        #expect(first.game.moves.map(\.iccs) == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"])
        #expect(first.moveTexts == ["h2e2", "h9g7", "H2+3", "车9平8", "i0h0"])
        let second = try games[1].get()
        #expect(second.number == 2 && second.line == 8 && second.result == nil)
        #expect(second.game.startPosition.sideToMove == .black)
        #expect(second.game.moves.map(\.iccs) == ["f9f8", "a0a4"])
    }

    @Test func oneGamePerLineWithCommentsAndBlankLines() throws {
        let text = "# games\n\n1-0\th2e2 h9g7\n1/2-1/2\th2e2 h7h0\n0-1 h2e2\n"
        let games = GameFileReader.games(in: text)
        #expect(games.count == 3)
        #expect(try games[0].get().game.moves.count == 2 && (try games[0].get().line) == 3)
        guard case .failure(let illegal) = games[1], case .failure(let format) = games[2] else {
            Issue.record("expected two errors")
            return
        }
        #expect(illegal == GameFileError(game: 2, line: 4, message: "move 1 for Black (ply 2) 'h7h0': 'h7h0' is not a legal move here"))
        #expect(format.description == "game 3 (line 5): expected RESULT<TAB>MOVES with RESULT 1-0, 0-1 or 1/2-1/2")
    }

    @Test func badGamesAreNamedAndTheRestRead() throws {
        let text = """
        [Event "a"]
        [Result "0-1"]

        1. h2e2 h9g7 2. h0g2 zz9 3. i0h0

        [Event "b"]
        [FEN "not a fen"]
        [Result "1-0"]

        1. h2e2

        [Event "c"]
        [Result "1/2-1/2"]

        1. h2e2 h9g7
        """
        let games = GameFileReader.games(in: text)
        #expect(games.count == 3)
        guard case .failure(let move) = games[0], case .failure(let fen) = games[1], case .success(let good) = games[2] else {
            Issue.record("expected two errors, then a game")
            return
        }
        #expect(move.game == 1 && move.line == 1 && move.message.hasPrefix("move 2 for Black (ply 4) 'zz9'"))
        #expect(fen.game == 2 && fen.line == 6 && fen.message.hasPrefix("bad FEN tag"))
        #expect(good.number == 3 && good.line == 12 && good.result == .draw && good.game.moves.count == 2)
    }
}
