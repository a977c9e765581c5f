#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// The protocol state machine: turns input lines (UCCI or UCI) into engine calls and engine
/// events into output lines. The only place that knows protocol text.
///
/// `handle(_:)` is called from one reader thread; search events arrive on the engine's
/// search thread. Bad input never throws: it is answered with `info string ...` and the
/// session keeps serving.
public final class Session: @unchecked Sendable {
    // Shared state touched by both threads is guarded by `lock`; the rest belongs to the
    // reader thread.

    /// The protocol in use, chosen by the last handshake (`ucci` or `uci`).
    public enum Dialect: Sendable { case none, ucci, uci }

    /// The name `id name` announces: the release and the build (see
    /// ``EngineVersion/name(build:)``).
    public let engineName: String
    public static let engineAuthor = "the xiangqi developers"

    let engine: Engine
    let out: LineSink
    let lock = Lock()
    /// Where `Debug Log File` copies every line read and written.
    let debugLog = DebugLog()
    public private(set) var dialect = Dialect.none
    /// Set once `quit` was handled; the caller's loop should end.
    public internal(set) var shouldQuit = false

    // Position.
    var game: Game? = Game()
    var bannedMoves: [Move] = []
    /// How the GUI numbers ranks in its moves, once a list of moves showed it (a game from
    /// the start position always does at its first move); kept until the next handshake and
    /// used for lists that read legally both ways. Replies follow it (0-9 while unknown).
    var rankNumbering: RankNumbering?

    // Options.
    var options = ProtocolOptions()

    // Search state (guarded by `lock`).
    var holdResult = false
    /// Whether the running search ends by itself (a bound, no pondering): only then may batch
    /// mode wait for it before reading the next command.
    var searchEndsByItself = false
    /// Whether the running search has no bound (it ends only by `stop`, even after a ponder hit).
    var searchIsInfinite = false
    var stopReceived = false
    var pendingDecision: MoveDecision?
    /// A draw offered with `ponderhit draw`, after the search started.
    var drawOfferedLater = false
    var searchDialect = Dialect.none
    /// The rank numbering of the running search's replies: the session's at its `go`, so
    /// that a handshake or `position` read meanwhile cannot change it under the search thread.
    var searchNumbering = RankNumbering.zeroBased
    var searchStart = MonotonicInstant.now
    var searchedThisPosition = false

    /// The opening books played at the root (see ``BookPlayer``).
    let book: BookPlayer

    /// A session driving `engine`, writing to `output`, playing from `bookFiles` (files, or
    /// ``OpeningBook/builtInName`` for the built-in book; none by default) until a GUI sets
    /// others, and evaluating with the network `evalFile` names (a file, or
    /// ``NetworkFile/builtInName``; loaded at the first `isready`, `go` or `eval`, so that
    /// start-up stays quick; `nil`: none, the handcrafted evaluation) until a GUI sets another.
    /// The engine binary passes the built-in book and network, and `build`: the commit and
    /// date it was built from, named by `id name` and `isready`.
    public init(engine: Engine = Engine(), output: LineSink, bookFiles: [String] = [], evalFile: String? = nil,
                build: String? = nil) {
        self.engine = engine
        engineName = EngineVersion.name(build: build)
        self.out = output
        book = BookPlayer(paths: bookFiles)
        if let evalFile {
            options.networks = NetworkChoice(file: evalFile)
            options.networkPending = true
        }
    }

    /// The evaluation the engine plays with, as `isready` reports it: `network <hash> from
    /// <file>`, or `handcrafted` (`Use NNUE false`, no network, or a level below
    /// ``SkillLevel/firstNetworkLevel``, which plays with the handcrafted evaluation whatever
    /// network is loaded). A capped level with the network says its level.
    var evaluationDescription: String {
        guard options.useNetwork, let network = options.network else { return "handcrafted" }
        let skill = engine.skill
        guard skill.usesNetwork else { return "handcrafted (level \(skill.level); network \(network.hashText) loaded)" }
        let level = skill.isFull ? "" : " (level \(skill.level))"
        return "network \(network.hashText) from \(options.evalFile)\(level)"
    }

    /// The evaluation the last `isready` reported.
    private var reportedEvaluation: String?

    /// Before `readyok`: says which evaluation plays and in which build (`info string
    /// evaluation: ...; engine Xiangqi 2.0.0 (...)`) at the first `isready` and whenever it
    /// changed since, so that a tool that records a match can name both.
    func reportEvaluation() {
        let description = evaluationDescription
        guard description != reportedEvaluation else { return }
        reportedEvaluation = description
        send("info string evaluation: " + description + "; engine " + engineName)
    }

    /// Loads the default network if it still waits to be.
    func loadPendingNetwork() {
        guard options.networkPending else { return }
        for message in options.loadNetwork(options.evalFile, engine: engine) where message.hasPrefix("cannot") {
            inform(message)
        }
    }

