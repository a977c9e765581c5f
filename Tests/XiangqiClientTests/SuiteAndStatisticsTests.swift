import Testing
import XiangqiCodec
import XiangqiCore
@testable import XiangqiClient

@Suite struct SuiteFileTests {
    @Test func goodLinesAreRead() throws {
        let text = """
        # a comment, then a blank line

        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm f4g2; id "ccpd-end-00000004";
        2b6/3kaRC2/3a5/9/p7r/4P3P/9/4B4/9/4K1Bc1 w - -; bm f8f0 e0e1; am g0i2; id "two; best"; dm 3;
        4kab2/4a4/9/3R4C/6r2/P3P3c/7n1/4B4/4A4/4KAB2 b - - 0 1; bm g6b6; id unquoted
        rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1; bm 炮二平五; c0 "ignored"
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - bm f4g2; id "standard EPD";
        """
        let (positions, errors) = SuiteFile.parse(text)
        #expect(errors.isEmpty)
        #expect(positions.count == 5)
        #expect(positions[4].id == "standard EPD" && positions[4].bestMoves == [Move(iccs: "f4g2")!])
        #expect(positions[0].line == 3 && positions[0].id == "ccpd-end-00000004")
        #expect(positions[0].bestMoves == [Move(iccs: "f4g2")!])
        #expect(positions[0].position.sideToMove == .black)
        // Quoted ids may hold a semicolon; several best moves; am and dm.
        #expect(positions[1].id == "two; best")
        #expect(positions[1].bestMoves == [Move(iccs: "f8f0")!, Move(iccs: "e0e1")!])
        #expect(positions[1].avoidMoves == [Move(iccs: "g0i2")!])
        #expect(positions[1].mateIn == 3)
        // Ranks 1-10 (g6b6 is g5b5 in ICCS), read because no 0-9 reading is legal.
        #expect(positions[2].bestMoves == [Move(iccs: "g5b5")!] && positions[2].id == "unquoted")
        // Chinese notation.
        #expect(positions[3].bestMoves == [Move(iccs: "h2e2")!] && positions[3].id == "line 6")
    }

    @Test func malformedLinesAreReportedWithTheirNumbers() {
        let text = """
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm f4g2; id "good";
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5 b - - 0 1; bm f4g2; id "nine ranks";
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm a0a1; id "illegal move";
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm zz; id "unreadable move";
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; id "no operation";
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; dm x; id "bad dm";
        ; bm h2e2
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; dm 2; id "good too"
        """
        let (positions, errors) = SuiteFile.parse(text)
        #expect(positions.map(\.id) == ["good", "good too"])
        #expect(errors.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(errors[0].message.hasPrefix("bad FEN"))
        #expect(errors[1].message.contains("'a0a1' is not a legal move"))
        #expect(errors[2].message.contains("'zz'"))
        #expect(errors[3].message == "no bm, am or dm")
        #expect(errors[4].message.hasPrefix("dm needs a positive number"))
        #expect(errors[5].message == "no FEN")
    }

