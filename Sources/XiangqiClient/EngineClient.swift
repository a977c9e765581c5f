import XiangqiCodec
import XiangqiCore

/// What the handshake found out about an engine.
public struct EngineIdentity: Sendable, Equatable {
    /// The report name: the configured name, else `id name`, else the executable's name.
    public var name: String
    public var author: String?
    public var dialect: EngineDialect
    public var rankNumbering: RankNumbering
    public var pieceLetters: PieceLetters
    /// The option names the engine announced.
    public var options: [String]
    /// The `id name` line's text, whatever the configured report name.
    public var idName: String?
    /// The evaluation the engine said it uses when it answered `isready` (ours:
    /// `network <hash> from <file>` or `handcrafted`; Stockfish-family engines: their NNUE
    /// line); `nil` when it said nothing.
    public var evaluation: String?
    /// What the engine said, before it answered `isready`, about the configured options: each
    /// line that names one of them (ours: `info string unknown option 'X' ignored`, `info string
    /// option X: 999 is out of range ...`; Stockfish's family: `No such option: X`). Empty when
    /// it took them all without a word.
    public var optionMessages: [String] = []

    /// `id name` and evaluation in one line for records: `Xiangqi 2.0.0 (85f6e4f, 2026-11-27);
    /// network ... from ...`.
    public var summary: String {
        [idName ?? name, evaluation ?? "evaluation not reported"].joined(separator: "; ")
    }

    /// The evaluation an engine reports among the lines it sent before `readyok` (ours
    /// without its `; engine ...` part, which repeats `id name`).
    static func evaluation(in lines: [String]) -> String? {
        for line in lines {
            if line.hasPrefix("info string evaluation: ") {
                let text = line.dropFirst(24)
                let cut = text.indices.last { text[$0...].hasPrefix("; engine ") } ?? text.endIndex
                return String(text[..<cut])
            }
            if line.hasPrefix("info string "), line.contains("NNUE evaluation") { return String(line.dropFirst(12)) }
        }
        return nil
    }

    /// The lines among `lines` that name one of `options` (compared without case, spaces or
    /// underscores), other than the evaluation line.
    static func optionMessages(in lines: [String], options: [String]) -> [String] {
        func key(_ s: String) -> String { s.lowercased().filter { $0 != " " && $0 != "_" } }
        let names = options.map(key).filter { !$0.isEmpty }
        return lines.filter { line in
            !line.hasPrefix("info string evaluation: ") && names.contains { key(line).contains($0) }
        }
    }
}

