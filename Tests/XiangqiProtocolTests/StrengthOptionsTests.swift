import Testing
import XiangqiEngine
import XiangqiProtocol
import XiangqiSearch

/// Skill Level, UCI_LimitStrength/UCI_Elo, MultiPV and WDL through the protocol.
@Suite struct StrengthOptionsTests {
    @Test func optionsAreAnnouncedParsedAndClamped() throws {
        let sink = MemorySink()
        let engine = Engine(hashMegabytes: 2)
        let session = Session(engine: engine, output: sink)
        let handshake = run(session, sink, ["uci"])
        #expect(handshake.contains("option name Skill Level type spin default 20 min 0 max 20"))
        #expect(handshake.contains("option name MultiPV type spin default 1 min 1 max 128"))
        #expect(handshake.contains("option name UCI_LimitStrength type check default false"))
        #expect(handshake.contains { $0.hasPrefix("option name UCI_Elo type spin default ") })

        #expect(run(session, sink, ["setoption name Skill Level value 7"]).isEmpty)
        #expect(engine.skill.level == 7)
        #expect(run(session, sink, ["setoption name Skill Level value 25"])
                == ["info string option Skill Level: 25 is out of range 0-20; using 20"])
        #expect(engine.skill.level == 20)
        #expect(run(session, sink, ["setoption name Skill Level value weak"])
                == ["info string option Skill Level: 'weak' is not a number; kept 20"])
        #expect(run(session, sink, ["setoption name MultiPV value 0"])
                == ["info string option MultiPV: 0 is out of range 1-128; using 1"])
        _ = run(session, sink, ["setoption name MultiPV value 3"])
        #expect(engine.searchOptions.multiPV == 3)

        // UCI_Elo counts only with UCI_LimitStrength, and then overrides Skill Level. The range
        // and the levels come from the measured ladder (bench/levels.md, StrengthLadder).
        let lowest = StrengthLadder.minimumElo, highest = StrengthLadder.maximumElo
        #expect(handshake.contains("option name UCI_Elo type spin default \(highest) min \(lowest) max \(highest)"))
        _ = run(session, sink, ["setoption name UCI_Elo value \(lowest)"])
        #expect(engine.skill.level == 20)
        _ = run(session, sink, ["setoption name UCI_LimitStrength value true"])
        #expect(engine.skill.level == 0)
        let level10 = try #require(StrengthLadder.points.first { $0.level == 10 }).elo
        _ = run(session, sink, ["setoption name UCI_Elo value \(level10)"])
        #expect(engine.skill.level == 10)
        // Between measured levels the mapping is linear: level 11's Elo, and one below it.
        let level11 = StrengthLadder.elo(ofLevel: 11)
        #expect(level11 > level10 && level11 < StrengthLadder.elo(ofLevel: 15))
        _ = run(session, sink, ["setoption name UCI_Elo value \(level11)"])
        #expect(engine.skill.level == 11)
        _ = run(session, sink, ["setoption name UCI_Elo value \(level11 - 1)"])
        #expect(engine.skill.level == 10)
        let clamped = run(session, sink, ["setoption name UCI_Elo value 99999"])
        #expect(clamped.count == 1 && clamped[0].contains("is out of range"))
        #expect(engine.skill.level == 20)
        _ = run(session, sink, ["setoption name UCI_LimitStrength value false", "setoption name Skill Level value 4"])
        #expect(engine.skill.level == 4)

        // UCCI names.
        _ = run(session, sink, ["ucci", "setoption skill 12"])
        #expect(engine.skill.level == 12)
    }

    @Test func multiPVAndWDLAreReported() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        let out = run(session, sink, ["uci", "setoption name MultiPV value 3", "setoption name UCI_ShowWDL value true",
                                      "position startpos moves h2e2 h9g7", "go depth 4"])
        // Iteration lines (a slow build also reports the root move it is on after a second).
        let lastDepth = out.filter { $0.hasPrefix("info depth 4 ") && !$0.contains("bound") && !$0.contains(" currmove ") }
        #expect(lastDepth.count == 3)
        for (index, line) in lastDepth.enumerated() {
            #expect(line.contains(" multipv \(index + 1) "))
            #expect(line.contains(" wdl "))
        }
        let firstMoves = lastDepth.compactMap { $0.components(separatedBy: " pv ").last?.split(separator: " ").first }
        #expect(Set(firstMoves).count == 3)
        #expect(out.last?.hasPrefix("bestmove \(firstMoves[0])") == true)

        // UCCI: only the best line, with wdl when asked.
        let ucci = run(session, sink, ["ucci", "setoption showwdl true", "position startpos moves h2e2 h9g7", "go depth 3"])
        let infos = ucci.filter { $0.hasPrefix("info depth 3 ") && !$0.contains(" currmove ") }
        #expect(infos.count == 1)
        #expect(infos.first?.contains(" wdl ") == true)
    }

    @Test func limitedLevelsAnswerWithALegalMove() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        for level in [0, 5, 10] {
            let out = run(session, sink, ["uci", "setoption name Skill Level value \(level)", "setoption name Seed value 5",
                                          "position startpos moves h2e2 h9g7", "go wtime 600000 btime 600000"])
            #expect(out.last?.hasPrefix("bestmove ") == true)
            // The level's depth cap shows in the reports.
            let depths = out.compactMap { line -> Int? in
                guard line.hasPrefix("info depth ") else { return nil }
                return Int(line.split(separator: " ")[2])
            }
            #expect(depths.max()! <= SkillLevel(level).maxDepth)
        }
    }
}
