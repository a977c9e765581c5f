import Testing
import XiangqiCodec
import XiangqiCore

@Suite struct CodecTests {
    @Test func movesConvertBetweenRankNumberings() {
        #expect(MoveText.parse("h2e2", .zeroBased) == Move(iccs: "h2e2"))
        #expect(MoveText.parse("h3e3", .oneBased) == Move(iccs: "h2e2"))
        #expect(MoveText.parse("H3E3", .oneBased) == Move(iccs: "h2e2"))
        #expect(MoveText.parse("a10a9", .oneBased) == Move(iccs: "a9a8"))
        #expect(MoveText.parse("a10a9", .zeroBased) == nil)
        #expect(MoveText.parse("a0a1", .oneBased) == nil && MoveText.parse("a11a9", .oneBased) == nil)
        #expect(MoveText.parse("j1j2", .zeroBased) == nil && MoveText.parse("h2", .zeroBased) == nil)
        #expect(MoveText.parse("h0h0", .zeroBased) == nil && MoveText.parse("(none)", .zeroBased) == nil)
        #expect(MoveText.format(Move(iccs: "a9a8")!, .oneBased) == "a10a9")
        #expect(MoveText.format(Move(iccs: "a9a8")!, .zeroBased) == "a9a8")
    }

    /// A list of moves is read in one numbering as a whole: the one that reads all of it, else
    /// the earlier commands' one, else it cannot be decided.
    @Test func moveListsAreReadInOneNumbering() throws {
        #expect(MoveText.isCoordinates("H2-E2") && MoveText.isCoordinates("a10a9") && !MoveText.isCoordinates("C2.5"))
        guard case .read(let oneBased) = MoveListReading.game(["h3e3", "h10g8"], from: .start, known: .zeroBased) else {
            Issue.record("a game from the start was not read")
            return
        }
        #expect(oneBased.moves.map(\.iccs) == ["h2e2", "h9g7"] && oneBased.numbering == .oneBased && oneBased.numberingIsShown)
        // `a4b4` is legal in both numberings with chariots on a3 and a4 (0-9).
        let twoChariots = try Position(fen: "3k5/9/9/9/9/R8/R8/9/9/4K4 w - - 0 1")
        #expect(MoveListReading.game(["a4b4"], from: twoChariots, known: nil) == .undecidable)
        guard case .read(let known) = MoveListReading.game(["a4b4", "z9z9"], from: twoChariots, known: .oneBased) else {
            Issue.record("a list with a known numbering was not read")
            return
        }
        #expect(known.moves.map(\.iccs) == ["a3b3"] && known.unread == [1] && !known.numberingIsShown)
        // WXF moves say nothing about the numbering.
        guard case .read(let wxf) = MoveListReading.game(["C2.5", "h10g8"], from: .start, known: nil) else {
            Issue.record("a WXF list was not read")
            return
        }
        #expect(wxf.moves.map(\.iccs) == ["h2e2", "h9g7"] && wxf.numbering == .oneBased)
        guard case .read(let choices) = MoveListReading.choices(["h2e2", "z9z9", "b0c2"], in: .start, known: nil) else {
            Issue.record("choices were not read")
            return
        }
        #expect(choices.moves.map(\.iccs) == ["h2e2", "b0c2"] && choices.unread == [1] && choices.numbering == .zeroBased)
    }