    @Test func solutionsAreJudgedByBestAvoidAndMateOperations() throws {
        let entry = SuiteFile.parse("3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm f4g2; am f4e2").positions[0]
        var early = EngineInfo(), late = EngineInfo(), wrong = EngineInfo()
        wrong.principalVariation = [Move(iccs: "f4e2")!]
        wrong.receivedAt = 5
        early.principalVariation = [Move(iccs: "f4g2")!]
        early.receivedAt = 10
        late.principalVariation = [Move(iccs: "f4g2")!]
        late.receivedAt = 40
        // The first choice settled on the solution at 10 ms, after a wrong start.
        let solved = SuiteJudge.judge(entry, EngineReply(move: Move(iccs: "f4g2"), infos: [wrong, early, late], elapsed: 50))
        #expect(solved.solved && solved.timeToSolution == 10)
        // A switch away and back restarts the clock.
        let wavering = SuiteJudge.judge(entry, EngineReply(move: Move(iccs: "f4g2"), infos: [early, wrong, late], elapsed: 50))
        #expect(wavering.solved && wavering.timeToSolution == 40)
        #expect(!SuiteJudge.judge(entry, EngineReply(move: Move(iccs: "f4h3"), elapsed: 50)).solved)
        #expect(!SuiteJudge.judge(entry, EngineReply(move: nil, elapsed: 50)).solved)

        // dm alone: a mate within the distance must be announced.
        let mate = SuiteFile.parse("3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; dm 2").positions[0]
        var mateInfo = EngineInfo()
        mateInfo.score = .mate(2)
        #expect(SuiteJudge.judge(mate, EngineReply(move: Move(iccs: "f4g2"), infos: [mateInfo])).solved)
        mateInfo.score = .mate(3)
        #expect(!SuiteJudge.judge(mate, EngineReply(move: Move(iccs: "f4g2"), infos: [mateInfo])).solved)
    }
}

@Suite struct MatchStatisticsTests {
    // Reference values computed independently (Python, the same textbook formulas, 1.96 sigma);
    // the first two also match reports of the shared match runner in bench/records/matches.
    @Test func eloMarginAndLikelihoodOfSuperiority() throws {
        let a = MatchStatistics(wins: 54, draws: 1, losses: 5)
        #expect(abs(a.elo - 398.414) < 0.01)
        #expect(abs(try #require(a.eloMargin95) - 193.62) < 0.1)
        #expect(a.likelihoodOfSuperiority > 0.9999)
        let b = MatchStatistics(wins: 21, draws: 1, losses: 18)
        #expect(abs(b.elo - 26.107) < 0.01)
        #expect(abs(try #require(b.eloMargin95) - 110.23) < 0.1)
        #expect(abs(b.likelihoodOfSuperiority - 0.68452) < 0.0001)
        #expect(abs(b.variance - 0.242344) < 0.000001)
        let c = MatchStatistics(wins: 48, draws: 7, losses: 5)
        #expect(abs(c.elo - 312.955) < 0.01)
        #expect(abs(try #require(c.eloMargin95) - 121.31) < 0.1)
    }

    @Test func edgeCases() {
        let even = MatchStatistics(wins: 10, draws: 0, losses: 10)
        #expect(even.elo == 0 && even.likelihoodOfSuperiority == 0.5)
        let allWins = MatchStatistics(wins: 10, draws: 0, losses: 0)
        #expect(allWins.elo == .infinity && allWins.eloMargin95 == nil)
        let none = MatchStatistics(wins: 0, draws: 0, losses: 0)
        #expect(none.score == 0.5 && none.eloMargin95 == nil && none.logLikelihoodRatio(elo0: 0, elo1: 5) == 0)
        #expect(abs(MatchStatistics.score(forElo: 0) - 0.5) < 1e-12)
        #expect(abs(MatchStatistics.elo(forScore: MatchStatistics.score(forElo: 123.4)) - 123.4) < 1e-9)
    }

