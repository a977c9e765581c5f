import Foundation
import Testing

/// Runs the built binary with `arguments`; returns its exit status, standard output and error.
func runOurBinary(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ourBinary)
    process.arguments = arguments
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(getpid())-\(name)").path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite(.serialized) struct CommandTests {
    /// 2,000 mutated protocol lines (both dialects) against the real binary: after every batch
    /// of 200 it answers isready and returns a legal move from a depth-3 search, its pv lines
    /// legal too. `.ci/run` runs 20,000 lines against the release binary, and
    /// bench/scripts/fuzz.sh the long run (1,000,000 lines).
    @Test func theEngineSurvivesTwoThousandFuzzedProtocolLines() throws {
        let run = try runOurBinary(["fuzz", "--lines", "2000", "--seed", "2026", "--timeout", "300"])
        #expect(run.status == 0, "\(run.output)")
        let last = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("{") })
        let summary = try #require(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["lines"] as? Int == 2_000 && summary["checks"] as? Int == 10)
        #expect(summary["crashes"] as? Int == 0 && summary["hangs"] as? Int == 0 && summary["failures"] as? Int == 0)
    }


    @Test func suiteReportsEachPositionSkipsBadLinesAndSummarises() throws {
        let file = try temporaryFile("suite.epd", """
        3a1ab2/4k2P1/9/5P3/9/9/9/n8/4A4/2p1KA3 b - - 0 1; bm a2c1; id "mate-1"; dm 1;
        this is not a FEN; bm h2e2
        3ak4/4a4/4P4/9/5r3/P3Rn3/8P/9/3K5/9 b - - 0 1; bm e8d7; id "a poor best move";
        """)
        // The second line's "best move" is a passive advisor step where black wins material at
        // once (f4h3, +3.6 at depth 4): whatever its strength, the engine fails it.
        let text = try runOurBinary(["suite", file, "--depth", "4"])
        #expect(text.status == 0)
        #expect(text.error.contains("\(file):2: bad FEN"))
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("mate-1") && lines[0].contains("solved") && lines[0].contains("a2c1"))
        #expect(lines[1].contains("a poor best move") && lines[1].contains("failed"))
        #expect(lines[2].hasSuffix("solved 1/2 (50.0%), 1 lines skipped"))

        let json = try runOurBinary(["suite", file, "--nodes", "5000", "--json"])
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["solved"] as? Int == 1 && document["total"] as? Int == 2 && document["skippedLines"] as? Int == 1)
        let positions = try #require(document["positions"] as? [[String: Any]])
        #expect(positions.map { $0["id"] as? String } == ["mate-1", "a poor best move"])
        #expect(positions[0]["move"] as? String == "a2c1" && positions[0]["score"] as? String == "+M1")

        // Bad arguments and files are refused with a message, not a crash.
        #expect(try runOurBinary(["suite", file]).error.contains("give exactly one of"))
        #expect(try runOurBinary(["suite", "/nonexistent.epd", "--depth", "1"]).error.contains("cannot read /nonexistent.epd"))
        let broken = try runOurBinary(["suite", file, "--depth", "1", "--engine", "/nonexistent/engine"])
        #expect(broken.status != 0 && broken.error.contains("launch failed"))
    }

    @Test func matchPlaysReportsAndWritesRecords() throws {
        let pgn = FileManager.default.temporaryDirectory.appendingPathComponent("\(getpid())-match.pgn").path
        let engine = "\(ourBinary) proto=uci notation=iccs opt.OwnBook=false"
        let run = try runOurBinary(["match", "--engine", engine + " name=one", "--engine", engine + " name=two",
                                    "--games", "2", "--nodes", "300", "--max-plies", "30", "--pgn", pgn])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("game ") }.count == 2)
        #expect(run.output.contains("A = one   B = two   nodes 300, 2 games"))
        #expect(run.output.contains("Terminations: max plies 2"))
        // Each engine as it named itself, with its evaluation, in the report, the JSON and the PGN.
        let described = try #require(lines.first { $0.hasPrefix("A is ") }.map { String($0.dropFirst(5)) })
        #expect(described.hasPrefix("Xiangqi ") && described.contains("; network ") && described.hasSuffix(" from <built-in>"))
        #expect(lines.contains { $0 == "B is \(described)" })
        let last = try #require(lines.last { $0.hasPrefix("{") })
        let summary = try #require(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["games"] as? Int == 2 && summary["d"] as? Int == 2)
        #expect(summary["a_engine"] as? String == described && summary["b_engine"] as? String == described)
        let records = try String(contentsOfFile: pgn, encoding: .utf8)
        #expect(records.components(separatedBy: "[Event ").count == 3)
        #expect(records.components(separatedBy: "[RedEngine \"\(described)\"]").count == 3)
        #expect(records.components(separatedBy: "[BlackEngine \"\(described)\"]").count == 3)
        #expect(records.contains("[Termination \"max plies\"]") && records.contains("[PlyCount \"30\"]"))

        // Resuming: the two games recorded count, two more are played and appended.
        let resumed = try runOurBinary(["match", "--engine", engine + " name=one", "--engine", engine + " name=two",
                                        "--games", "4", "--nodes", "300", "--max-plies", "30", "--pgn", pgn, "--resume"])
        #expect(resumed.status == 0)
        #expect(resumed.output.split(separator: "\n").filter { $0.hasPrefix("game ") }.map { $0.prefix(7) } == ["game 3:", "game 4:"])
        #expect(resumed.output.contains("nodes 300, 4 games") && resumed.output.contains("Terminations: max plies 4"))
        #expect(resumed.output.contains("Resumed after 2 games read from \(pgn)"))
        #expect(!resumed.output.contains("Warning"))
        // Resumed with another evaluation: the report says the earlier games were not its own.
        let other = try runOurBinary(["match", "--engine", engine + " name=one 'opt.Use NNUE=false'", "--engine", engine + " name=two",
                                      "--games", "4", "--nodes", "300", "--max-plies", "30", "--pgn", pgn, "--resume"])
        #expect(other.output.contains("Warning: 4 resumed games were played by other engines than this run's"), "\(other.output)")
        let all = try String(contentsOfFile: pgn, encoding: .utf8)
        #expect(all.components(separatedBy: "[Event ").count == 5 && all.contains("[Round \"4\"]"))
        try (all + "[Event \"x\"]\n[Round \"5\"]\n[Result \"1-0\"]\n\n1. a0a5 1-0\n").write(toFile: pgn, atomically: true, encoding: .utf8)
        let refused = try runOurBinary(["match", "--engine", engine, "--engine", engine, "--games", "8", "--nodes", "300",
                                        "--pgn", pgn, "--resume"])
        #expect(refused.status != 0 && refused.error.contains("cannot resume: game 5: illegal or unreadable move a0a5"))
        #expect(try runOurBinary(["match", "--engine", engine, "--engine", engine, "--nodes", "10", "--resume"])
            .error.contains("--resume needs"))

        let bad = try runOurBinary(["match", "--engine", engine, "--engine", "/nonexistent/engine", "--nodes", "10"])
        #expect(bad.status != 0 && bad.error.contains("the match could not start: launch failed"))
        #expect(try runOurBinary(["match", "--engine", engine, "--nodes", "10"]).error.contains("exactly two --engine"))
        // Non-regression bounds are negative: "-10" is a bound, not an option.
        let nonRegression = try runOurBinary(["match", "--engine", engine, "--engine", engine, "--games", "2", "--nodes", "300",
                                              "--max-plies", "20", "--sprt", "-10", "5"])
        #expect(nonRegression.status == 0, "\(nonRegression.error)")
        #expect(nonRegression.output.contains("SPRT [-10.0, 5.0] (pentanomial)"))
        #expect(try runOurBinary(["match", "--engine", engine, "--engine", engine, "--nodes", "10", "--sprt", "5", "-10"])
            .error.contains("ELO0 < ELO1"))
        #expect(try runOurBinary(["match", "--engine", engine, "--engine", engine, "--tc", "fast"]).error.contains("--tc must be"))
    }
}