    @Test func infoLinesAreRead() throws {
        let uci = try #require(EngineInfo(parsing: "info depth 12 seldepth 18 multipv 2 score cp -35 upperbound nodes 123456 nps 1000 time 250 pv h2e2 h9g7",
                                          dialect: .uci, numbering: .zeroBased))
        #expect(uci.depth == 12 && uci.selectiveDepth == 18 && uci.multiPV == 2 && uci.score == .centipawns(-35))
        #expect(uci.bound == .upper && uci.nodes == 123456 && uci.nodesPerSecond == 1000 && uci.time == 250)
        #expect(uci.principalVariation == [Move(iccs: "h2e2")!, Move(iccs: "h9g7")!])
        let mate = try #require(EngineInfo(parsing: "info depth 5 score mate -3 wdl 0 0 1000 pv h3e3", dialect: .uci, numbering: .oneBased))
        #expect(mate.score == .mate(-3) && mate.principalVariation == [Move(iccs: "h2e2")!])
        #expect(mate.chances == Chances(win: 0, draw: 0, loss: 1000) && mate.lineNumber == 1)
        // UCCI: bare scores, mates as 10000 - plies; 9000 is the largest centipawn score.
        #expect(EngineInfo(parsing: "info depth 3 score 9995 pv h2e2", dialect: .ucci, numbering: .zeroBased)?.score == .mate(3))
        #expect(EngineInfo(parsing: "info depth 3 score -9994", dialect: .ucci, numbering: .zeroBased)?.score == .mate(-3))
        #expect(EngineInfo(parsing: "info depth 3 score 40", dialect: .ucci, numbering: .zeroBased)?.score == .centipawns(40))
        #expect(EngineInfo(parsing: "info depth 3 score 9000", dialect: .ucci, numbering: .zeroBased)?.score == .centipawns(9000))
        #expect(EngineInfo(parsing: "info string hello score cp 3", dialect: .uci, numbering: .zeroBased) == nil)
        #expect(EngineInfo(parsing: "info currmove h2e2 currmovenumber 1", dialect: .uci, numbering: .zeroBased) == nil)
        #expect(EngineInfo(parsing: "info depth x score cp", dialect: .uci, numbering: .zeroBased) == nil)
        #expect(EngineInfo(parsing: "bestmove h2e2", dialect: .uci, numbering: .zeroBased) == nil)
    }

    /// What the engine writes is what a client reads back, in both dialects and numberings,
    /// for every score kind and bound that the dialect can say.
    @Test func infoLinesSurviveARoundTrip() throws {
        let pv = ["h2e2", "h9g7", "h0g2"].map { Move(iccs: $0)! }
        let scores = [0, 35, -35, 8999, -12000, 20000, Score.mate - 1, Score.mate - 7, -(Score.mate - 2), -(Score.mate - 10), -Score.mate]
        for dialect in [EngineDialect.ucci, .uci] {
            for numbering in [RankNumbering.zeroBased, .oneBased] {
                for score in scores {
                    for bound in [Bound.exact, .lower, .upper] {
                        for multiPV in [1, 2] {
                            let search = SearchInfo(depth: 14, selectiveDepth: 22, score: score, bound: bound, nodes: 987_654,
                                                    time: 321, hashfull: 77, principalVariation: pv, multiPV: multiPV)
                            let info = EngineInfo(search, chances: Chances(score: score))
                            guard let line = info.line(dialect, numbering) else {
                                #expect(dialect == .ucci && (bound != .exact || multiPV > 1))
                                continue
                            }
                            var read = try #require(EngineInfo(parsing: line, dialect: dialect, numbering: numbering))
                            read.receivedAt = info.receivedAt
                            var expected = info
                            if dialect == .ucci {
                                // UCCI has no seldepth, multipv or hashfull; its scores stop at ±9000.
                                expected.selectiveDepth = nil
                                expected.multiPV = nil
                                expected.hashfull = nil
                                if case .centipawns(let cp) = info.score { expected.score = .centipawns(max(-9000, min(9000, cp))) }
                            }
                            #expect(read == expected, "\(line)")
                        }
                    }
                }
            }
        }
    }

    @Test func bestMoveLinesAreWrittenAndRead() throws {
        let move = Move(iccs: "h2e2")!, reply = Move(iccs: "h9g7")!
        #expect(BestMoveLine(move: move, ponderMove: reply, draw: true).line(.ucci) == "bestmove h2e2 ponder h9g7 draw")
        #expect(BestMoveLine(move: move, ponderMove: reply, draw: true).line(.uci, .oneBased) == "bestmove h3e3 ponder h10g8")
        #expect(BestMoveLine(move: nil).line(.ucci) == "nobestmove")
        #expect(BestMoveLine(move: nil).line(.uci) == "bestmove (none)")
        for dialect in [EngineDialect.ucci, .uci] {
            for numbering in [RankNumbering.zeroBased, .oneBased] {
                for answer in [BestMoveLine(move: move), BestMoveLine(move: move, ponderMove: reply),
                               BestMoveLine(move: move, draw: dialect == .ucci), BestMoveLine(move: nil)] {
                    #expect(BestMoveLine(parsing: answer.line(dialect, numbering), numbering: numbering) == answer)
                }
            }
        }
        let unreadable = try #require(BestMoveLine(parsing: "bestmove z9z9 ponder h9g7", numbering: .zeroBased))
        #expect(unreadable.move == nil && unreadable.unreadableMove == "z9z9" && unreadable.ponderMove == reply)
        #expect(BestMoveLine(parsing: "bestmove 0000", numbering: .zeroBased) == BestMoveLine(move: nil))
        #expect(BestMoveLine(parsing: "bestmove", numbering: .zeroBased) == BestMoveLine(move: nil))
        #expect(BestMoveLine(parsing: "bestmoves h2e2", numbering: .zeroBased) == nil)
        #expect(BestMoveLine(parsing: "info depth 1", numbering: .zeroBased) == nil)
    }

    /// A `go` line written by the client reads back as the same command in the session,
    /// and both kinds of clock give the same search limits.
    @Test func goLinesSurviveARoundTrip() {
        var uci = GoCommand()
        uci.depth = 12
        uci.nodes = 40_000
        uci.moveTime = 900
        uci.redTime = 61_000
        uci.blackTime = 59_500
        uci.redIncrement = 600
        uci.blackIncrement = 500
        uci.movesToGo = 20
        uci.ponder = true
        uci.searchMoves = ["h2e2", "b2e2"]
        let uciLine = uci.line(.uci, sideToMove: .black)
        #expect(uciLine == "go ponder depth 12 nodes 40000 movetime 900 wtime 61000 btime 59500 winc 600 binc 500 movestogo 20 searchmoves h2e2 b2e2")
        #expect(GoCommand(uciLine.split(separator: " ").dropFirst().map(String.init)) == uci)

        var ucci = GoCommand()
        ucci.ownTime = 59_500
        ucci.ownIncrement = 500
        ucci.opponentTime = 61_000
        ucci.opponentIncrement = 600
        ucci.draw = true
        ucci.depthZero = true
        let ucciLine = ucci.line(.ucci, sideToMove: .black)
        #expect(ucciLine == "go depth 0 time 59500 increment 500 opptime 61000 oppincrement 600 draw")
        #expect(GoCommand(ucciLine.split(separator: " ").dropFirst().map(String.init)) == ucci)
        // UCI clocks written for UCCI (and back) are the same clock for the side to move.
        let crossed = GoCommand(uci.line(.ucci, sideToMove: .black).split(separator: " ").dropFirst().map(String.init))
        #expect(crossed.ownTime == 59_500 && crossed.ownIncrement == 500 && crossed.opponentTime == 61_000)
        #expect(crossed.limits(for: .black, base: SearchLimits()).clock == uci.limits(for: .black, base: SearchLimits()).clock)
        #expect(GoCommand(["infinite"]).line(.uci, sideToMove: .red) == "go infinite")
        // Seconds in UCCI without usemillisec.
        #expect(GoCommand(["time", "30", "increment", "2"], secondsScale: 1000).ownTime == 30_000)
    }

    @Test func scoresReadBackFromGameRecords() {
        for score in [EngineScore.centipawns(43), .centipawns(-105), .centipawns(0), .mate(3), .mate(-2)] {
            #expect(EngineScore(text: score.description) == score)
        }
        #expect(EngineScore(text: "0.43") == nil && EngineScore(text: "+M") == nil && EngineScore(text: "+1.5") == nil)
    }

    @Test func positionLinesReadAndWriteInBothForms() {
        func read(_ line: String) -> (PositionCommand?, String?) {
            var message: String?
            let command = PositionCommand(line.split(separator: " ").map(String.init).dropFirst().map { $0 }, message: &message)
            return (command, message)
        }
        let fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
        let cases: [(String, PositionCommand)] = [
            ("position startpos", PositionCommand(start: .startPosition)),
            ("position startpos moves h2e2 h9g7", PositionCommand(start: .startPosition, moveWords: ["h2e2", "h9g7"])),
            ("position fen \(fen)", PositionCommand(start: .fen(fen))),
            ("position fen \(fen) moves e0e1", PositionCommand(start: .fen(fen), moveWords: ["e0e1"])),
        ]
        for (line, expected) in cases {
            let (command, message) = read(line)
            #expect(command == expected && message == nil, "\(line)")
            #expect(command?.line == line)
        }
        // Case-insensitive keywords; a FEN without moves; "moves" with none after it.
        #expect(read("position STARTPOS MOVES").0 == PositionCommand(start: .startPosition))
        #expect(read("position fen").0 == PositionCommand(start: .fen("")))
        // Neither form: no command, and why.
        let (none, why) = read("position")
        #expect(none == nil && why == "position needs 'startpos' or 'fen <FEN>'; position unchanged")
        let (other, whyOther) = read("position moves h2e2")
        #expect(other == nil && whyOther == "position needs 'startpos' or 'fen <FEN>', not 'moves'; position unchanged")
    }

    @Test func setOptionLinesReadBothGrammarsAndWriteEither() {
        func words(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }
        #expect(SetOptionCommand(words("name Skill Level value 5")) == SetOptionCommand(name: "Skill Level", value: "5"))
        #expect(SetOptionCommand(words("NAME Clear Hash")) == SetOptionCommand(name: "Clear Hash", value: ""))
        #expect(SetOptionCommand(words("name BookFile value /tmp/a b.sqlite")) == SetOptionCommand(name: "BookFile", value: "/tmp/a b.sqlite"))
        #expect(SetOptionCommand(words("hashsize 64")) == SetOptionCommand(name: "hashsize", value: "64"))
        #expect(SetOptionCommand(words("usebook")) == SetOptionCommand(name: "usebook", value: ""))
        #expect(SetOptionCommand([]) == nil && SetOptionCommand(["name"]) == nil && SetOptionCommand(words("name value 3")) == nil)
        let option = SetOptionCommand(name: "Hash", value: "16")
        #expect(option.line(.uci) == "setoption name Hash value 16" && option.line(.ucci) == "setoption Hash 16")
        #expect(SetOptionCommand(words(option.line(.uci)).dropFirst().map { $0 }) == option)
        #expect(SetOptionCommand(words(option.line(.ucci)).dropFirst().map { $0 }) == option)
    }
}
