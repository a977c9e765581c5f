import Foundation
import Testing
import XiangqiCore
@testable import XiangqiClient

/// The built `xiangqi` binary (the test target depends on it, so it is built first).
let ourBinary: String = {
    let candidates = [
        Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("xiangqi"),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("xiangqi"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/xiangqi"),
    ].compactMap { $0 }
    return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]).path
}()

/// A fake engine: a shell script that speaks enough UCI to start, then misbehaves on `go` as
/// `onGo` says (shell commands; `$n` counts the `go` commands so far).
func fakeEngine(_ name: String, onGo: String, onStart: String = "") throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fake-\(name)-\(getpid()).sh").path
    let script = """
    #!/bin/sh
    \(onStart)
    n=0
    while IFS= read -r line; do
      case "$line" in
        uci) echo "id name Fake \(name)"; echo "uciok" ;;
        isready) echo "readyok" ;;
        go*) n=$((n+1)); \(onGo) ;;
        quit) exit 0 ;;
      esac
    done
    """
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
}

@Suite(.serialized) struct EngineClientTests {
    #if canImport(Glibc)
    /// An engine starts at the runner's own nice value (what `nice` gave it), not at that of
    /// the thread that starts it: on Linux a child takes its starting thread's, and Dispatch
    /// raises its workers' (to -2 or -4 as root), which put engines ahead of a `nice` runner
    /// and of anything beside a match. Here a thread made nicer than the process starts
    /// `nice`, which prints the value it runs at.
    @Test func enginesStartAtTheProcessNiceValue() async throws {
        final class Started: @unchecked Sendable {
            var child: ChildProcess?
            var threadNice: Int32 = 0
            let done = DispatchSemaphore(value: 0)
        }
        let byProcess = __priority_which_t(PRIO_PROCESS.rawValue)
        let processNice = getpriority(byProcess, id_t(getpid()))
        try #require(processNice <= 16, "the test process already runs at nice \(processNice)")
        let started = Started()
        #expect(startThread(stackSize: 1 << 20, runHereIfNoThread: false) {
            _ = setpriority(byProcess, 0, processNice + 3)
            started.threadNice = getpriority(byProcess, 0)
            started.child = try? ChildProcess(executable: "nice", arguments: [])
            started.done.signal()
        })
        started.done.wait()
        #expect(started.threadNice == processNice + 3)
        let child = try #require(started.child)
        let event = await child.lines.next(until: .now + .seconds(30))
        guard case .line(let text, _) = event else {
            Issue.record("no line from nice: \(event)")
            return
        }
        #expect(text.trimmingCharacters(in: .whitespaces) == "\(processNice)")
        _ = await child.terminate(grace: .seconds(5))
    }
    #endif

    @Test func ourEngineIsDrivenInBothDialects() async throws {
        // No dialect given: UCCI is tried first, and this engine answers it.
        let auto = try EngineClient(specification: "\(ourBinary) opt.usebook=false")
        let identity = try await auto.start()
        #expect(identity.dialect == .ucci && identity.rankNumbering == .zeroBased && identity.name.hasPrefix("Xiangqi"))
        #expect(identity.options.contains("hashsize"))
        // It says what it is: id name and the evaluation (the built-in network).
        #expect(identity.idName?.hasPrefix("Xiangqi ") == true)
        let evaluation = try #require(identity.evaluation)
        #expect(evaluation.hasPrefix("network ") && evaluation.hasSuffix(" from <built-in>") && evaluation.count == 40)
        #expect(identity.summary == "\(identity.idName!); \(evaluation)")
        // It took its one option without a word.
        #expect(identity.optionMessages.isEmpty)
        var game = Game()
        try game.play("h2e2")
        let reply = try await auto.search(from: game.startPosition, moves: game.moves, limits: EngineLimits(depth: 4))
        let move = try #require(reply.move)
        #expect(game.position.isLegal(move))
        #expect(reply.lastInfo?.depth == 4 && reply.lastInfo?.score != nil)
        #expect(await auto.quit() == .exited(0))

        // Options it refuses or changes are reported, in either dialect, and only those.
        let refusing = try EngineClient(specification: "\(ourBinary) proto=uci opt.Nonsense=1 opt.FutilityBase=999 opt.Hash=8")
        #expect(try await refusing.start().optionMessages == [
            "info string unknown option 'Nonsense' ignored",
            "info string option FutilityBase: 999 is out of range 40-250; using 250",
        ])
        await refusing.quit()
        // Stockfish's family answers without "info string".
        #expect(EngineIdentity.optionMessages(in: ["No such option: Foo Bar", "info string NNUE evaluation using x", "readyok"],
                                              options: ["Foo Bar", "Hash"]) == ["No such option: Foo Bar"])

        let uci = EngineClient(EngineConfiguration(executable: ourBinary, dialect: .uci, options: [("OwnBook", "false")]))
        #expect(try await uci.start().dialect == .uci)
        #expect(await uci.identity?.evaluation == evaluation)
        try await uci.newGame()
        // A mate in one (from the tactics data), with a node limit.
        let mate = try Position(fen: "3a1ab2/4k2P1/9/5P3/9/9/9/n8/4A4/2p1KA3 b - - 0 1")
        let answer = try await uci.search(from: mate, moves: [], limits: EngineLimits(nodes: 20000))
        #expect(answer.move == Move(iccs: "a2c1"))
        #expect(answer.lastInfo?.score == .mate(1))
        await uci.quit()

        let handcrafted = try EngineClient(specification: "\(ourBinary) opt.usennue=false")
        #expect(try await handcrafted.start().evaluation == "handcrafted")
        await handcrafted.quit()
        // Stockfish-family engines name their network in an info string of their own.
        #expect(EngineIdentity.evaluation(in: ["info string NNUE evaluation using pikafish.nnue", "readyok"])
            == "NNUE evaluation using pikafish.nnue")
        #expect(EngineIdentity.evaluation(in: ["info string hello", "readyok"]) == nil)
    }

    @Test func anEngineThatCannotStartIsReported() async throws {
        let missing = EngineClient(EngineConfiguration(executable: "/nonexistent/engine"))
        await #expect(throws: EngineClientError.self) { try await missing.start() }
        let dying = EngineClient(EngineConfiguration(executable: try fakeEngine("dying", onGo: ":", onStart: "exit 7"),
                                                     dialect: .uci))
        do {
            try await dying.start()
            Issue.record("a dead engine started")
        } catch {
            #expect(error == .crashed("the engine exited with status 7 while waiting for uciok"))
        }
        #expect(await !dying.isRunning)
    }

    @Test func illegalMovesCrashesAndSilenceAreTypedErrors() async throws {
        let illegal = EngineClient(EngineConfiguration(executable: try fakeEngine("illegal", onGo: "echo 'bestmove e0e2'"),
                                                       dialect: .uci, rankNumbering: .zeroBased))
        try await illegal.start()
        await #expect(throws: EngineClientError.illegalMove("'e0e2' is not legal in \(Position.startFEN)")) {
            try await illegal.search(from: .start, moves: [], limits: EngineLimits(moveTime: 10))
        }
        #expect(await illegal.isRunning)  // an illegal move leaves the engine running
        await illegal.quit()

        // Crashes on its second search: the first is answered, the second is a crash with the
        // exit status, and a restart brings it back.
        let crashing = EngineClient(EngineConfiguration(
            executable: try fakeEngine("crash", onGo: "if [ $n -ge 2 ]; then kill -SEGV $$; fi; echo 'bestmove h2e2'"),
            dialect: .uci, rankNumbering: .zeroBased))
        try await crashing.start()
        #expect(try await crashing.search(from: .start, moves: [], limits: EngineLimits(depth: 1)).move == Move(iccs: "h2e2"))
        do {
            _ = try await crashing.search(from: .start, moves: [], limits: EngineLimits(depth: 1))
            Issue.record("no crash reported")
        } catch {
            #expect(error == .crashed("the engine killed by signal 11 (segmentation fault) while searching"))
        }
        await #expect(throws: EngineClientError.notRunning) {
            try await crashing.search(from: .start, moves: [], limits: EngineLimits(depth: 1))
        }
        try await crashing.restart()
        #expect(try await crashing.search(from: .start, moves: [], limits: EngineLimits(depth: 1)).move == Move(iccs: "h2e2"))
        await crashing.quit()

        // Never answers, not even to stop: a hang after the move time and two grace periods.
        let silent = EngineClient(EngineConfiguration(executable: try fakeEngine("silent", onGo: ":"), dialect: .uci,
                                                      rankNumbering: .zeroBased))
        await silent.setTimeouts(stopGrace: .milliseconds(100))
        try await silent.start()
        let clock = ContinuousClock(), started = clock.now
        do {
            _ = try await silent.search(from: .start, moves: [], limits: EngineLimits(moveTime: 50))
            Issue.record("no hang reported")
        } catch {
            guard case .timedOut = error else { throw error }
        }
        #expect(clock.now - started >= .milliseconds(250))
        #expect(await !silent.isRunning)  // killed
    }

    @Test func ranksOneToTenAreDetectedAndConverted() async throws {
        // Answers in ranks 1-10: the probe (go depth 1 from the start) gets h3e3, then every
        // move is converted both ways.
        let path = try fakeEngine("uci10", onGo: "echo 'info depth 1 score cp 10 pv h3e3 h10g8'; echo 'bestmove h3e3 ponder h10g8'")
        let client = EngineClient(EngineConfiguration(executable: path, dialect: .uci))
        #expect(try await client.start().rankNumbering == .oneBased)
        let reply = try await client.search(from: .start, moves: [], limits: EngineLimits(depth: 1))
        #expect(reply.move == Move(iccs: "h2e2") && reply.ponderMove == Move(iccs: "h9g7"))
        #expect(reply.lastInfo?.principalVariation == [Move(iccs: "h2e2")!, Move(iccs: "h9g7")!])
        await client.quit()
    }
}

