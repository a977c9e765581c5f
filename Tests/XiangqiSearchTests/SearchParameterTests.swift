import Foundation
import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// Each tunable parameter reaches the search: moved to one end of its range or the other it
/// changes the tree of a fixed-depth search, which still gives a legal move.
@Suite struct SearchParameterTests {
    static let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1"

    static func search(_ parameters: SearchParameters, depth: Int = 9) throws -> SearchResult {
        let engine = Engine(hashMegabytes: 4)
        engine.searchOptions.parameters = parameters
        engine.setGame(Game(try Position(fen: fen)))
        return engine.search(SearchLimits(depth: depth))
    }

    static let plain = (try? search(SearchParameters())) ?? SearchResult(bestMove: nil, ponderMove: nil, score: 0, depth: 0, nodes: 0)

    @Test(arguments: SearchParameters.table.map(\.name))
    func eachParameterChangesTheTree(_ name: String) throws {
        let tunable = try #require(SearchParameters.table.first { $0.name == name })
        let position = try Position(fen: Self.fen)
        var nodes: [UInt64] = []
        for end in [tunable.range.lowerBound, tunable.range.upperBound] {
            var parameters = SearchParameters()
            parameters[keyPath: tunable.keyPath] = end
            let result = try Self.search(parameters)
            #expect(result.bestMove.map { position.isLegal($0) } == true, "\(name) at \(end)")
            nodes.append(result.nodes)
            if result.nodes != Self.plain.nodes { break }
        }
        #expect(nodes.last != Self.plain.nodes, "\(name): \(nodes) nodes at its ends, \(Self.plain.nodes) at its default")
    }

    /// A library caller may set any value: divisors of 0 or below count as 1 and the aspiration
    /// window is at least 2 wide, so the search neither crashes nor loops.
    @Test func anyValueIsSearchable() throws {
        var parameters = SearchParameters()
        parameters.nullMoveEvalDivisor = 0
        parameters.reductionDivisor = -5
        parameters.reductionHistoryDivisor = 0
        parameters.futilityBase = -1000
        parameters.aspirationDelta = 0
        parameters.lateQuietNotImprovingDivisor = 0
        #expect(parameters.searchable.nullMoveEvalDivisor == 1 && parameters.searchable.reductionHistoryDivisor == 1)
        #expect(parameters.searchable.aspirationDelta == 2 && parameters.searchable.futilityBase == -1000)
        #expect(parameters.searchable.lateQuietNotImprovingDivisor == 1)
        let result = try Self.search(parameters, depth: 7)
        #expect(result.bestMove.map { (try? Position(fen: Self.fen))?.isLegal($0) == true } == true)
    }

    @Test func theReductionTableFollowsItsDivisor() {
        var parameters = SearchParameters()
        let shipped = parameters.reductionTable
        // The default divisor's table is the formula's at 2.1.
        #expect(shipped[10 * 64 + 20] == Int(0.5 + log(10.0) * log(20.0) / 2.1))
        parameters.reductionDivisor = 150
        let deeper = parameters.reductionTable
        #expect(deeper[10 * 64 + 20] == Int(0.5 + log(10.0) * log(20.0) / 1.5))
        #expect(zip(shipped, deeper).allSatisfy { $0 <= $1 } && shipped != deeper)
        // The base adds hundredths of a ply before the table rounds down.
        parameters.reductionDivisor = 210
        parameters.reductionBase = 150
        let based = parameters.reductionTable
        #expect(based[10 * 64 + 20] == Int(1.5 + log(10.0) * log(20.0) / 2.1))
        #expect(based[1 * 64 + 1] == 1 && shipped[1 * 64 + 1] == 0)
        parameters.reductionBase = -400
        #expect(parameters.reductionTable.allSatisfy { $0 >= 0 })
    }
}