    @Test func pentanomialStatisticsOverGamePairs() {
        // Reference values computed independently (Python, the same normal-approximation GSPRT).
        let a = PairStatistics(counts: [5, 20, 40, 25, 10])
        #expect(a.pairs == 100)
        #expect(abs(a.score - 0.5375) < 1e-12)
        #expect(abs(a.variance - 0.06421875) < 1e-12)
        #expect(abs(a.logLikelihoodRatio(elo0: 0, elo1: 10) - 0.67897) < 0.0001)
        #expect(abs(PairStatistics(counts: [2, 10, 50, 30, 8]).logLikelihoodRatio(elo0: 0, elo1: 5) - 1.26083) < 0.0001)
        #expect(abs(PairStatistics(counts: [10, 30, 40, 15, 5]).logLikelihoodRatio(elo0: 0, elo1: 10) + 1.62462) < 0.0001)
        #expect(PairStatistics(counts: [0, 0, 7, 0, 0]).logLikelihoodRatio(elo0: 0, elo1: 10) == 0)
        // Too few pairs for a verdict, however large the LLR.
        let early = PairStatistics(counts: [0, 0, 0, 1, 1])
        #expect(early.logLikelihoodRatio(elo0: 0, elo1: 50) > MatchStatistics.sprtBounds().upper)
        #expect(early.sprt(elo0: 0, elo1: 50) == .continuing)
        #expect(PairStatistics(counts: [0, 10, 100, 300, 100]).sprt(elo0: 0, elo1: 10) == .acceptH1)
        #expect(PairStatistics(counts: [100, 300, 100, 10, 0]).sprt(elo0: 0, elo1: 10) == .acceptH0)
        // Games pair by number (1 with 2, ...); an unfinished pair does not count.
        let opening = Opening(name: "start")
        func game(_ number: Int, _ result: GameResult, firstIsRed: Bool) -> GameRecord {
            GameRecord(number: number, opening: opening, red: "a", black: "b", firstIsRed: firstIsRed, moves: [],
                       result: result, reason: "test", finalFEN: "")
        }
        let games = [game(1, .redWins, firstIsRed: true), game(2, .redWins, firstIsRed: false),
                     game(3, .draw, firstIsRed: true), game(4, .blackWins, firstIsRed: false),
                     game(5, .redWins, firstIsRed: true)]
        #expect(PairStatistics(games: games).counts == [0, 0, 1, 1, 0])
    }

    @Test func sprtLogLikelihoodRatioAndVerdicts() {
        #expect(abs(MatchStatistics(wins: 120, draws: 80, losses: 100).logLikelihoodRatio(elo0: 0, elo1: 10) - 0.61915) < 0.0001)
        #expect(abs(MatchStatistics(wins: 300, draws: 400, losses: 200).logLikelihoodRatio(elo0: 0, elo1: 5) - 2.47755) < 0.0001)
        #expect(abs(MatchStatistics(wins: 100, draws: 100, losses: 130).logLikelihoodRatio(elo0: 0, elo1: 10) + 1.45178) < 0.0001)
        let bounds = MatchStatistics.sprtBounds()
        #expect(abs(bounds.lower + 2.94444) < 0.0001 && abs(bounds.upper - 2.94444) < 0.0001)
        #expect(MatchStatistics(wins: 120, draws: 80, losses: 100).sprt(elo0: 0, elo1: 10) == .continuing)
        #expect(MatchStatistics(wins: 400, draws: 400, losses: 200).sprt(elo0: 0, elo1: 10) == .acceptH1)
        #expect(MatchStatistics(wins: 200, draws: 400, losses: 400).sprt(elo0: 0, elo1: 10) == .acceptH0)
    }
}

@Suite struct ClientParsingTests {
    @Test func specificationsAreRead() throws {
        let c = try EngineConfiguration(specification: "/usr/games/fairy-stockfish --x proto=uci notation=uci10 fen=he opt.Hash=16 'opt.Skill Level=5' name=FSF")
        #expect(c.executable == "/usr/games/fairy-stockfish" && c.arguments == ["--x"])
        #expect(c.dialect == .uci && c.rankNumbering == .oneBased && c.pieceLetters == .horseElephant && c.name == "FSF")
        #expect(c.options.map(\.name) == ["Hash", "Skill Level"] && c.options.map(\.value) == ["16", "5"])
        let auto = try EngineConfiguration(specification: "xiangqi proto=auto notation=auto")
        #expect(auto.dialect == nil && auto.rankNumbering == nil && auto.arguments.isEmpty)
        #expect(throws: EngineClientError.self) { try EngineConfiguration(specification: "xiangqi proto=xboard") }
        #expect(throws: EngineClientError.self) { try EngineConfiguration(specification: "'unterminated") }
        #expect(throws: EngineClientError.self) { try EngineConfiguration(specification: "   ") }
    }