@Suite(.serialized) struct MatchRunnerTests {
    @Test func twoInstancesOfOurEnginePlayAMatchAdjudicatedByTheRules() async throws {
        let spec = try EngineConfiguration(specification: "\(ourBinary) proto=uci notation=iccs opt.OwnBook=false")
        let (openings, _) = OpeningFile.parse("h2e2 h9g7\nc3c4 b9c7\n", name: "t")
        var settings = MatchSettings(games: 4, timeControl: .nodes(400), openings: openings)
        settings.concurrency = 2
        settings.maxPlies = 160
        let summary = try await MatchRunner(first: spec, second: spec, settings: settings).run()
        #expect(summary.games.count == 4 && summary.abortReason == nil)
        #expect(summary.games.map(\.number) == [1, 2, 3, 4])
        #expect(summary.games.map(\.firstIsRed) == [true, false, true, false])
        #expect(summary.games.map(\.opening.name) == ["t:1", "t:1", "t:2", "t:2"])
        let stats = summary.statistics()
        #expect(stats.games == 4)
        for record in summary.games {
            // Replay the record and judge it again: the runner's verdict must be the rules'.
            var game = Game(record.opening.start)
            for m in record.moves { try game.play(m.move) }
            #expect(game.position.fen == record.finalFEN)
            #expect(record.moves.prefix(2).allSatisfy { !$0.searched })
            switch game.status() {
            case .ongoing:
                #expect(record.reason == "max plies" && record.result == .draw && game.moves.count == 160)
            case .win(let winner, let reason):
                #expect(record.result == (winner == .red ? .redWins : .blackWins))
                #expect(record.reason.hasPrefix(reason.rawValue))
            case .draw(let reason):
                #expect(record.result == .draw && record.reason == reason.rawValue)
            }
            let pgn = record.pgn(timeControl: settings.timeControl)
            #expect(pgn.contains("[Result \"\(record.result.rawValue)\"]") && pgn.contains("[Termination \"\(record.reason)\"]"))
            #expect(pgn.contains("1. \(record.moves[0].move.iccs) {book}"))
        }

        // The records read back as they were written (what `xiangqi match --resume` relies on).
        let text = summary.games.map { $0.pgn(timeControl: settings.timeControl) + "\n" }.joined()
        let (read, errors) = GameRecord.records(fromPGN: text)
        #expect(errors.isEmpty && read.count == 4)
        for (a, b) in zip(summary.games, read) {
            #expect(a.number == b.number && a.firstIsRed == b.firstIsRed && a.result == b.result && a.reason == b.reason)
            #expect(a.finalFEN == b.finalFEN && a.opening.name == b.opening.name && a.opening.moves == b.opening.moves)
            #expect(a.moves.map(\.move) == b.moves.map(\.move) && a.moves.map(\.searched) == b.moves.map(\.searched))
            #expect(a.moves.map(\.score) == b.moves.map(\.score) && a.moves.map(\.milliseconds) == b.moves.map(\.milliseconds))
            #expect(a.moves.map { $0.searched ? $0.depth : nil } == b.moves.map(\.depth))
        }
        #expect(PairStatistics(games: read) == summary.pairStatistics)
        // A damaged record is refused with its game and reason, never guessed.
        let damaged = text.replacingOccurrences(of: "[Round \"3\"]", with: "[Round \"x\"]")
            .replacingOccurrences(of: "1. h2e2 {book} h9g7 {book} 2. ", with: "1. h2e2 {book} h9h0 {book} 2. ")
        let (kept, refused) = GameRecord.records(fromPGN: damaged)
        #expect(kept.count == 1 && refused.map(\.game) == [1, 2, 3])
        #expect(refused[0].message.hasPrefix("illegal or unreadable move h9h0 at ply 2"))
        #expect(refused[2].message == "no game number (Round tag)")
    }