/// `review`: a table, JSON, annotated PGN; an unreadable game named with its move, the others
/// reviewed, status 1.
@Test func reviewJudgesGamesAndNamesTheBadOne() throws {
    let games = try temporaryFile("review.pgn", """
    [Event "chariot lost"]
    [Red "R"]
    [Black "B"]
    [FEN "5k3/9/9/9/9/4p4/9/9/9/R2K5 w - - 0 1"]
    [Result "0-1"]

    1. a0a4 f9f8 2. a4d4 e4d4 0-1

    [Event "broken"]
    [Result "1-0"]

    1. h2e2 h9g7 2. h0g2 xx 1-0
    """)
    let annotated = games + ".annotated.pgn"
    let json = try runOurBinary(["review", games, "--depth", "8", "--json", "-o", annotated])
    #expect(json.status == 1)
    #expect(json.error.split(separator: "\n").count == 1)
    #expect(json.error.contains("game 2 (line 9): move 2 for Black (ply 4) 'xx'"), "\(json.error)")
    let lines = json.output.split(separator: "\n")
    #expect(lines.count == 1)
    let document = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(document["game"] as? Int == 1 && document["plies"] as? Int == 4 && document["result"] as? String == "0-1")
    let red = try #require(document["red"] as? [String: Any]), moves = try #require(document["moves"] as? [[String: Any]])
    #expect(red["blunder"] as? Int == 1 && red["moves"] as? Int == 2)
    #expect(moves.count == 4 && moves[2]["move"] as? String == "a4d4" && moves[2]["class"] as? String == "blunder")
    let pgn = try String(contentsOfFile: annotated, encoding: .utf8)
    #expect(pgn.contains("[FEN \"5k3/9/9/9/9/4p4/9/9/9/R2K5 w - - 0 1\"]") && pgn.contains("[Annotator \"Xiangqi "))
    #expect(pgn.contains("a4d4??") && pgn.contains("blunder; best ") && pgn.hasSuffix("0-1\n\n"))
    // The annotated file is a game file again: reviewed once more, the same moves and judgement.
    let again = try runOurBinary(["review", annotated, "--depth", "8"])
    #expect(again.status == 0, "\(again.error)")
    #expect(again.output.contains("Red: accuracy") && again.output.contains("1 blunder"), "\(again.output)")
    #expect(again.output.split(separator: "\n").filter { $0.contains("a4d4") && $0.contains("blunder") }.count == 1)
}

