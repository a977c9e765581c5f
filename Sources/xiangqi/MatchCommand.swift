import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiClient
import XiangqiCore

/// Set by SIGINT or SIGTERM: no new game starts; the report covers the games played.
nonisolated(unsafe) private var matchInterrupted: sig_atomic_t = 0

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Play a match between two UCCI/UCI engines, adjudicated by this engine's rules.",
        discussion: """
        Each opening is played twice, colours swapped (default opening: the start position). Games end \
        by checkmate, stalemate, the repetition rules (perpetual check or chase loses), the move limit, \
        insufficient material or --max-plies; an illegal move, a time forfeit, a crash or a hang loses \
        the game with its reason, and a crashed or hung engine is restarted. Prints W/D/L per colour, \
        the score, Elo with a 95% margin, the likelihood of superiority, with --sprt the log-likelihood \
        ratio over game pairs (pentanomial) and a verdict, then one JSON line. Engine specs: a command plus key=value words (name=, \
        proto=auto|ucci|uci, notation=auto|iccs|uci10, fen=auto|nb|he, opt.NAME=VALUE). SIGINT or SIGTERM \
        ends the match after the games in progress, with the report of the games played.

        Example: xiangqi match --engine ./xiangqi --engine ./other --tc 10+0.1 --games 100 --concurrency 2
        """
    )

    @Option(name: .customLong("engine"), help: "An engine command and settings; give exactly two.")
    var engines: [String] = []

    @Option(help: "Games to play.")
    var games = 2

    @OptionGroup var limit: MoveLimitOptions

    @Option(help: "Clock per side as BASE+INC in seconds, e.g. 5+0.05.")
    var tc: String?

    @Option(help: "Openings: a line each, moves from the start or 'FEN [; moves]'.")
    var openings: String?

    @Option(help: "Games played at once (each with its own pair of engine processes).")
    var concurrency = 1

    @Option(help: "Write the game records here (PGN-style text, ICCS moves).")
    var pgn: String?

    @Option(parsing: .upToNextOption, help: "SPRT bounds ELO0 ELO1: stop when a hypothesis is accepted (alpha = beta = 0.05).")
    var sprt: [Double] = []

    @Option(help: "Draw a game still going after this many plies.")
    var maxPlies = 400

    @Option(help: "No-capture limit in moves per side (60, as in UCCI; Fairy-Stockfish's UCI mode uses 50).")
    var moveLimit = 60

    @Option(help: "Milliseconds a clock may go below zero before a time forfeit.")
    var timeMargin = 20

    @Flag(name: .shortAndLong, help: "No line per game.")
    var quiet = false

    @Flag(help: "Go on with the match recorded in the --pgn file (same engines and settings): its games count, new games are appended.")
    var resume = false

    func validate() throws {
        guard engines.count == 2 else { throw ValidationError("give exactly two --engine options") }
        try limit.check(others: tc == nil ? 0 : 1, names: "--movetime, --tc, --depth or --nodes")
        if let tc, TimeControl(clock: tc) == nil { throw ValidationError("--tc must be BASE+INC in seconds, e.g. 5+0.05") }
        guard games >= 1 else { throw ValidationError("--games must be at least 1") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64") }
        guard sprt.isEmpty || (sprt.count == 2 && sprt[0] < sprt[1]) else {
            throw ValidationError("--sprt takes two Elo values, ELO0 < ELO1")
        }
        guard moveLimit >= 1 else { throw ValidationError("--move-limit must be at least 1") }
        guard maxPlies >= 1, timeMargin >= 0 else { throw ValidationError("--max-plies and --time-margin must be positive") }
        if resume && pgn == nil { throw ValidationError("--resume needs the match's --pgn file") }
    }

    func run() throws {
        let first: EngineConfiguration, second: EngineConfiguration
        do {
            first = try EngineConfiguration(specification: engines[0])
            second = try EngineConfiguration(specification: engines[1])
        } catch {
            throw CommandFailure(error.description)
        }
        let timeControl: TimeControl = tc.flatMap(TimeControl.init(clock:))
            ?? limit.movetime.map { .moveTime($0) } ?? limit.depth.map { .depth($0) } ?? .nodes(limit.nodes ?? 1)
        var settings = MatchSettings(games: games, timeControl: timeControl)
        if let openings {
            let (list, errors) = OpeningFile.parse(try readTextFile(openings), name: openings.split(separator: "/").last.map(String.init) ?? openings)
            for error in errors { errorWrite("\(openings):\(error.line): \(error.message); skipped\n") }
            guard !list.isEmpty else { throw CommandFailure("\(openings): no usable opening") }
            settings.openings = list
        }
        settings.concurrency = concurrency
        settings.maxPlies = maxPlies
        settings.moveLimit = moveLimit
        settings.timeMargin = timeMargin
        if sprt.count == 2 { settings.sprt = (sprt[0], sprt[1]) }
        signal(SIGINT) { _ in matchInterrupted = 1 }
        signal(SIGTERM) { _ in matchInterrupted = 1 }
        settings.shouldContinue = { matchInterrupted == 0 }
        var resumedGames = 0
        if resume, let pgn, access(pgn, F_OK) == 0 {
            let (previous, errors) = GameRecord.records(fromPGN: try readTextFile(pgn))
            guard errors.isEmpty else {
                throw CommandFailure("\(pgn): cannot resume: " + errors.map(\.description).joined(separator: "; "))
            }
            let numbers = previous.map(\.number).sorted()
            guard numbers == Array(1...max(1, numbers.count)) || numbers.isEmpty else {
                throw CommandFailure("\(pgn): cannot resume: the games are not numbered 1 to \(numbers.count)")
            }
            if let g = previous.first(where: { $0.opening.name != openingName(forGame: $0.number, in: settings.openings) }) {
                throw CommandFailure("\(pgn): cannot resume: game \(g.number) was played from \(g.opening.name), "
                                      + "not from this match's opening \(openingName(forGame: g.number, in: settings.openings))")
            }
            settings.previousGames = previous
            resumedGames = previous.count
        }
        let records = try pgn.map { try OutputFile(path: $0, append: resume) }
        let runner = MatchRunner(first: first, second: second, settings: settings)
        let quiet = quiet, bar = isTerminal(2), total = games, sprtBounds = settings.sprt
        let clock = ContinuousClock(), start = clock.now
        let outcome = runBlocking { () -> Result<MatchSummary, EngineClientError> in
            do throws(EngineClientError) {
                return .success(try await runner.run { game, totals, pairs in
                    records?.write(game.pgn(timeControl: timeControl) + "\n")
                    if bar { errorWrite("\r\u{1B}[K") }
                    if !quiet { emit(Self.gameLine(game)) }
                    if bar {
                        var status = "[\(totals.games)/\(total)] +\(totals.wins) =\(totals.draws) -\(totals.losses)"
                        if let e = totals.eloMargin95 { status += "  Elo \(format1(totals.elo)) ± \(format1(e))" }
                        if let s = sprtBounds { status += "  LLR \(format2(pairs.logLikelihoodRatio(elo0: s.elo0, elo1: s.elo1)))" }
                        errorWrite(status)
                    }
                })
            } catch {
                return .failure(error)
            }
        }
        if bar { errorWrite("\r\u{1B}[K") }
        switch outcome {
        case .failure(let error):
            throw CommandFailure("the match could not start: \(error)")
        case .success(let summary):
            let d = clock.now - start
            let seconds = d.inSeconds
            emit(Self.report(summary, timeControl: timeControl, sprt: settings.sprt, wallSeconds: seconds,
                              pgn: pgn))
            for (name, messages) in [(summary.firstName, summary.firstOptionMessages),
                                     (summary.secondName, summary.secondOptionMessages)] where !messages.isEmpty {
                emit("Warning: \(name) refused or changed options it was given: " + messages.joined(separator: " | "))
            }
            if resumedGames > 0 { emit("Resumed after \(resumedGames) games read from \(pgn ?? "?") (wall time of this run only)") }
            // Games resumed from a record must have been played by the same engines.
            let others = summary.games.filter { g in
                let expected = g.firstIsRed ? (summary.firstEngine, summary.secondEngine)
                                            : (summary.secondEngine, summary.firstEngine)
                return (g.redEngine.map { $0 != expected.0 } ?? false) || (g.blackEngine.map { $0 != expected.1 } ?? false)
            }
            if let g = others.first {
                emit("Warning: \(others.count) resumed games were played by other engines than this run's, "
                     + "e.g. game \(g.number): \(g.redEngine ?? "?") against \(g.blackEngine ?? "?")")
            }
            if matchInterrupted != 0 { emit("Interrupted (signal) after \(summary.games.count) of \(games) games") }
            if let reason = summary.abortReason {
                errorWrite("match stopped early: \(reason)\n")
                throw ExitCode.failure
            }
        }
    }

    /// The opening name ``MatchRunner`` gives game `number` (1-based): each opening twice.
    func openingName(forGame number: Int, in openings: [Opening]) -> String {
        openings.isEmpty ? "start" : openings[((number - 1) / 2) % openings.count].name
    }

    static func gameLine(_ g: GameRecord) -> String {
        "game \(g.number): \(g.red) - \(g.black) \(g.result.rawValue) (\(g.reason)), \(g.moves.count) plies, \(g.opening.name)"
    }

    static func report(_ s: MatchSummary, timeControl: TimeControl, sprt: (elo0: Double, elo1: Double)?,
                       wallSeconds: Double, pgn: String?) -> String {
        let total = s.statistics()
        var lines = ["", "A = \(s.firstName)   B = \(s.secondName)   \(timeControl), \(total.games) games",
                     "A is \(s.firstEngine)", "B is \(s.secondEngine)",
                     "                W    D    L   score"]
        func row(_ label: String, _ t: MatchStatistics) -> String {
            label.padded(12) + "\(t.wins)".leftPadded(5) + "\(t.draws)".leftPadded(5) + "\(t.losses)".leftPadded(5)
                + (format1(100 * t.score) + "%").leftPadded(8)
        }
        lines.append(row("A as Red", s.statistics(firstAsRed: true)))
        lines.append(row("A as Black", s.statistics(firstAsRed: false)))
        lines.append(row("total", total))
        let eloText = total.eloMargin95.map { "Elo A-B: \(signed(total.elo)) ± \(format1($0)) (95%)" }
            ?? "Elo A-B: \(total.score >= 1 ? "+inf" : total.score <= 0 ? "-inf" : signed(total.elo)) (no margin)"
        lines.append("Score A: \(format1(100 * total.score))%   \(eloText)   LOS \(format1(100 * total.likelihoodOfSuperiority))%")
        let pairs = s.pairStatistics
        let pairElo = pairs.eloMargin95.map { "Elo \(signed(pairs.elo)) ± \(format1($0)) (95%)" } ?? "no margin yet"
        lines.append("Pairs (0, ½, 1, 1½, 2 points for A): \(pairs.counts.map(String.init).joined(separator: " ")) over "
                     + "\(pairs.pairs) pairs; \(pairElo)")
        var sprtJSON = ""
        if let sprt {
            let llr = pairs.logLikelihoodRatio(elo0: sprt.elo0, elo1: sprt.elo1)
            let bounds = MatchStatistics.sprtBounds()
            let verdict = pairs.sprt(elo0: sprt.elo0, elo1: sprt.elo1)
            lines.append("SPRT [\(format1(sprt.elo0)), \(format1(sprt.elo1))] (pentanomial): LLR \(format2(llr)) "
                         + "(bounds \(format2(bounds.lower)), \(format2(bounds.upper))): \(verdict.rawValue)")
            sprtJSON = ", \"sprt\": {\"elo0\": \(sprt.elo0), \"elo1\": \(sprt.elo1), \"llr\": \(format2(llr)), "
                + "\"lower\": \(format2(bounds.lower)), \"upper\": \(format2(bounds.upper)), "
                + "\"verdict\": \(JSONText.quoted(verdict.rawValue))}"
        }
        lines.append("Terminations: " + s.reasons.map { "\($0.reason) \($0.count)" }.joined(separator: ", "))
        for (label, firstSide) in [("A", true), ("B", false)] {
            // (ply, milliseconds) of every searched move by this engine.
            let moves = s.games.flatMap { g in
                g.moves.enumerated().filter { i, m in
                    m.searched && ((i + (g.opening.start.sideToMove == .red ? 0 : 1)) % 2 == 0) == (g.firstIsRed == firstSide)
                }.map { ($0.0, Double($0.1.milliseconds)) }
            }
            let times = moves.map(\.1).sorted()
            guard !times.isEmpty else { continue }
            func mean(_ xs: [Double]) -> String { xs.isEmpty ? "-" : format1(xs.reduce(0, +) / Double(xs.count)) }
            let early = moves.filter { $0.0 < 40 }.map(\.1), late = moves.filter { $0.0 >= 40 }.map(\.1)
            lines.append("Think time \(label): mean \(mean(times)) ms, median \(format1(times[times.count / 2])), "
                         + "p95 \(format1(times[min(times.count - 1, times.count * 95 / 100)])), max \(format1(times.last!)) ms "
                         + "over \(times.count) moves; plies 0-39 mean \(mean(early)) ms, plies 40+ \(mean(late)) ms")
        }
        lines.append("Wall: \(format1(wallSeconds)) s" + (pgn.map { "; PGN: \($0)" } ?? ""))
        let reasons = s.reasons.map { "\(JSONText.quoted($0.reason)): \($0.count)" }.joined(separator: ", ")
        lines.append("{\"tool\": \"xiangqi match\", \"a\": \(JSONText.quoted(s.firstName)), \"b\": \(JSONText.quoted(s.secondName)), "
                     + "\"a_engine\": \(JSONText.quoted(s.firstEngine)), \"b_engine\": \(JSONText.quoted(s.secondEngine)), "
                     + "\"tc\": \(JSONText.quoted(timeControl.description)), \"games\": \(total.games), \"w\": \(total.wins), "
                     + "\"d\": \(total.draws), \"l\": \(total.losses), \"score\": \(format4(total.score)), "
                     + "\"elo\": \(total.eloMargin95 == nil ? "null" : format1(total.elo)), "
                     + "\"elo95\": \(total.eloMargin95.map(format1) ?? "null"), \"los\": \(format4(total.likelihoodOfSuperiority)), "
                     + "\"pentanomial\": [\(pairs.counts.map(String.init).joined(separator: ", "))], "
                     + "\"elo_pairs\": \(pairs.eloMargin95 == nil ? "null" : format1(pairs.elo)), "
                     + "\"elo95_pairs\": \(pairs.eloMargin95.map(format1) ?? "null"), "
                     + "\"reasons\": {\(reasons)}\(sprtJSON), \"wall_s\": \(format1(wallSeconds))}")
        return lines.joined(separator: "\n")
    }
}

private func signed(_ x: Double) -> String { (x >= 0 ? "+" : "") + format1(x) }

private func format2(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let a = abs(hundredths)
    return (hundredths < 0 ? "-" : "") + "\(a / 100)." + (a % 100 < 10 ? "0" : "") + "\(a % 100)"
}

private func format4(_ x: Double) -> String {
    let v = Int((x * 10000).rounded())
    let a = abs(v), frac = "\(a % 10000)"
    return (v < 0 ? "-" : "") + "\(a / 10000)." + String(repeating: "0", count: 4 - frac.count) + frac
}

extension String {
    /// Right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