    @Test func misbehavingEnginesLoseWithTheReasonAndAreRestarted() async throws {
        let ours = try EngineConfiguration(specification: "\(ourBinary) proto=uci notation=iccs opt.OwnBook=false")
        func fake(_ name: String, _ onGo: String) throws -> EngineConfiguration {
            EngineConfiguration(executable: try fakeEngine(name, onGo: onGo), dialect: .uci, rankNumbering: .zeroBased)
        }
        // Generous limits for our engine, so that a loaded machine cannot make it lose too.
        let settings = MatchSettings(games: 2, timeControl: .moveTime(30))
        // The fake answers every search with a king move of two squares.
        let illegal = try await MatchRunner(first: try fake("m-illegal", "echo 'bestmove e0e2'"), second: ours,
                                            settings: settings).run()
        #expect(illegal.games.map(\.reason) == ["illegal move by Red: 'e0e2' is not legal in \(Position.startFEN)",
                                                "illegal move by Black: 'e0e2' is not legal in "
                                                + "\(illegal.games[1].finalFEN)"])
        #expect(illegal.statistics() == MatchStatistics(wins: 0, draws: 0, losses: 2))

        let crash = try await MatchRunner(first: try fake("m-crash", "exit 1"), second: ours, settings: settings).run()
        #expect(crash.games.map(\.reason) == ["crash by Red: the engine exited with status 1 while searching",
                                              "crash by Black: the engine exited with status 1 while searching"])
        #expect(crash.abortReason == nil)  // restarted for the second game

        var quick = MatchSettings(games: 2, timeControl: .depth(1))
        quick.unboundedMoveTimeout = .seconds(1)
        quick.stopGrace = .milliseconds(200)
        let silent = try await MatchRunner(first: try fake("m-silent", ":"), second: ours, settings: quick).run()
        #expect(silent.games.map(\.reason) == ["hang by Red", "hang by Black"])
        #expect(silent.statistics().losses == 2)

        var clock = settings
        clock.timeControl = .clock(base: 100, increment: 0)
        clock.timeMargin = 0
        clock.stopGrace = .seconds(2)  // late, not hung
        let slow = try await MatchRunner(first: try fake("m-slow", "sleep 0.3; echo 'bestmove h2e2'"), second: ours,
                                         settings: clock).run()
        #expect(slow.games.first?.reason == "time forfeit by Red")
    }
}

