import ArgumentParser
import XiangqiClient
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// One search limit per move, as `suite` and `match` take it.
struct MoveLimitOptions: ParsableArguments {
    @Option(help: "Milliseconds per move.")
    var movetime: Int?

    @Option(help: "Depth per move.")
    var depth: Int?

    @Option(help: "Nodes per move.")
    var nodes: UInt64?

    /// Checks that exactly one limit (counting `others`) is given and that it is positive.
    func check(others: Int = 0, names: String = "--movetime, --depth or --nodes") throws {
        let given = [movetime != nil, depth != nil, nodes != nil].filter { $0 }.count + others
        guard given == 1 else { throw ValidationError("give exactly one of \(names)") }
        if let movetime, movetime < 1 { throw ValidationError("--movetime must be at least 1") }
        if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
        if let nodes, nodes < 1 { throw ValidationError("--nodes must be at least 1") }
    }

    var limits: EngineLimits { EngineLimits(moveTime: movetime, depth: depth, nodes: nodes) }
}

struct SuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Run a tactics suite (EPD-like lines) in-process or against any UCCI/UCI engine.",
        discussion: """
        Lines: FEN; bm MOVE [MOVE...]; am MOVE; id "name"; dm N;  ('#' lines are comments). \
        Solved: the move is one of bm and none of am; with dm alone, a mate in at most N is announced \
        (dm 1: or the move mates). Time to solution: from the report after which the engine's first \
        choice stayed on a solving move. Malformed lines are reported with their numbers and skipped. \
        Engine specs: a command plus key=value words (name=, proto=auto|ucci|uci, \
        notation=auto|iccs|uci10, fen=auto|nb|he, opt.NAME=VALUE).

        Example: xiangqi suite tactics.epd --movetime 1000
        """
    )

    @Argument(help: "The suite file.")
    var file: String

    @Option(help: "An engine command and settings (default: this engine, in-process).")
    var engine: String?

    @OptionGroup var limit: MoveLimitOptions

    @Option(help: "Hash table size in MB for the in-process engine.")
    var hash = Engine.defaultHashMegabytes

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print only the summary.")
    var quiet = false

    func validate() throws {
        try limit.check()
        guard (1...4096).contains(hash) else { throw ValidationError("--hash must be 1 to 4096") }
    }

    func run() throws {
        let (positions, errors) = SuiteFile.parse(try readTextFile(file))
        for error in errors { errorWrite("\(file):\(error.line): \(error.message); skipped\n") }
        guard !positions.isEmpty else { throw CommandFailure("\(file): no usable position") }
        let solver: any SuiteSolver
        var engineName = "xiangqi (in-process)"
        if let engine {
            let client: EngineClient
            do { client = try EngineClient(specification: engine) } catch { throw CommandFailure(error.description) }
            let started = runBlocking { () -> Result<EngineIdentity, EngineClientError> in
                do throws(EngineClientError) { return .success(try await client.start()) } catch { return .failure(error) }
            }
            switch started {
            case .success(let identity): engineName = identity.name
            case .failure(let error): throw CommandFailure("\(engine): \(error)")
            }
            solver = client
        } else {
            solver = InProcessSolver(hashMegabytes: hash)
        }
        let runner = SuiteRunner(solver: solver, limits: limit.limits)
        let total = positions.count, text = !json && !quiet, bar = !json && isTerminal(2)
        let solvedSoFar = Counter()
        let outcomes = runBlocking {
            await runner.run(positions) { index, outcome in
                if outcome.solved { solvedSoFar.increment() }
                if text {
                    if bar { errorWrite("\r\u{1B}[K") }
                    emit(Self.line(index + 1, outcome))
                }
                if bar {
                    let done = index + 1, solved = solvedSoFar.value
                    let width = 30, filled = width * done / total
                    errorWrite("\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                               + "] \(done)/\(total)  solved \(solved)")
                }
            }
        }
        if bar { errorWrite("\r\u{1B}[K") }
        if let client = solver as? EngineClient { runBlocking { _ = await client.quit() } }
        let solved = outcomes.filter(\.solved).count
        let limitText = limit.movetime.map { "movetime \($0) ms" } ?? limit.depth.map { "depth \($0)" }
            ?? "nodes \(limit.nodes ?? 0)"
        if json {
            emit(Self.json(outcomes, engine: engineName, limit: limitText, file: file, skipped: errors.count))
        } else {
            let failures = outcomes.filter { $0.failure != nil }.count
            emit("\(engineName), \(limitText): solved \(solved)/\(total) (\(format1(100 * Double(solved) / Double(total)))%)"
                  + (errors.isEmpty ? "" : ", \(errors.count) lines skipped")
                  + (failures == 0 ? "" : ", \(failures) engine failures"))
        }
    }

    static func line(_ number: Int, _ o: SuiteOutcome) -> String {
        let expected = (o.entry.bestMoves.isEmpty ? "" : "bm " + o.entry.bestMoves.map(\.iccs).joined(separator: " "))
            + (o.entry.avoidMoves.isEmpty ? "" : " am " + o.entry.avoidMoves.map(\.iccs).joined(separator: " "))
            + (o.entry.mateIn.map { " dm \($0)" } ?? "")
        var words = ["\(number)".padded(5), o.entry.id.padded(24), (o.solved ? "solved" : "failed").padded(7),
                     (o.move?.iccs ?? "none").padded(5), "(\(expected.trimmed))"]
        if let failure = o.failure {
            words.append(failure)
        } else {
            if let t = o.timeToSolution { words.append("in \(t) ms") }
            words.append("depth \(o.depth ?? 0)")
            if let score = o.score { words.append("score \(score)") }
        }
        return words.joined(separator: " ")
    }

    static func json(_ outcomes: [SuiteOutcome], engine: String, limit: String, file: String, skipped: Int) -> String {
        let items = outcomes.map { o -> String in
            var fields = ["\"line\": \(o.entry.line)", "\"id\": \(JSONText.quoted(o.entry.id))",
                          "\"solved\": \(o.solved)", "\"move\": \(o.move.map { JSONText.quoted($0.iccs) } ?? "null")",
                          "\"bm\": [" + o.entry.bestMoves.map { JSONText.quoted($0.iccs) }.joined(separator: ", ") + "]",
                          "\"timeToSolutionMs\": \(o.timeToSolution.map(String.init) ?? "null")",
                          "\"depth\": \(o.depth.map(String.init) ?? "null")", "\"elapsedMs\": \(o.elapsed)"]
            if let score = o.score { fields.append("\"score\": \(JSONText.quoted(score.description))") }
            if let failure = o.failure { fields.append("\"failure\": \(JSONText.quoted(failure))") }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        let solved = outcomes.filter(\.solved).count
        return "{\"tool\": \"xiangqi suite\", \"engine\": \(JSONText.quoted(engine)), \"file\": \(JSONText.quoted(file)), "
            + "\"limit\": \(JSONText.quoted(limit)), \"solved\": \(solved), \"total\": \(outcomes.count), "
            + "\"skippedLines\": \(skipped), \"positions\": [\n" + items.joined(separator: ",\n") + "\n]}"
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    // `lock` guards `count`.
    private let lock = Lock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// This engine, searched in-process (no protocol, no subprocess), for suites.
final class InProcessSolver: SuiteSolver {
    private let engine: Engine

    init(hashMegabytes: Int) {
        engine = Engine(hashMegabytes: hashMegabytes)
    }

    func solve(_ position: Position, limits: EngineLimits) async throws(EngineClientError) -> EngineReply {
        engine.newGame()
        engine.setGame(Game(position))
        let searchLimits = SearchLimits(depth: limits.depth, nodes: limits.nodes, moveTime: limits.moveTime)
        let infos = InfoLog()
        let clock = ContinuousClock(), start = clock.now
        let result: SearchResult = await withCheckedContinuation { continuation in
            engine.startSearch(searchLimits, onInfo: { info in infos.append(EngineInfo(info)) },
                               onResult: { continuation.resume(returning: $0) })
        }
        let elapsed = clock.now - start
        var reply = EngineReply()
        reply.move = result.bestMove
        reply.ponderMove = result.ponderMove
        reply.infos = infos.all
        reply.elapsed = elapsed.wholeMilliseconds
        return reply
    }
}

/// Search reports collected from the search thread.
final class InfoLog: @unchecked Sendable {
    // `lock` guards `infos`.
    private let lock = Lock()
    private var infos: [EngineInfo] = []
    func append(_ info: EngineInfo) { lock.withLock { infos.append(info) } }
    var all: [EngineInfo] { lock.withLock { infos } }
}

extension String {
    /// Left-aligned in `width` columns.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    var trimmed: String { String(drop { $0 == " " }) }
}
