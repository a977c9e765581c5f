import Testing
import XiangqiCore

struct PerftCase: CustomTestStringConvertible, Sendable {
    let fen: String
    let depth: Int
    let nodes: UInt64
    var testDescription: String { "\(fen) depth \(depth)" }
}

/// Rows of Resources/perft.tsv (copied from the shared data set; every count was reproduced
/// with Fairy-Stockfish 11.1).
func perftCases() -> [PerftCase] {
    guard let text = try? resourceText("perft.tsv") else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
        let f = line.split(separator: "\t")
        guard f.count == 3, let d = Int(f[1]), let n = UInt64(f[2]) else { return nil }
        return PerftCase(fen: String(f[0]), depth: d, nodes: n)
    }
}

@Suite struct PerftTests {
    @Test func dataFileHasAllRows() {
        #expect(perftCases().count == 100)
    }

    @Test(arguments: perftCases())
    func perftMatchesReference(_ c: PerftCase) throws {
        var p = try Position(fen: c.fen)
        #expect(p.perft(c.depth) == c.nodes)
    }

    @Test func startPositionDepthFive() throws {
        var p = Position.start
        #expect(p.perft(5) == 133_312_995)
    }

    @Test func divideSumsToPerft() throws {
        var p = Position.start
        let split = p.divide(3)
        #expect(split.count == 44)
        #expect(split.reduce(0) { $0 + $1.nodes } == 79_666)
        #expect(p.fen == Position.startFEN)
    }

    @Test func depthZeroIsOne() {
        var p = Position.start
        #expect(p.perft(0) == 1)
    }
}
