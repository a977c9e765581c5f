import Testing
import XiangqiCore

/// Adjudication cases: a FEN, moves, and the expected status. Each case is also checked with
/// colours swapped (board turned, moves mirrored), where the winner must swap too.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let name: String
    let fen: String
    let moves: String
    let expected: GameStatus
    var testDescription: String { name }
}

let ruleCases: [RuleCase] = [
    RuleCase(name: "perpetual check by a chariot",
             fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
             moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
             expected: .win(.black, .perpetualCheck)),
    RuleCase(name: "a single repetition is not yet decided",
             fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
             moves: "a8a9 e9e8 a9a8 e8e9",
             expected: .ongoing),
    RuleCase(name: "idle repetition is a draw",
             fen: Position.startFEN,
             moves: "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9",
             expected: .draw(.repetition)),
    RuleCase(name: "horse perpetually chasing a chariot",
             fen: "r3k4/3N5/9/9/9/9/9/9/9/3K5 w - - 0 1",
             moves: "d8b7 a9b9 b7d8 b9a9 d8b7 a9b9 b7d8 b9a9",
             expected: .win(.black, .perpetualChase)),
    RuleCase(name: "chariot perpetually chasing an unprotected cannon",
             fen: "2c2k3/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1",
             moves: "d1c1 c9d9 c1d1 d9c9 d1c1 c9d9 c1d1 d9c9",
             expected: .win(.black, .perpetualChase)),
    RuleCase(name: "attacking a cannon the king protects is no chase",
             fen: "2c1k4/9/9/9/9/9/9/9/3R5/5K3 w - - 0 1",
             moves: "d1c1 c9d9 c1d1 d9c9 d1c1 c9d9 c1d1 d9c9",
             expected: .draw(.repetition)),
    RuleCase(name: "a soldier may chase freely",
             fen: "5k3/9/2c6/3P5/9/9/9/9/9/4K4 w - - 0 1",
             moves: "d6c6 c7d7 c6d6 d7c7 d6c6 c7d7 c6d6 d7c7",
             expected: .draw(.repetition)),
    RuleCase(name: "attacking soldiers that have not crossed is no chase",
             fen: "4k4/9/9/p1p6/9/9/R8/9/9/3K5 w - - 0 1",
             moves: "a3c3 e9e8 c3a3 e8e9 a3c3 e9e8 c3a3 e8e9",
             expected: .draw(.repetition)),
    RuleCase(name: "checkmate",
             fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
             moves: "a0d0",
             expected: .win(.red, .checkmate)),
    RuleCase(name: "stalemate loses",
             fen: "5k3/4r4/9/9/9/9/9/9/8r/3K5 w - - 0 1",
             moves: "",
             expected: .win(.black, .stalemate)),
    RuleCase(name: "insufficient material",
             fen: "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1",
             moves: "",
             expected: .draw(.insufficientMaterial)),
    RuleCase(name: "a lone soldier can still win",
             fen: "3ak4/4a4/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
             moves: "",
             expected: .ongoing),
    RuleCase(name: "move limit from the half-move clock",
             fen: "3a1k3/9/9/9/9/9/9/9/9/R3K4 w - - 119 80",
             moves: "a0a1",
             expected: .draw(.moveLimit)),
    RuleCase(name: "move limit not yet reached",
             fen: "3a1k3/9/9/9/9/9/9/9/9/R3K4 w - - 118 80",
             moves: "a0a1",
             expected: .ongoing),
]

@Suite struct RuleJudgeTests {
    @Test(arguments: ruleCases)
    func statusIsAdjudicated(_ c: RuleCase) throws {
        var game = Game(try Position(fen: c.fen))
        for m in c.moves.split(separator: " ") { try game.play(String(m)) }
        #expect(game.status() == c.expected)
    }

    @Test(arguments: ruleCases)
    func colourSwappedCaseGivesTheSwappedVerdict(_ c: RuleCase) throws {
        let start = try Position(fen: c.fen).colorFlipped
        var game = Game(start)
        for m in c.moves.split(separator: " ") {
            let move = try #require(Move(iccs: m))
            try game.play(Move(from: move.from.mirroredRanks, to: move.to.mirroredRanks))
        }
        let swapped: GameStatus
        switch c.expected {
        case .win(let color, let reason): swapped = .win(color.opponent, reason)
        default: swapped = c.expected
        }
        #expect(game.status() == swapped)
    }

    @Test func checksBeyondTheTenthDoNotCount() throws {
        // 118 quiet plies would be drawn at 120; a long checking sequence does not get there.
        var game = Game(try Position(fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 100 60"))
        for m in "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(separator: " ") { try game.play(String(m)) }
        // 8 plies after a clock of 100: 108 < 120 either way, and the perpetual check decides.
        #expect(game.status() == .win(.black, .perpetualCheck))
        #expect(game.status(moveLimit: 50, repetitionFold: 4) == .draw(.moveLimit))
    }

    @Test func fourthOccurrenceWhenAskedFor() throws {
        var game = Game(try Position(fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"))
        for m in "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(separator: " ") { try game.play(String(m)) }
        #expect(game.status(repetitionFold: 4) == .ongoing)
        #expect(game.status(repetitionFold: 2) == .win(.black, .perpetualCheck))
    }
}
