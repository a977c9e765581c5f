import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiClient
import XiangqiCore
import XiangqiSearch

/// Set by SIGINT or SIGTERM: no new pair starts; the pairs in progress finish and are recorded.
nonisolated(unsafe) private var spsaInterrupted: sig_atomic_t = 0

struct SPSACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spsa",
        abstract: "Tune the search's parameters by SPSA over game pairs, recorded in a resumable trace.",
        discussion: """
        Each iteration k draws a random sign per parameter, plays one opening twice (colours swapped) \
        between the engine with θ + c_k·sign and with θ − c_k·sign, and moves θ by \
        a_k / c_k · (wins − losses of the plus side) · sign, as fishtest does (c_k = c_end·(N/k)^0.101, \
        a_k such that a_N / c_N² = r_end, A = N/10). --concurrency pairs are played at once, each \
        one game at a time, and each result is applied when its pair ends. The parameters are the \
        engine's hidden options (xiangqi spsa --list); the engine must be this project's. Every \
        finished pair is a line of the TRACE file (JSON); run the same command again (or just \
        xiangqi spsa TRACE) to go on from it. SIGINT or SIGTERM stops after the pairs in progress.

        Example: xiangqi spsa tune.jsonl --engine './xiangqi proto=uci opt.OwnBook=false' --tc 10+0.1 \
        --openings bench/data/openings-2000.txt --iterations 2000 --concurrency 2
        """
    )

    @Argument(help: "The trace file: created with a header line, or read and extended to go on.")
    var trace: String?

    @Flag(help: "Print the tunable parameters (name, default, min, max, c_end, r_end) and exit.")
    var list = false

    @Option(help: "The engine to tune: a command plus key=value words, as for xiangqi match.")
    var engine: String?

    @Option(help: "Clock per side as BASE+INC in seconds, e.g. 10+0.1.")
    var tc: String?

    @Option(help: "Openings: a line each; iteration k plays line k.")
    var openings: String?

    @Option(help: "Iterations (game pairs) planned: the gains reach c_end and r_end there.")
    var iterations: Int?

    @Option(help: "Parameters to tune, comma-separated (default: all of --list).")
    var parameters: String?

    @Option(help: "Seed of the random signs.")
    var seed: UInt64?

    @Option(name: .customLong("r-end"),
            help: "The final learning rate of every parameter (default: each one's, 0.002 as fishtest's, which suits 20,000 pairs or more; fewer pairs move θ less and may need more).")
    var rEnd: Double?

    @Option(help: "Pairs played at once.")
    var concurrency = 1

    @Option(help: "Stop after this many pairs in this run (default: until the planned iterations).")
    var pairs: Int?

    func validate() throws {
        if list { return }
        guard trace != nil else { throw ValidationError("give the trace file (or --list)") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64") }
        if let pairs, pairs < 1 { throw ValidationError("--pairs must be at least 1") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if let tc, TimeControl(clock: tc) == nil { throw ValidationError("--tc must be BASE+INC in seconds, e.g. 10+0.1") }
        if let rEnd, !(rEnd > 0 && rEnd < 1) { throw ValidationError("--r-end must be between 0 and 1") }
    }

    /// The tunable parameters as SPSA sees them (start: the engine's default).
    static func spsaParameters(_ names: [String]?) throws -> [SPSAParameter] {
        let table = SearchParameters.table
        let chosen: [SearchParameters.Tunable]
        if let names {
            chosen = try names.map { name in
                guard let t = table.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    throw CommandFailure("no tunable parameter '\(name)' (xiangqi spsa --list)")
                }
                return t
            }
            guard Set(chosen.map(\.name)).count == chosen.count else { throw CommandFailure("--parameters names one twice") }
        } else {
            chosen = table
        }
        return chosen.map {
            SPSAParameter(name: $0.name, start: Double($0.defaultValue), minimum: Double($0.range.lowerBound),
                          maximum: Double($0.range.upperBound), cEnd: $0.cEnd, rEnd: $0.rEnd)
        }
    }

    func run() throws {
        if list {
            emit("name default min max c_end r_end")
            for t in SearchParameters.table {
                emit("\(t.name) \(t.defaultValue) \(t.range.lowerBound) \(t.range.upperBound) \(SPSATrace.number(t.cEnd)) \(t.rEnd)")
            }
            return
        }
        guard let trace else { return }
        var header: SPSATrace.Header
        var records: [SPSATrace.Record] = []
        let existing = access(trace, F_OK) == 0 ? try readTextFile(trace) : ""
        let resuming = !existing.allSatisfy { $0.isWhitespace }
        if resuming {
            do {
                (header, records) = try SPSATrace.read(existing)
            } catch {
                throw CommandFailure("\(trace): cannot resume: \(error)")
            }
            try checkSame(header)
        } else {
            guard let engine, let tc, let openings, let iterations else {
                throw CommandFailure("a new tuning needs --engine, --tc, --openings and --iterations")
            }
            let names = parameters?.split(separator: ",").map { String($0).filter { !$0.isWhitespace } }
            var chosen = try Self.spsaParameters(names)
            if let rEnd { for i in chosen.indices { chosen[i].rEnd = rEnd } }
            let state = SPSAState(parameters: chosen,
                                  schedule: SPSASchedule(iterations: iterations), seed: seed ?? 1)
            header = SPSATrace.Header(engine: engine, timeControl: tc, openings: openings, state: state)
        }
        let configuration: EngineConfiguration
        do {
            configuration = try EngineConfiguration(specification: header.engine)
        } catch {
            throw CommandFailure(error.description)
        }
        guard let timeControl = TimeControl(clock: header.timeControl) else {
            throw CommandFailure("\(trace): the time control '\(header.timeControl)' is not BASE+INC")
        }
        let (openingList, errors) = OpeningFile.parse(try readTextFile(header.openings),
                                                      name: header.openings.split(separator: "/").last.map(String.init) ?? header.openings)
        for error in errors { errorWrite("\(header.openings):\(error.line): \(error.message); skipped\n") }
        guard !openingList.isEmpty else { throw CommandFailure("\(header.openings): no usable opening") }
        let planned = header.state.schedule.iterations
        if planned > openingList.count {
            emit("Note: \(planned) iterations over \(openingList.count) openings: openings repeat after pair \(openingList.count)")
        }
        let output = try OutputFile(path: trace, append: resuming)
        if !resuming { output.write(SPSATrace.line(header) + "\n") }

        let nextIteration = (records.map(\.trial.iteration).max() ?? 0) + 1
        let run = SPSARun(state: header.state, nextIteration: nextIteration, planned: planned,
                          pairLimit: pairs, output: output)
        emit("SPSA: \(header.state.parameters.count) parameters, \(records.count) pairs recorded, iteration \(nextIteration) "
             + "of \(planned) next; \(header.timeControl), \(concurrency) pair(s) at once; trace \(trace)")
        signal(SIGINT) { _ in spsaInterrupted = 1 }
        signal(SIGTERM) { _ in spsaInterrupted = 1 }
        let concurrency = concurrency
        let failure = runBlocking { () -> String? in
            await withTaskGroup(of: String?.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        await Self.work(run: run, configuration: configuration, timeControl: timeControl, openings: openingList)
                    }
                }
                var failure: String?
                for await result in group where result != nil { failure = failure ?? result }
                return failure
            }
        }
        let (state, played) = run.snapshot
        if played > 0 || failure == nil {
            emit("Played \(played) pairs in this run; θ after \(records.count + played) pairs:")
            emit(Self.table(state))
            emit("As options: " + zip(state.parameters, state.theta).map { "opt.\($0.name)=\(Int($1.rounded()))" }.joined(separator: " "))
        }
        if let failure {
            errorWrite("spsa stopped: \(failure)\n")
            throw ExitCode.failure
        }
    }

    /// A resumed trace keeps its own settings: options given again must agree with them.
    func checkSame(_ header: SPSATrace.Header) throws {
        var differences: [String] = []
        if let engine, engine != header.engine { differences.append("--engine (the trace has '\(header.engine)')") }
        if let tc, tc != header.timeControl { differences.append("--tc (the trace has \(header.timeControl))") }
        if let openings, openings != header.openings { differences.append("--openings (the trace has \(header.openings))") }
        if let iterations, iterations != header.state.schedule.iterations {
            differences.append("--iterations (the trace has \(header.state.schedule.iterations))")
        }
        if let seed, seed != header.state.seed { differences.append("--seed (the trace has \(header.state.seed))") }
        if let rEnd, header.state.parameters.contains(where: { $0.rEnd != rEnd }) { differences.append("--r-end") }
        if let parameters {
            let names = parameters.split(separator: ",").map { String($0).filter { !$0.isWhitespace }.lowercased() }
            if names != header.state.parameters.map({ $0.name.lowercased() }) { differences.append("--parameters") }
        }
        if !differences.isEmpty {
            throw CommandFailure("the trace was started with other settings: " + differences.joined(separator: ", "))
        }
    }

    /// One worker: plays pairs until the run says stop; a message when an engine failed.
    static func work(run: SPSARun, configuration: EngineConfiguration, timeControl: TimeControl,
                     openings: [Opening]) async -> String? {
        while spsaInterrupted == 0, let trial = run.nextTrial() {
            var plus = configuration, minus = configuration
            for (i, parameter) in run.parameters.enumerated() {
                plus.options.append((parameter.name, String(trial.plus[i])))
                minus.options.append((parameter.name, String(trial.minus[i])))
            }
            plus.name = "plus"
            minus.name = "minus"
            var settings = MatchSettings(games: 2, timeControl: timeControl,
                                         openings: [openings[(trial.iteration - 1) % openings.count]])
            settings.shouldContinue = { spsaInterrupted == 0 }
            let summary: MatchSummary
            do throws(EngineClientError) {
                summary = try await MatchRunner(first: plus, second: minus, settings: settings).run()
            } catch {
                run.abandon(trial, stoppingAll: true)
                return "the engines could not start: \(error)"
            }
            if let reason = summary.abortReason {
                run.abandon(trial, stoppingAll: true)
                return reason
            }
            // A value the engine did not take (another build, another range) tunes nothing.
            let refused = summary.firstOptionMessages + summary.secondOptionMessages
            if !refused.isEmpty {
                run.abandon(trial, stoppingAll: true)
                return "the engine refused or changed the parameters it was given: " + refused.joined(separator: " | ")
            }
            guard summary.games.count == 2 else {
                run.abandon(trial)
                continue
            }
            let points = summary.games.map(\.firstPoints)
            let games = summary.games.map { "\(SPSATrace.number($0.firstPoints)) (\($0.reason))" }
            run.finish(trial, result: points.reduce(0) { $0 + 2 * $1 - 1 }, games: games)
        }
        return nil
    }

    /// θ beside the start values, in c_end units of change.
    static func table(_ state: SPSAState) -> String {
        var lines = ["  parameter                  start      now   change (c_end)"]
        for (p, value) in zip(state.parameters, state.theta) {
            let name = p.name.padding(26)
            lines.append("  \(name) \(SPSATrace.number(p.start).leftPadding(6)) \(format1(value).leftPadding(8)) "
                         + "\(format1((value - p.start) / p.cEnd).leftPadding(8))")
        }
        return lines.joined(separator: "\n")
    }
}

