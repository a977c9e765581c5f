import Testing
import XiangqiCore
@testable import XiangqiEngine
@testable import XiangqiSearch

@Suite struct EvaluationTests {
    /// The FEN of `fen` with the colours swapped (ranks mirrored, side to move flipped).
    static func colourFlipped(_ fen: String) -> String {
        let fields = fen.split(separator: " ")
        let rows = fields[0].split(separator: "/").reversed().map { row in
            String(row.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
        }
        return ([rows.joined(separator: "/"), fields[1] == "w" ? "b" : "w"] + fields.dropFirst(2).map(String.init))
            .joined(separator: " ")
    }

    /// The FEN of `fen` mirrored left to right (file a becomes file i).
    static func fileMirrored(_ fen: String) -> String {
        let fields = fen.split(separator: " ")
        let rows = fields[0].split(separator: "/").map { String($0.reversed()) }
        return ([rows.joined(separator: "/")] + fields.dropFirst().map(String.init)).joined(separator: " ")
    }

    /// The evaluation is the same for the side to move whichever colour it has, and the same
    /// on the mirrored board: the threat, check and palace terms count both sides alike.
    @Test func evaluationIsSymmetric() throws {
        var random = SeededGenerator(seed: 7)
        let evaluator = Evaluator()
        let starts = [Position.start] + benchPositions.compactMap { try? Position(fen: $0) }
        var checked = 0
        for game in 0..<40 {
            var position = starts[game % starts.count]
            for _ in 0..<60 {
                let moves = position.legalMoves
                guard !moves.isEmpty else { break }
                let fen = position.fen
                let score = evaluator.evaluate(position)
                #expect(evaluator.evaluate(try Position(fen: Self.colourFlipped(fen))) == score, "\(fen)")
                #expect(evaluator.evaluate(try Position(fen: Self.fileMirrored(fen))) == score, "\(fen)")
                checked += 1
                _ = position.make(moves[Int(random.next() % UInt64(moves.count))])
            }
        }
        #expect(checked > 1_000)
    }

    /// Each threat and king-safety term fires on a position built for it, for the right side.
    @Test func threatAndKingSafetyTermsCountWhatTheyName() throws {
        func terms(_ fen: String) throws -> [String: (red: Int, black: Int)] {
            var result: [String: (red: Int, black: Int)] = [:]
            for term in Evaluator().breakdown(try Position(fen: fen)) {
                result[term.name] = (term.redMiddlegame, term.blackMiddlegame)
            }
            return result
        }
        let w = EvalParameter.defaults
        func weight(_ p: EvalParameter) -> Int { w[p.rawValue] }
        // A black horse on c7 attacks the red chariot on b5, which nothing defends: a threat by
        // a lesser piece and a hanging major piece, both black's. The chariot attacks nothing.
        let horse = try terms("3k5/9/2n6/9/1R7/9/9/9/9/4K4 w - - 0 1")
        #expect(horse["chariotThreatenedByLesser"]! == (0, weight(.chariotThreatenedByLesser)))
        #expect(horse["hangingMajor"]! == (0, weight(.hangingMajor)))
        // A red soldier across the river on e6 attacks the black cannon on e7.
        let soldier = try terms("3k5/9/4c4/4P4/9/9/9/9/9/5K3 w - - 0 1")
        #expect(soldier["minorThreatenedBySoldier"]! == (weight(.minorThreatenedBySoldier), 0))
        // A red chariot on i8 against the black king on d9: of its two checking squares, d8 is
        // guarded by the king and i9 is safe; on rank 8 it attacks three palace squares.
        let chariot = try terms("3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1")
        #expect(chariot["safeChariotCheck"]! == (weight(.safeChariotCheck), 0))
        #expect(chariot["palaceAttacks"]! == (3 * weight(.palaceAttacks), 0))
        #expect(chariot["palaceAttackersSquared"]! == (weight(.palaceAttackersSquared), 0))
    }
}