/// The fuzzer sets the options an engine announces: their lines read in both dialects.
@Suite struct AnnouncedOptionTests {
    @Test func optionLinesOfBothDialectsAreRead() {
        let lines: [(String, AnnouncedOption?)] = [
            ("option name Skill Level type spin default 20 min 0 max 20", AnnouncedOption(name: "Skill Level", kind: .spin(0...20))),
            ("option hashsize type spin min 1 max 4096 default 16", AnnouncedOption(name: "hashsize", kind: .spin(1...4096))),
            ("option name Contempt type spin default 0 min -100 max 100", AnnouncedOption(name: "Contempt", kind: .spin(-100...100))),
            ("option name Use NNUE type check default true", AnnouncedOption(name: "Use NNUE", kind: .check)),
            ("option style type combo var solid var normal var risky default normal",
             AnnouncedOption(name: "style", kind: .combo(["solid", "normal", "risky"]))),
            ("option name UCI_Variant type combo default xiangqi var xiangqi", AnnouncedOption(name: "UCI_Variant", kind: .combo(["xiangqi"]))),
            ("option name BookFile type string default <built-in>", AnnouncedOption(name: "BookFile", kind: .string)),
            ("option name Clear Hash type button", AnnouncedOption(name: "Clear Hash", kind: .button)),
            ("option newgame type button", AnnouncedOption(name: "newgame", kind: .button)),
            // Not options, or not readable ones.
            ("id name Xiangqi", nil), ("option name type spin", nil), ("option name X type", nil),
            ("option name X type slider", nil), ("optional name X type check", nil),
        ]
        for (line, expected) in lines {
            #expect(AnnouncedOption(line: line) == expected, "\(line)")
        }
        // A spin whose bounds are missing or reversed still gives a valid range.
        #expect(AnnouncedOption(line: "option name N type spin min 5 max 2")?.kind == .spin(5...5))
    }
}