    func send(_ line: String) {
        debugLog.sent(line)
        out.write(line)
    }

    /// Sends a diagnostic as `info string`, cleaned of control characters and of words some
    /// UCCI GUIs scan for ("draw", "resign", "nobestmove") and kept short.
    func inform(_ text: String) {
        var clean = String(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "?" : Character($0) })
        if clean.count > 200 { clean = String(clean.prefix(200)) + "..." }
        if dialect != .uci { clean = Self.shoutingGUIKeywords(clean) }
        send("info string " + clean)
    }

    /// Upper-cases "nobestmove", "resign" and "draw" wherever they occur, in any case.
    static func shoutingGUIKeywords(_ text: String) -> String {
        var chars = Array(text)
        let lower = chars.map { Character($0.lowercased()) }
        for word in ["nobestmove", "resign", "draw"].map(Array.init) where chars.count >= word.count {
            for i in 0...(chars.count - word.count) where Array(lower[i..<(i + word.count)]) == word {
                for k in 0..<word.count { chars[i + k] = Character(word[k].uppercased()) }
            }
        }
        return String(chars)
    }

    // MARK: - Dispatch

    /// Handles one input line.
    public func handle(_ rawLine: String) {
        debugLog.received(rawLine)
        let tokens = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
            .map(String.init)
        guard let first = tokens.first else {
            inform("empty line ignored")
            return
        }
        if options.debug { inform("received: \(rawLine)") }
        let command = first.lowercased()
        let args = Array(tokens.dropFirst())
        // In batch mode (UCCI) commands are not read while thinking, unless the search would
        // never end by itself (infinite or pondering): waiting for it would hang the engine.
        if options.batch && engine.isSearching && lock.withLock({ searchEndsByItself })
            && !["stop", "quit", "isready"].contains(command) {
            engine.waitUntilIdle()
        }
        switch command {
        case "ucci": handshake(.ucci)
        case "uci", "ucicyclone": handshake(.uci)
        case "isready":
            loadPendingNetwork()
            reportEvaluation()
            send("readyok")
        case "debug": setDebug(args)
        case "setoption": stopSearchForChange(); setOption(args)
        case "ucinewgame", "uccinewgame":
            stopSearchForChange()
            engine.newGame()
            book.newGame()
        case "position": stopSearchForChange(); setPosition(args)
        case "fen", "startpos": stopSearchForChange(); setPosition(tokens)
        case "banmoves": stopSearchForChange(); banMoves(args)
        case "go":
            // The GUI's clock runs from here: loading the network is paid from the budget.
            let received = MonotonicInstant.now
            loadPendingNetwork()
            go(args, receivedAt: received)
        case "ponderhit": ponderHit(args)
        case "stop": stop()
        case "probe": probe(args)
        case "quit": quit()
        case "d": stopSearchForChange(); display()
        case "eval": stopSearchForChange(); loadPendingNetwork(); evaluate()
        case "flip": stopSearchForChange(); flip()
        case "perft": stopSearchForChange(); perft(args)
        case "bench": stopSearchForChange(); bench(args)
        default:
            inform("unknown command: \(first)")
        }
    }

    /// End of input: behaves as `quit`.
    public func finish() {
        if !shouldQuit { quit() }
    }

    /// Blocks until the current search (if any) has finished and its reply was sent.
    public func waitForSearch() { engine.waitUntilIdle() }

    // MARK: - Handshake and options

    func handshake(_ d: Dialect) {
        dialect = d
        rankNumbering = nil
        send("id name \(engineName)")
        if d == .ucci { send("id copyright 2026 \(Self.engineAuthor)") }
        send("id author \(Self.engineAuthor)")
        for line in ProtocolOptions.announcements(d, bookFiles: book.paths, evalFile: options.evalFile) { send(line) }
        send(d == .ucci ? "ucciok" : "uciok")
    }

    /// UCI `debug [on | off]` (UCCI: `setoption debug true`): echoes each input line and
    /// reports each search's time budget.
    func setDebug(_ args: [String]) {
        switch args.first?.lowercased() {
        case nil, "on": options.debug = true
        case "off": options.debug = false
        case let other?: inform("debug: expected on or off, not '\(other)'; unchanged")
        }
    }

    /// A change of options or position arrived during a search: GUIs should not do that,
    /// but rather than block the input loop the running search is stopped (and answered).
    func stopSearchForChange() {
        guard engine.isSearching else { return }
        stop()
        engine.waitUntilIdle()
    }

    func setOption(_ args: [String]) {
        guard let command = SetOptionCommand(args) else {
            inform("setoption needs an option name")
            return
        }
        for message in options.set(name: command.name, value: command.value, on: OptionTargets(engine: engine, book: book, debugLog: debugLog)) {
            inform(message)
        }
    }

}