/// A bad argument is a usage error (status 64, with usage); bad data (FEN, move, file, book)
/// is a run-time error: one line on standard error naming it, status 1, no usage.
@Suite struct CommandErrorTests {
    @Test(arguments: [
        (["moves", "--fen", "not a fen"], "invalid FEN"),
        (["moves", "--moves", "h2e2 z9z9"], "'z9z9' is not a legal move"),
        (["perft", "2", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"], "invalid FEN"),
        (["book", "probe", "--book", "/nonexistent/book.sqlite"], "/nonexistent/book.sqlite"),
        (["suite", "/nonexistent.epd", "--depth", "1"], "cannot read /nonexistent.epd"),
        (["review", "/nonexistent.pgn"], "cannot read /nonexistent.pgn"),
    ])
    func badDataIsARunTimeError(_ arguments: [String], _ message: String) throws {
        let run = try runOurBinary(arguments)
        #expect(run.status == 1)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: ") && lines[0].contains(message), "\(run.error)")
        #expect(!run.error.contains("Usage"))
    }

    @Test(arguments: [["perft", "99"], ["moves", "--nonsense"], ["suite", "x.epd"], ["review", "x.pgn", "--nodes", "5", "--depth", "3"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let run = try runOurBinary(arguments)
        #expect(run.status == 64)
        #expect(run.error.contains("Usage"), "\(run.error)")
    }

    @Test func versionIsListedInTheHelp() throws {
        let run = try runOurBinary(["--help"])
        #expect(run.status == 0 && run.output.contains("--version"))
    }
}

/// Composed problems place pieces where no game brings them; `suite` reads and solves them.
@Test func suiteSolvesAComposedProblem() throws {
    // A Jiang Hu ending with a black soldier on its own back rank: mate in 2 for Red.
    let file = try temporaryFile("composed.epd", """
    3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1; bm g5g9 h5h9; id "composed"; dm 2;
    """)
    let run = try runOurBinary(["suite", file, "--depth", "5"])
    #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
    #expect(run.output.contains("solved 1/1"), "\(run.output)")
}