/// A UCCI or UCI Xiangqi engine running as a subprocess: ours, Fairy-Stockfish, Pikafish,
/// Sjaak II, ElephantEye, ...
///
/// Each method sends what the dialect needs and waits, without blocking a thread, for the
/// answer or a deadline. Failures are ``EngineClientError`` values; after a crash or a hang
/// the process is killed and the client answers ``EngineClientError/notRunning`` until
/// ``restart()``. One actor per engine, so a server can drive many engines at once; calls
/// to one client from several tasks are served one at a time, in order.
///
/// Known quirks handled: Fairy-Stockfish (in UCI) and Sjaak II (in both dialects) write
/// ranks 1-10 (found by a probe search at the handshake, moves converted both ways); Sjaak needs H/E piece letters
/// in FENs; an engine that announces `UCI_Variant` is set to `xiangqi`; `usemillisec` is
/// switched on where announced. Pondering is not used.
public actor EngineClient {
    public nonisolated let configuration: EngineConfiguration
    private var process: ChildProcess?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Set by a successful ``start()``.
    public private(set) var identity: EngineIdentity?
    /// How long an engine may take beyond its time limit before it is told to stop, and
    /// after `stop` before it counts as hung.
    public var stopGrace: Duration = .milliseconds(1000)
    /// How long a search bounded only by depth or nodes may take.
    public var unboundedSearchTimeout: Duration = .seconds(120)

    public init(_ configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    /// Starts a client from a specification string (``EngineConfiguration/init(specification:)``).
    public init(specification: String) throws(EngineClientError) {
        self.init(try EngineConfiguration(specification: specification))
    }

    public var isRunning: Bool { process != nil }

    /// Sets ``stopGrace`` and, if given, ``unboundedSearchTimeout``.
    public func setTimeouts(stopGrace: Duration, unboundedSearch: Duration? = nil) {
        self.stopGrace = stopGrace
        if let unboundedSearch { unboundedSearchTimeout = unboundedSearch }
    }

    /// Starts the process and runs the handshake: the dialect (`ucci` first when not
    /// configured, then `uci` if no `ucciok` came within two seconds), `UCI_Variant`, the
    /// configured options, `isready`, and the rank numbering when not configured: a one-ply
    /// search of the start position, whose answer is legal under only one numbering (in
    /// either dialect: Sjaak II writes ranks 1-10 in UCCI too).
    @discardableResult
    public func start() async throws(EngineClientError) -> EngineIdentity {
        await acquire()
        defer { release() }
        return try await launch()
    }

    private func launch() async throws(EngineClientError) -> EngineIdentity {
        stopProcess()
        let child = try ChildProcess(executable: configuration.executable, arguments: configuration.arguments)
        process = child
        // Each step's time counts from its own request, so that a caller's task that waited
        // for a thread (a busy pool) does not charge the engine for the wait.
        let timeout = configuration.handshakeTimeout
        var dialect = configuration.dialect ?? .ucci
        var greeting: [String]
        child.writeLine(dialect == .ucci ? "ucci" : "uci")
        do {
            if configuration.dialect == nil {
                if let lines = try await readUntil(["ucciok"], timeout: min(timeout, .seconds(2)), waitingFor: "ucciok",
                                                   failOnTimeout: false) {
                    greeting = lines
                } else {
                    dialect = .uci
                    child.writeLine("uci")
                    greeting = try await readUntil(["uciok"], timeout: timeout, waitingFor: "ucciok or uciok")!
                }
            } else {
                greeting = try await readUntil([dialect == .ucci ? "ucciok" : "uciok"], timeout: timeout,
                                               waitingFor: dialect == .ucci ? "ucciok" : "uciok")!
            }
            var idName: String?, author: String?, options: [String] = []
            for line in greeting {
                if line.hasPrefix("id name ") { idName = String(line.dropFirst(8)) }
                if line.hasPrefix("id author ") { author = String(line.dropFirst(10)) }
                if let option = Self.optionName(line) { options.append(option) }
            }
            func announced(_ name: String) -> Bool { options.contains { $0.lowercased() == name.lowercased() } }
            let letters = configuration.pieceLetters
                ?? ((idName ?? "").lowercased().contains("sjaak") ? .horseElephant : .knightBishop)
            if dialect == .uci && announced("UCI_Variant") { send(.uci, option: "UCI_Variant", value: "xiangqi") }
            if dialect == .ucci && announced("usemillisec") { send(.ucci, option: "usemillisec", value: "true") }
            for (name, value) in configuration.options { send(dialect, option: name, value: value) }
            let readyLines = try await waitUntilReady(timeout: timeout)
            let executableName = String(configuration.executable.split(separator: "/").last ?? "engine")
            var found = EngineIdentity(name: configuration.name ?? idName ?? executableName, author: author,
                                       dialect: dialect, rankNumbering: configuration.rankNumbering ?? .zeroBased,
                                       pieceLetters: letters, options: options, idName: idName,
                                       evaluation: EngineIdentity.evaluation(in: readyLines),
                                       optionMessages: EngineIdentity.optionMessages(in: readyLines,
                                                                                     options: configuration.options.map(\.name)))
            identity = found
            if configuration.rankNumbering == nil {
                found.rankNumbering = try await probeRankNumbering(timeout: timeout)
                identity = found
            }
            return found
        } catch {
            stopProcess()
            throw error
        }
    }

    /// Kills the process (if any) and starts it again with the same configuration.
    @discardableResult
    public func restart() async throws(EngineClientError) -> EngineIdentity {
        await acquire()
        defer { release() }
        return try await launch()
    }

    /// Sends an option and waits for `isready` (so that a slow resize is done before the next
    /// search).
    public func setOption(name: String, value: String, timeout: Duration = .seconds(10)) async throws(EngineClientError) {
        await acquire()
        defer { release() }
        guard let identity else { throw .notRunning }
        send(identity.dialect, option: name, value: value)
        try await waitUntilReady(timeout: timeout)
    }

    /// Tells the engine a new game starts (`ucinewgame`, or UCCI `setoption newgame`) and waits
    /// until it is ready.
    public func newGame(timeout: Duration = .seconds(10)) async throws(EngineClientError) {
        await acquire()
        defer { release() }
        guard let identity, let process else { throw .notRunning }
        process.writeLine(identity.dialect == .uci ? "ucinewgame" : "setoption newgame")
        try await waitUntilReady(timeout: timeout)
    }

    /// Searches the position after `moves` from `start` and returns the engine's move, checked
    /// for legality. The engine is told to stop once its time limit plus ``stopGrace`` has
    /// passed (``unboundedSearchTimeout`` for depth and node limits) and counts as hung when
    /// no `bestmove` follows within ``stopGrace``.
    public func search(from start: Position, moves: [Move], limits: EngineLimits,
                       onInfo: (@Sendable (EngineInfo) -> Void)? = nil) async throws(EngineClientError) -> EngineReply {
        await acquire()
        defer { release() }
        guard let identity, let process else { throw .notRunning }
        var position = start
        for move in moves {
            guard position.isLegal(move) else { throw .illegalMove("\(move) in the moves sent is not legal") }
            _ = position.make(move)
        }
        process.lines.discardBuffered()
        let command = PositionCommand(start: .fen(fen(start, identity.pieceLetters)),
                                      moveWords: moves.map { MoveText.format($0, identity.rankNumbering) })
        process.writeLine(command.line)
        let clock = ContinuousClock()
        let started = clock.now
        process.writeLine(limits.goCommand(identity.dialect, sideToMove: position.sideToMove))
        let allowance = limits.expectedMilliseconds(sideToMove: position.sideToMove).map { Duration.milliseconds($0) }
        var deadline = started + (allowance.map { $0 + stopGrace } ?? unboundedSearchTimeout)
        var reply = EngineReply()
        while true {
            switch await process.lines.next(until: deadline) {
            case .line(let line, let arrival):
                let elapsed = (arrival - started).wholeMilliseconds
                if line.hasPrefix("info") {
                    guard var info = EngineInfo(parsing: line, dialect: identity.dialect, numbering: identity.rankNumbering)
                    else { continue }
                    info.receivedAt = elapsed
                    reply.infos.append(info)
                    onInfo?(info)
                } else if let answer = BestMoveLine(parsing: line, numbering: identity.rankNumbering) {
                    reply.elapsed = elapsed
                    if let text = answer.unreadableMove {
                        throw .illegalMove("'\(text)' is not legal in \(position.fen)")
                    }
                    guard let move = answer.move else { return reply }
                    guard position.isLegal(move) else {
                        throw .illegalMove("'\(MoveText.format(move, identity.rankNumbering))' is not legal in \(position.fen)")
                    }
                    reply.move = move
                    if let ponder = answer.ponderMove {
                        var after = position
                        _ = after.make(move)
                        if after.isLegal(ponder) { reply.ponderMove = ponder }
                    }
                    return reply
                }
            case .closed:
                throw await crash(while: "searching")
            case .timeout:
                if reply.neededStop {
                    stopProcess()
                    throw .timedOut("no bestmove \((clock.now - started).wholeMilliseconds) ms after go, even after stop")
                }
                reply.neededStop = true
                process.writeLine("stop")
                deadline = clock.now + stopGrace
            }
        }
    }

    /// Sends `quit` and waits up to `grace` for the process to end, then kills it.
    @discardableResult
    public func quit(grace: Duration = .seconds(1)) async -> ExitStatus? {
        await acquire()
        defer { release() }
        guard let process else { return nil }
        process.writeLine("quit")
        let status = await process.terminate(grace: grace)
        self.process = nil
        identity = nil
        return status
    }

    // MARK: - Helpers

    /// Requests are served one at a time, in order: a request waits here while another is
    /// exchanging lines with the engine (an actor alone would interleave them at each await).
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    private func send(_ dialect: EngineDialect, option name: String, value: String) {
        process?.writeLine(SetOptionCommand(name: name, value: value).line(dialect))
    }

    private func fen(_ position: Position, _ letters: PieceLetters) -> String {
        let text = position.fen
        guard letters == .horseElephant else { return text }
        let board = text.prefix { $0 != " " }.map { c -> Character in
            switch c {
            case "N": "H"
            case "n": "h"
            case "B": "E"
            case "b": "e"
            default: c
            }
        }
        return String(board) + text.drop { $0 != " " }
    }

    /// `isready` until `readyok`; the lines up to it.
    @discardableResult
    private func waitUntilReady(timeout: Duration) async throws(EngineClientError) -> [String] {
        guard let process else { throw .notRunning }
        process.writeLine("isready")
        return try await readUntil(["readyok"], timeout: timeout, waitingFor: "readyok") ?? []
    }

    /// A one-ply search of the start position: its answer names a piece's square in only one
    /// of the two numberings (no start-position move is legal under both).
    private func probeRankNumbering(timeout: Duration) async throws(EngineClientError) -> RankNumbering {
        guard let process else { throw .notRunning }
        process.writeLine("position startpos")
        process.writeLine("go depth 1")
        let lines = try await readUntil(["bestmove", "nobestmove"], timeout: timeout, waitingFor: "bestmove")!
        let words = lines.last!.split(separator: " ")
        let start = Position.start
        if words.count >= 2, MoveText.parse(words[1], .zeroBased).map(start.isLegal) != true,
           MoveText.parse(words[1], .oneBased).map(start.isLegal) == true {
            return .oneBased
        }
        return .zeroBased
    }

    /// Reads lines up to and including one starting with a word of `ends`; returns them all.
    /// After `timeout` from now (call it right after the request): `nil`, or with
    /// `failOnTimeout` a hang (the process is killed).
    private func readUntil(_ ends: Set<String>, timeout: Duration, waitingFor what: String,
                           failOnTimeout: Bool = true) async throws(EngineClientError) -> [String]? {
        guard let process else { throw .notRunning }
        let deadline = ContinuousClock.now + timeout
        var lines: [String] = []
        while true {
            switch await process.lines.next(until: deadline) {
            case .line(let line, _):
                lines.append(line)
                if let first = line.split(separator: " ").first, ends.contains(String(first)) { return lines }
            case .closed:
                throw await crash(while: "waiting for \(what)")
            case .timeout:
                guard failOnTimeout else { return nil }
                stopProcess()
                throw .timedOut("no \(what) in time")
            }
        }
    }

    /// The option name of an `option` line in either dialect.
    static func optionName(_ line: String) -> String? {
        guard line.hasPrefix("option ") else { return nil }
        let words = line.split(separator: " ").dropFirst()
        guard words.first == "name" else { return words.first.map(String.init) }
        let name = words.dropFirst().prefix { $0 != "type" }
        return name.isEmpty ? nil : name.joined(separator: " ")
    }

    private func crash(while doing: String) async -> EngineClientError {
        guard let process else { return .notRunning }
        // The output closed; give the process a moment to end so that its status is known.
        let status = await process.terminate(grace: .milliseconds(500))
        self.process = nil
        identity = nil
        return .crashed("the engine \(status) while \(doing)")
    }

    private func stopProcess() {
        guard let process else { return }
        process.kill()
        self.process = nil
        identity = nil
    }

}
