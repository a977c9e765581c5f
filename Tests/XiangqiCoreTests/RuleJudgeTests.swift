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
    RuleCase(name: "horse chasing a protected chariot still chases",
             fen: "r3k4/3N5/9/9/r8/9/9/9/9/3K5 w - - 0 1",
             moves: "d8b7 a9b9 b7d8 b9a9 d8b7 a9b9 b7d8 b9a9",
             expected: .win(.black, .perpetualChase)),
    RuleCase(name: "horse attacking a protected cannon is no chase",
             fen: "c3k4/3N5/9/9/r8/9/9/9/9/3K5 w - - 0 1",
             moves: "d8b7 a9b9 b7d8 b9a9 d8b7 a9b9 b7d8 b9a9",
             expected: .draw(.repetition)),
    RuleCase(name: "chariot perpetually chasing a crossed soldier",
             fen: "5k3/3R5/9/9/9/9/2p6/9/9/4K4 w - - 0 1",
             moves: "d8c8 c3d3 c8d8 d3c3 d8c8 c3d3 c8d8 d3c3",
             expected: .win(.black, .perpetualChase)),
    RuleCase(name: "offering a chariot exchange is no chase",
             fen: "5k3/3R5/9/9/9/9/2r6/9/9/4K4 w - - 0 1",
             moves: "d8c8 c3d3 c8d8 d3c3 d8c8 c3d3 c8d8 d3c3",
             expected: .draw(.repetition)),
    RuleCase(name: "the king may attack freely",
             fen: "5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1",
             moves: "e1d1 d2e2 d1e1 e2d2 e1d1 d2e2 d1e1 e2d2",
             expected: .draw(.repetition)),
    RuleCase(name: "perpetual check by a horse",
             fen: "4k4/9/4N4/9/9/9/9/9/9/5K3 w - - 0 1",
             moves: "e7c8 e9d9 c8e7 d9e9 e7c8 e9d9 c8e7 d9e9",
             expected: .win(.black, .perpetualCheck)),
    RuleCase(name: "checking on every other move is not perpetual",
             fen: "4k4/9/4N4/9/9/9/9/9/9/5K3 w - - 0 1",
             moves: "e7c8 e9e8 c8e7 e8e9 e7c8 e9e8 c8e7 e8e9",
             expected: .draw(.repetition)),
    RuleCase(name: "mutual perpetual check is a draw",
             fen: "9/5C3/3r1k3/3c5/9/5N3/9/3Kn4/5C3/9 b - - 0 1",
             moves: "d6f6 f4d3 f6d6 d3f4 d6f6 f4d3 f6d6 d3f4",
             expected: .draw(.repetition)),
    RuleCase(name: "perpetual check loses to perpetual chase",
             fen: "3k1n3/6C2/6r2/9/9/9/3C5/9/2NcK4/9 w - - 0 1",
             moves: "g8d8 g7d7 d8g8 d7g7 g8d8 g7d7 d8g8 d7g7",
             expected: .win(.black, .perpetualCheck)),
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
    RuleCase(name: "move limit after 20 quiet plies",
             fen: "3ak4/9/9/9/9/9/9/9/9/R4K3 w - - 100 60",
             moves: "\(quietPlies)",
             expected: .draw(.moveLimit)),
    RuleCase(name: "one quiet ply short of the move limit",
             fen: "3ak4/9/9/9/9/9/9/9/9/R4K3 w - - 99 60",
             moves: "\(quietPlies)",
             expected: .ongoing),
    RuleCase(name: "a capture restarts the move count",
             fen: "3ak4/9/9/9/p8/9/9/9/9/R4K3 w - - 119 60",
             moves: "a0a5",
             expected: .ongoing),
    RuleCase(name: "the eleventh check in a row does not count",
             fen: "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 98 60",
             moves: "\(elevenChecks)",
             expected: .ongoing),
    RuleCase(name: "move limit reached through a long checking run",
             fen: "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 99 60",
             moves: "\(elevenChecks)",
             expected: .draw(.moveLimit)),
]

/// Twenty plies without a capture or a check, no position repeated.
let quietPlies = "a0d0 d9e8 d0d1 e8d7 d1i1 e9e8 f0f1 e8e9 i1i5 d7e8 i5i3 e8f9 i3i0 e9e8 i0i7 e8e9 i7i9 e9e8 i9i3 e8e7"
/// Eleven red checks in a row answered by eleven king moves (22 plies, no capture, no
/// position repeated): 21 of them count toward the limit.
let elevenChecks = "a0a9 e9e8 a9a8 e8e7 a8a7 e7e8 a7e7 e8f8 e7e8 f8f9 e8e9 f9f8 e9f9 f8e8 i0i8 e8e7 i8i7 e7e8 f9e9 e8f8 e9e8 f8f9"

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
