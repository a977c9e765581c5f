import Testing
import XiangqiEngine
import XiangqiProtocol
import XiangqiSearch

/// The search's tunable parameters (``SearchParameters/table``) as hidden protocol options,
/// the way `xiangqi spsa` sets them.
@Suite struct SearchParameterOptionsTests {
    @Test func theTableIsConsistent() {
        let table = SearchParameters.table
        #expect(Set(table.map { $0.name.lowercased() }).count == table.count)
        for tunable in table {
            #expect(tunable.range.contains(tunable.defaultValue), "\(tunable.name)")
            #expect(tunable.cEnd > 0 && tunable.rEnd > 0, "\(tunable.name)")
            // A perturbation of a few c_end stays well inside the range on both sides.
            #expect(Double(tunable.range.upperBound - tunable.range.lowerBound) >= 4 * tunable.cEnd, "\(tunable.name)")
        }
    }

    @Test(arguments: ["uci", "ucci"])
    func parametersAreSetClampedAndNotAnnounced(_ dialect: String) {
        let sink = MemorySink()
        let engine = Engine(hashMegabytes: 2)
        let session = Session(engine: engine, output: sink)
        let handshake = run(session, sink, [dialect])
        for tunable in SearchParameters.table {
            #expect(!handshake.contains { $0.lowercased().contains(tunable.name.lowercased()) }, "\(tunable.name)")
        }
        let set = dialect == "uci" ? "setoption name FutilityBase value " : "setoption futilitybase "
        #expect(run(session, sink, [set + "140"]).isEmpty)
        #expect(engine.searchOptions.parameters.futilityBase == 140)
        #expect(run(session, sink, [set + "999"]) == ["info string option \(dialect == "uci" ? "FutilityBase" : "futilitybase"): 999 is out of range 40-250; using 250"])
        #expect(engine.searchOptions.parameters.futilityBase == 250)
        #expect(run(session, sink, [set + "many"]).first?.contains("is not a number; kept 250") == true)
        // Every other parameter kept its default.
        var expected = SearchParameters()
        expected.futilityBase = 250
        #expect(engine.searchOptions.parameters == expected)
        // Each name in the table reaches its own value.
        for tunable in SearchParameters.table {
            let value = tunable.range.lowerBound
            _ = run(session, sink, [dialect == "uci" ? "setoption name \(tunable.name) value \(value)"
                                                      : "setoption \(tunable.name.lowercased()) \(value)"])
            #expect(engine.searchOptions.parameters[keyPath: tunable.keyPath] == value, "\(tunable.name)")
        }
    }
}
