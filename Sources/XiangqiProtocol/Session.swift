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

    public static let engineName = EngineVersion.name
    public static let engineAuthor = "the xiangqi developers"

    let engine: Engine
    let out: LineSink
    private let lock = Lock()
    public private(set) var dialect = Dialect.none
    /// Set once `quit` was handled; the caller's loop should end.
    public private(set) var shouldQuit = false

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
    private var holdResult = false
    /// Whether the running search ends by itself (a bound, no pondering): only then may batch
    /// mode wait for it before reading the next command.
    private var searchEndsByItself = false
    /// Whether the running search has no bound (it ends only by `stop`, even after a ponder hit).
    private var searchIsInfinite = false
    private var stopReceived = false
    private var pendingResult: SearchResult?
    private var drawOffered = false
    private var searchDialect = Dialect.none
    private var searchStart = MonotonicInstant.now
    private var searchedThisPosition = false

    /// The opening books played at the root (see ``BookPlayer``).
    let book: BookPlayer

    /// A session driving `engine`, writing to `output`, playing from `bookFiles` (files, or
    /// ``OpeningBook/builtInName`` for the built-in book; none by default) until a GUI sets
    /// others, and evaluating with the network `evalFile` names (a file, or
    /// ``NetworkFile/builtInName``; loaded at the first `isready`, `go` or `eval`, so that
    /// start-up stays quick; `nil`: none, the handcrafted evaluation) until a GUI sets another.
    /// The engine binary passes the built-in book and network.
    public init(engine: Engine = Engine(), output: LineSink, bookFiles: [String] = [], evalFile: String? = nil) {
        self.engine = engine
        self.out = output
        book = BookPlayer(paths: bookFiles)
        if let evalFile {
            options.evalFile = evalFile
            options.networkPending = true
        }
    }

    /// The evaluation the engine plays with, as `isready` reports it: `network <hash> from
    /// <file>`, or `handcrafted` (`Use NNUE false`, no network, or a level below the maximum,
    /// which plays with the handcrafted evaluation whatever network is loaded).
    var evaluationDescription: String {
        guard options.useNetwork, let network = options.network else { return "handcrafted" }
        let skill = engine.skill
        guard skill.isFull else { return "handcrafted (level \(skill.level); network \(network.hashText) loaded)" }
        return "network \(network.hashText) from \(options.evalFile)"
    }

    /// The evaluation the last `isready` reported.
    private var reportedEvaluation: String?

    /// Before `readyok`: says which evaluation plays (`info string evaluation: ...`) at the
    /// first `isready` and whenever it changed since, so that a tool that records a match can
    /// name it.
    func reportEvaluation() {
        let description = evaluationDescription
        guard description != reportedEvaluation else { return }
        reportedEvaluation = description
        send("info string evaluation: " + description)
    }

    /// Loads the default network if it still waits to be.
    func loadPendingNetwork() {
        guard options.networkPending else { return }
        for message in options.loadNetwork(options.evalFile, engine: engine) where message.hasPrefix("cannot") {
            inform(message)
        }
    }

    func send(_ line: String) { out.write(line) }

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
        send("id name \(Self.engineName)")
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
        var name = "", value = ""
        if let first = args.first, first.lowercased() == "name" {
            let rest = args.dropFirst()
            if let v = rest.firstIndex(where: { $0.lowercased() == "value" }) {
                name = rest[rest.startIndex..<v].joined(separator: " ")
                value = rest[(v + 1)...].joined(separator: " ")
            } else {
                name = rest.joined(separator: " ")
            }
        } else if let first = args.first {
            name = first
            value = args.dropFirst().joined(separator: " ")
        }
        guard !name.isEmpty else {
            inform("setoption needs an option name")
            return
        }
        for message in options.set(name: name, value: value, session: self) { inform(message) }
    }

    // MARK: - Position

    func setPosition(_ args: [String]) {
        lock.withLock { searchedThisPosition = false }
        bannedMoves = []
        switch parsePosition(args) {
        case .unchanged: break
        case .invalid: game = nil
        case .game(let parsed): game = parsed
        }
    }

    enum ParsedPosition {
        /// Nothing usable was given: keep the current position.
        case unchanged
        /// A bad FEN: no valid position.
        case invalid
        case game(Game)
    }

    /// Reads `startpos|fen <FEN> [moves ...]` and reports problems. Moves are played up to
    /// the first illegal one.
    func parsePosition(_ args: [String]) -> ParsedPosition {
        guard let kind = args.first?.lowercased() else {
            inform("position needs 'startpos' or 'fen <FEN>'; position unchanged")
            return .unchanged
        }
        let movesIndex = args.firstIndex(where: { $0.lowercased() == "moves" }) ?? args.count
        var start: Position
        switch kind {
        case "startpos":
            start = .start
        case "fen":
            let fen = args[1..<movesIndex].joined(separator: " ")
            do {
                start = try Position(fen: fen)
            } catch {
                inform("invalid FEN (\(error)): '\(fen)'; no position is set")
                return .invalid
            }
        default:
            inform("position needs 'startpos' or 'fen <FEN>', not '\(args[0])'; position unchanged")
            return .unchanged
        }
        let moveTokens = movesIndex < args.count ? Array(args[(movesIndex + 1)...]) : []
        guard case .read(let reading) = MoveListReading.game(moveTokens, from: start, known: rankNumbering) else {
            inform("moves legal with ranks 0-9 and with ranks 1-10 alike, and no earlier command showed "
                + "which the GUI uses: no position is set (send the game from its start)")
            return .invalid
        }
        if reading.numberingIsShown { rankNumbering = reading.numbering }
        var result = Game(start)
        for move in reading.moves { try? result.play(move) }
        if let index = reading.unread.first {
            inform("illegal move '\(moveTokens[index])' (move \(index + 1) of the list) refused; "
                + "position kept after move \(index)")
        }
        return .game(result)
    }

    /// Reads the moves of `searchmoves` or `banmoves` (named `command` in messages) in
    /// `position`: all in one numbering, the session's when the list reads both ways;
    /// unreadable ones are reported and left out. `nil` when the numbering cannot be told.
    func readChoices(_ tokens: [String], in position: Position, command: String) -> [Move]? {
        guard case .read(let reading) = MoveListReading.choices(tokens, in: position, known: rankNumbering) else {
            inform("\(command): moves legal with ranks 0-9 and with ranks 1-10 alike, and no earlier command "
                + "showed which the GUI uses: \(command) ignored")
            return nil
        }
        if reading.numberingIsShown { rankNumbering = reading.numbering }
        for index in reading.unread { inform("\(command): '\(tokens[index])' is not a legal move here, ignored") }
        return reading.moves
    }

    /// A move as the GUI expects to read it.
    func text(_ move: Move) -> String { MoveText.format(move, numbering) }

    /// The rank numbering of the replies: the GUI's, 0-9 until its moves show one.
    var numbering: RankNumbering { rankNumbering ?? .zeroBased }

    /// The dialect of the running search's output (UCI until a `ucci` handshake).
    private var searchWireDialect: EngineDialect { lock.withLock { searchDialect } == .ucci ? .ucci : .uci }

    func banMoves(_ args: [String]) {
        guard let position = game?.position else {
            inform("no valid position to ban moves in")
            return
        }
        bannedMoves = readChoices(args, in: position, command: "banmoves") ?? []
    }

    // MARK: - Searching

    func go(_ args: [String], receivedAt: MonotonicInstant = .now) {
        stopSearchForChange()
        let command = GoCommand(args, secondsScale: dialect == .ucci && !options.useMillisec ? 1000 : 1)
        for message in command.messages { inform(message) }
        if let depth = command.perftDepth {
            perft([String(depth)])
            return
        }
        guard let game else {
            inform("no valid position: search refused")
            sendNoMove(legalMovesExist: true)
            return
        }
        let position = game.position
        var base = SearchLimits()
        base.moveOverhead = options.moveOverhead
        base.ponderEnabled = options.ponder
        base.startTime = receivedAt
        let limits = command.limits(for: position.sideToMove, base: base)
        if options.debug { reportTimeBudget(limits) }
        let ponder = command.ponder
        let rootMoves = self.rootMoves(position, searchMoves: command.searchMoves)
        if command.depthZero && dialect == .ucci {
            var info = EngineInfo()
            info.depth = 0
            info.score = .centipawns(engine.evaluator.evaluate(position))
            if let line = info.line(.ucci) { send(line) }
            send(BestMoveLine(move: nil).line(.ucci))
            return
        }
        lock.withLock { searchedThisPosition = true }
        if rootMoves.isEmpty {
            sendNoMove(legalMovesExist: position.hasLegalMove)
            return
        }
        // The book answers timed and depth- or node-limited searches; analysis (infinite),
        // pondering and mate searches always search.
        if !ponder && !limits.infinite && limits.mate == nil && playBookMove(game, rootMoves) { return }
        if !options.useHash { engine.newGame() }
        lock.withLock {
            holdResult = ponder || limits.infinite
            // A mate search alone runs until it finds the mate, which may not exist.
            let bounded = limits.depth != nil || limits.nodes != nil || limits.moveTime != nil || limits.clock != nil
            searchIsInfinite = limits.infinite || !bounded
            searchEndsByItself = !ponder && !searchIsInfinite
            stopReceived = false
            pendingResult = nil
            drawOffered = command.draw
            searchDialect = dialect
            searchStart = receivedAt
        }
        engine.setGame(game)
        engine.startSearch(limits, rootMoves: rootMoves, ponder: ponder,
                           onInfo: { [weak self] info in self?.report(info) },
                           onCurrentMove: { [weak self] current in self?.reportCurrentMove(current) },
                           onResult: { [weak self] result in self?.finished(result) })
    }

    /// The moves `go` may choose among: `searchmoves` if given, less `banmoves`.
    func rootMoves(_ position: Position, searchMoves: [String]) -> [Move] {
        var rootMoves = position.legalMoves
        if !searchMoves.isEmpty {
            if let wanted = readChoices(searchMoves, in: position, command: "searchmoves") {
                rootMoves = rootMoves.filter { wanted.contains($0) }
            }
        }
        if !bannedMoves.isEmpty { rootMoves = rootMoves.filter { !bannedMoves.contains($0) } }
        return rootMoves
    }

    /// With `debug`: the search's time budget, if time bounds it.
    func reportTimeBudget(_ limits: SearchLimits) {
        guard let budget = limits.timeBudget else { return }
        let optimum = budget.optimum < budget.maximum ? "optimum \(budget.optimum) ms, " : ""
        inform("time budget: \(optimum)maximum \(budget.maximum) ms")
    }

    /// Plays a book move if the book has one among `rootMoves` (the engine's book decision):
    /// says so, then `bestmove`.
    func playBookMove(_ game: Game, _ rootMoves: [Move]) -> Bool {
        var warnings: [String] = []
        let decision = Engine.bookDecision(for: game, rootMoves: rootMoves, book: book, warnings: &warnings)
        for warning in warnings { inform(warning) }
        guard let decision, let move = decision.move, let source = decision.book else { return false }
        inform("book move \(text(move)) from \(source.book): \(source.games) games, "
               + "\(Int(source.percent.rounded()))% for \(game.position.sideToMove)")
        lock.withLock { searchDialect = dialect }
        report(SearchInfo(depth: 1, selectiveDepth: 1, score: decision.score, bound: .exact,
                          nodes: 0, time: 0, hashfull: engine.hashfull, principalVariation: [move]))
        send(BestMoveLine(move: move, ponderMove: decision.ponderMove).line(searchWireDialect, numbering))
        return true
    }

    func sendNoMove(legalMovesExist: Bool) {
        if dialect != .ucci && !legalMovesExist {
            var mated = EngineInfo()
            mated.depth = 0
            mated.score = .mate(0)
            if let line = mated.line(.uci) { send(line) }
        }
        send(BestMoveLine(move: nil).line(dialect == .ucci ? .ucci : .uci))
    }

    func report(_ info: SearchInfo) {
        let chances = options.showWDL ? Chances(score: info.score) : nil
        // UCCI has no notation for a bound or a second line: those are not reported there.
        if let line = EngineInfo(info, chances: chances).line(searchWireDialect, numbering) { send(line) }
    }

    func reportCurrentMove(_ current: CurrentMoveInfo) {
        send(EngineInfo.currentMoveLine(depth: current.depth, move: current.move, number: current.number, numbering))
    }

    func finished(_ result: SearchResult) {
        lock.withLock {
            if holdResult && !stopReceived {
                pendingResult = result
            } else {
                emitLocked(result)
            }
        }
    }

    /// Writes the `bestmove` line; call with `lock` held.
    private func emitLocked(_ result: SearchResult) {
        holdResult = false
        pendingResult = nil
        let accepts = result.bestMove != nil && drawOffered && Engine.acceptsDraw(score: result.score)
        let answer = BestMoveLine(move: result.bestMove, ponderMove: result.ponderMove, draw: accepts)
        send(answer.line(searchDialect == .ucci ? .ucci : .uci, numbering))
    }

    func ponderHit(_ args: [String]) {
        let offered = args.first?.lowercased() == "draw"
        let elapsed = lock.withLock { searchStart.millisecondsElapsed }
        engine.ponderHit(elapsedMilliseconds: elapsed)
        lock.withLock {
            if offered { drawOffered = true }
            holdResult = false
            searchEndsByItself = !searchIsInfinite
            if let pending = pendingResult { emitLocked(pending) }
        }
    }

    func stop() {
        let idleNoSearch = lock.withLock { () -> Bool in
            stopReceived = true
            if let pending = pendingResult {
                emitLocked(pending)
                return false
            }
            return !engine.isSearching && !searchedThisPosition
        }
        engine.stop()
        if idleNoSearch && dialect == .ucci { send("nobestmove") }
    }

    func quit() {
        engine.stop()
        lock.withLock { stopReceived = true }
        engine.waitUntilIdle()
        lock.withLock {
            if let pending = pendingResult { emitLocked(pending) }
        }
        if dialect == .ucci { send("bye") }
        shouldQuit = true
    }

    // MARK: - Hash probe

    func probe(_ args: [String]) {
        guard case .game(let probed) = parsePosition(args), let entry = engine.probe(probed.position) else {
            send("pophash")
            return
        }
        var line = "pophash"
        if entry.move.isReal { line += " bestmove \(text(entry.move))" }
        let score = EngineScore(searchScore: entry.score).ucciValue
        if entry.bound == .lower || entry.bound == .exact { line += " lowerbound \(score) depth \(entry.depth)" }
        if entry.bound == .upper || entry.bound == .exact { line += " upperbound \(score) depth \(entry.depth)" }
        send(line)
    }
}