    @Test func goCommandsFollowTheDialect() {
        let clocks = EngineLimits(clocks: .init(redTime: 5000, blackTime: 4000, redIncrement: 50, blackIncrement: 60))
        #expect(clocks.goCommand(.uci, sideToMove: .black) == "go wtime 5000 btime 4000 winc 50 binc 60")
        #expect(clocks.goCommand(.ucci, sideToMove: .black) == "go time 4000 increment 60 opptime 5000 oppincrement 50")
        #expect(EngineLimits(moveTime: 100).goCommand(.ucci, sideToMove: .red) == "go movetime 100")
        #expect(EngineLimits(depth: 3, nodes: 500).goCommand(.uci, sideToMove: .red) == "go depth 3 nodes 500")
    }

    @Test func openingsAndClocksAreRead() {
        let (openings, errors) = OpeningFile.parse("""
        # comment
        h2e2 h9g7  # trailing comment
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; f4g2
        h2e2 h2e2
        bad/fen w; h2e2
        """, name: "o.txt")
        #expect(openings.map(\.name) == ["o.txt:2", "o.txt:3"])
        #expect(openings[0].moves == [Move(iccs: "h2e2")!, Move(iccs: "h9g7")!])
        #expect(openings[1].start.sideToMove == .black && openings[1].moves == [Move(iccs: "f4g2")!])
        #expect(errors.map(\.line) == [4, 5])
        #expect(TimeControl(clock: "5+0.05") == .clock(base: 5000, increment: 50))
        #expect(TimeControl(clock: "60") == .clock(base: 60000, increment: 0))
        #expect(TimeControl(clock: "x+1") == nil && TimeControl(clock: "0+1") == nil && TimeControl(clock: "1+2+3") == nil)
    }
}

@Suite struct FuzzTests {
    /// Mutated FENs, moves in every notation, suite lines, opening lines and game records are
    /// refused with an error or read, never a crash (in-process: a trap here fails the run).
    @Test func parsersSurviveMutatedInput() {
        var random = SeededGenerator(seed: 99)
        var generator = LineGenerator()
        var samples: [String] = []
        for _ in 0..<150 {
            let position = generator.checkPosition(&random)
            let moves = position.legalMoves
            let move = moves[Int(random.next() % UInt64(moves.count))]
            for text in [position.fen, move.iccs, position.wxf(move), position.chinese(move),
                         "\(position.fen) bm \(move.iccs); id \"x\";", "\(position.fen); \(move.iccs)"] {
                var bytes = Array(text.utf8)
                for _ in 0..<(random.next() % 4) {
                    let i = Int(random.next() % UInt64(bytes.count + 1))
                    switch random.next() % 3 {
                    case 0 where i < bytes.count: bytes.remove(at: i)
                    case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: i)
                    default: bytes.insert(contentsOf: bytes.prefix(5), at: i)
                    }
                }
                samples.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        samples += ["", " ", "/////////", String(repeating: "9/", count: 5000), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999999999999 1",
                    "炮二平五炮二平五", "h2e2e2e2", "\u{0}\u{0}", String(repeating: "k", count: 100_000)]
        var read = 0, refused = 0
        for text in samples {
            if let p = try? Position(fen: text) {
                read += 1
                for m in samples.prefix(20) { _ = p.parseMove(m) }
            } else {
                refused += 1
            }
            _ = Position.start.parseMove(text)
            _ = SuiteFile.parse(text + "\n" + text)
            _ = OpeningFile.parse(text, name: "fuzz")
            _ = GameRecord.records(fromPGN: "[Event \"x\"]\n[Round \"1\"]\n[Result \"1-0\"]\n[FEN \"\(text)\"]\n\n1. \(text) 1-0\n")
        }
        #expect(read > 50 && refused > 50)
    }
}