/// The shared state of a tuning run: θ, the next iteration, and the trace it appends to.
final class SPSARun: @unchecked Sendable {
    // `lock` guards every var.
    private let lock = Lock()
    private var state: SPSAState
    private var next: Int
    private var started = 0
    private var played = 0
    private var failed = false
    private let planned: Int
    private let pairLimit: Int?
    private let output: OutputFile
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    let parameters: [SPSAParameter]

    init(state: SPSAState, nextIteration: Int, planned: Int, pairLimit: Int?, output: OutputFile) {
        self.state = state
        next = nextIteration
        self.planned = planned
        self.pairLimit = pairLimit
        self.output = output
        parameters = state.parameters
        start = clock.now
    }

    /// The next trial from the current θ, or nil when the planned iterations or this run's
    /// pair limit are reached.
    func nextTrial() -> SPSATrial? {
        lock.withLock {
            guard !failed, next <= planned, pairLimit.map({ started < $0 }) ?? true else { return nil }
            let trial = state.trial(iteration: next)
            next += 1
            started += 1
            return trial
        }
    }

    /// A pair that was not played to its end: its iteration is left out; with `stoppingAll`
    /// (an engine failed) no further pair starts.
    func abandon(_ trial: SPSATrial, stoppingAll: Bool = false) {
        lock.withLock {
            started -= 1
            if stoppingAll { failed = true }
        }
    }

    /// Applies a finished pair and records it.
    func finish(_ trial: SPSATrial, result: Double, games: [String]) {
        lock.withLock {
            state.apply(trial, result: result)
            played += 1
            let record = SPSATrace.Record(trial: trial, result: result, games: games, theta: state.theta)
            output.write(SPSATrace.line(record) + "\n")
            let seconds = (clock.now - start).inSeconds
            emit("pair \(trial.iteration) of \(planned): plus \(SPSATrace.number(result).withSign) "
                 + "(\(games.joined(separator: ", "))); \(played) this run, \(format1(seconds / Double(played))) s a pair")
        }
    }

    var snapshot: (SPSAState, Int) { lock.withLock { (state, played) } }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    var withSign: String { hasPrefix("-") ? self : "+" + self }
}
