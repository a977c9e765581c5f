import XiangqiCodec
import XiangqiCore

/// How each move of a match is limited.
public enum TimeControl: Sendable, Equatable, CustomStringConvertible {
    /// Milliseconds per move.
    case moveTime(Int)
    case depth(Int)
    case nodes(UInt64)
    /// A clock per side: base and increment in milliseconds.
    case clock(base: Int, increment: Int)

    /// Reads `BASE+INC` in seconds (`5+0.05`, `60`, `0.5+0.01`).
    public init?(clock text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let base = Self.milliseconds(parts[0]), base > 0 else { return nil }
        let increment = parts.count == 2 ? Self.milliseconds(parts[1]) : 0
        guard let increment else { return nil }
        self = .clock(base: base, increment: increment)
    }

    private static func milliseconds(_ seconds: Substring) -> Int? {
        guard let value = Double(seconds), value >= 0, value < 1e7 else { return nil }
        return Int((value * 1000).rounded())
    }

    public var description: String {
        switch self {
        case .moveTime(let ms): "movetime \(ms)ms"
        case .depth(let d): "depth \(d)"
        case .nodes(let n): "nodes \(n)"
        case .clock(let base, let increment): "tc \(Double(base) / 1000)+\(Double(increment) / 1000)"
        }
    }
}

/// A start for a pair of games: a position and moves played from it.
public struct Opening: Sendable {
    public var name: String
    public var start: Position
    public var moves: [Move]

    public init(name: String, start: Position = .start, moves: [Move] = []) {
        self.name = name
        self.start = start
        self.moves = moves
    }
}

/// Opening files: one opening a line, either moves from the start position (`h2e2 h9g7`, in
/// ICCS, WXF or Chinese) or `FEN` optionally followed by `; moves`. `#` starts a comment.
public enum OpeningFile {
    public static func parse(_ text: String, name: String) -> (openings: [Opening], errors: [SuiteLineError]) {
        var openings: [Opening] = [], errors: [SuiteLineError] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = (raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingBlanks
            if line.isEmpty { continue }
            var start = Position.start
            var moveText = line
            if line.contains("/") {
                let parts = line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                do {
                    start = try Position(fen: String(parts[0].trimmingBlanks))
                } catch {
                    errors.append(SuiteLineError(line: index + 1, message: "bad FEN: \(error)"))
                    continue
                }
                moveText = parts.count > 1 ? parts[1] : ""
            }
            var game = Game(start)
            var bad: String?
            for token in moveText.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
                do {
                    try game.play(String(token))
                } catch {
                    bad = "'\(token)' is not a legal move in \(game.position.fen)"
                    break
                }
            }
            if let bad {
                errors.append(SuiteLineError(line: index + 1, message: bad))
                continue
            }
            openings.append(Opening(name: "\(name):\(index + 1)", start: start, moves: game.moves))
        }
        return (openings, errors)
    }
}

/// One move of a game record.
public struct MoveRecord: Sendable {
    public var move: Move
    /// `false` for the opening's moves.
    public var searched: Bool
    public var score: EngineScore?
    public var depth: Int?
    public var milliseconds: Int
}

/// A finished game.
public struct GameRecord: Sendable {
    /// 1-based.
    public var number: Int
    public var opening: Opening
    public var red: String
    public var black: String
    /// Whether the first engine of the match played red.
    public var firstIsRed: Bool
    public var moves: [MoveRecord]
    public var result: GameResult
    /// Why it ended: `checkmate`, `perpetual check by Red`, `time forfeit by Black`, ...
    public var reason: String
    public var finalFEN: String
    /// What each engine said it is: `id name` and evaluation (``EngineIdentity/summary``).
    public var redEngine: String? = nil
    public var blackEngine: String? = nil

    /// The first engine's points: 1, 0.5 or 0.
    public var firstPoints: Double {
        switch result {
        case .draw: 0.5
        case .redWins: firstIsRed ? 1 : 0
        case .blackWins: firstIsRed ? 0 : 1
        }
    }
}

/// Everything a match runner needs besides the two engines.
public struct MatchSettings: Sendable {
    public var games: Int
    public var timeControl: TimeControl
    /// Played in turn, each with both colours; empty: the start position.
    public var openings: [Opening]
    public var concurrency = 1
    /// A game still going after this many plies (opening included) is drawn.
    public var maxPlies = 400
    /// The no-capture limit in moves per side (``Game/status(moveLimit:repetitionFold:)``).
    public var moveLimit = 60
    public var repetitionFold = 3
    /// Milliseconds a clock may go below zero before the side loses on time.
    public var timeMargin = 20
    /// How long past its time an engine may go before `stop`, and after `stop` before it is hung.
    public var stopGrace: Duration = .milliseconds(1000)
    /// For depth- and node-limited games: the longest a move may take before the engine is hung.
    public var unboundedMoveTimeout: Duration = .seconds(120)
    /// Asked before each new game: `false` ends the match after the games in progress (an
    /// interrupted match still gives its report).
    public var shouldContinue: @Sendable () -> Bool = { true }
    /// Stop as soon as the SPRT (elo0, elo1) over game pairs (pentanomial) reaches a verdict.
    public var sprt: (elo0: Double, elo1: Double)?
    /// Games of this match already played (numbers 1 to n, as read back from its record by
    /// ``GameRecord/records(fromPGN:)``): the match goes on with game n + 1, and the totals and
    /// the SPRT count them.
    public var previousGames: [GameRecord] = []

    public init(games: Int, timeControl: TimeControl, openings: [Opening] = []) {
        self.games = games
        self.timeControl = timeControl
        self.openings = openings
    }
}

/// The outcome of a match, from the first engine's view.
public struct MatchSummary: Sendable {
    public var firstName: String
    public var secondName: String
    /// What each engine said it is: `id name` and evaluation (``EngineIdentity/summary``).
    public var firstEngine: String
    public var secondEngine: String
    /// What each engine said about its configured options when it started
    /// (``EngineIdentity/optionMessages``): an option it refused or changed.
    public var firstOptionMessages: [String] = []
    public var secondOptionMessages: [String] = []
    public var games: [GameRecord]
    /// Set when the match could not go on (an engine could not be restarted).
    public var abortReason: String?

    public func statistics(firstAsRed: Bool? = nil) -> MatchStatistics {
        var s = MatchStatistics(wins: 0, draws: 0, losses: 0)
        for g in games where firstAsRed == nil || g.firstIsRed == firstAsRed {
            switch g.firstPoints {
            case 1: s.wins += 1
            case 0: s.losses += 1
            default: s.draws += 1
            }
        }
        return s
    }

    /// The results by pairs of games played from one opening with colours swapped.
    public var pairStatistics: PairStatistics { PairStatistics(games: games) }

    /// Terminations with their counts, most frequent first.
    public var reasons: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for g in games { counts[g.reason, default: 0] += 1 }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}

/// Plays a match between two engines: each opening twice with the colours swapped, games
/// adjudicated by the project's own rules (``Game/status(moveLimit:repetitionFold:)``); an
/// illegal move, a time forfeit, a crash or a hang loses the game, with the reason recorded,
/// and a crashed or hung engine is restarted before the next game.
public struct MatchRunner: Sendable {
    public var first: EngineConfiguration
    public var second: EngineConfiguration
    public var settings: MatchSettings

    public init(first: EngineConfiguration, second: EngineConfiguration, settings: MatchSettings) {
        self.first = first
        self.second = second
        self.settings = settings
    }

    /// Plays the games, `settings.concurrency` at a time; `onGame` sees each finished game with
    /// the running totals, by games and by finished pairs. Throws only when an engine cannot be
    /// started at all.
    public func run(onGame: @escaping @Sendable (GameRecord, MatchStatistics, PairStatistics) -> Void = { _, _, _ in })
        async throws(EngineClientError) -> MatchSummary {
        let ledger = Ledger(total: settings.games, sprt: settings.sprt, previous: settings.previousGames,
                            shouldContinue: settings.shouldContinue)
        // Start one pair first, so that a bad engine command fails at once with its reason.
        let firstPair = try await startPair()
        let identities = (await firstPair.0.identity, await firstPair.1.identity)
        let names = (identities.0?.name ?? "first", identities.1?.name ?? "second")
        let engines = (identities.0?.summary ?? names.0, identities.1?.summary ?? names.1)
        let workers = max(1, min(settings.concurrency, settings.games))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let pair: (EngineClient, EngineClient)
                    if worker == 0 {
                        pair = firstPair
                    } else {
                        do {
                            pair = try await startPair()
                        } catch {
                            await ledger.abort("could not start the engines: \(error)")
                            return
                        }
                    }
                    await play(with: pair, names: names, engines: engines, ledger: ledger, onGame: onGame)
                    await pair.0.quit()
                    await pair.1.quit()
                }
            }
        }
        return MatchSummary(firstName: names.0, secondName: names.1, firstEngine: engines.0, secondEngine: engines.1,
                            firstOptionMessages: identities.0?.optionMessages ?? [],
                            secondOptionMessages: identities.1?.optionMessages ?? [],
                            games: await ledger.sortedGames,
                            abortReason: await ledger.abortReason)
    }

    private func startPair() async throws(EngineClientError) -> (EngineClient, EngineClient) {
        let a = EngineClient(first), b = EngineClient(second)
        for client in [a, b] {
            await client.setTimeouts(stopGrace: settings.stopGrace, unboundedSearch: settings.unboundedMoveTimeout)
        }
        try await a.start()
        do {
            try await b.start()
        } catch {
            await a.quit()
            throw error
        }
        return (a, b)
    }

    private func play(with pair: (EngineClient, EngineClient), names: (String, String), engines: (String, String),
                      ledger: Ledger,
                      onGame: @Sendable (GameRecord, MatchStatistics, PairStatistics) -> Void) async {
        while let index = await ledger.nextGame() {
            let openings = settings.openings.isEmpty ? [Opening(name: "start")] : settings.openings
            let opening = openings[(index / 2) % openings.count]
            let firstIsRed = index % 2 == 0
            for client in [pair.0, pair.1] where !(await client.isRunning) {
                do {
                    try await client.restart()
                } catch {
                    await ledger.abort("\(client.configuration.executable) could not be restarted: \(error)")
                    return
                }
            }
            var record = await playGame(number: index + 1, opening: opening,
                                        red: firstIsRed ? pair.0 : pair.1, black: firstIsRed ? pair.1 : pair.0,
                                        names: firstIsRed ? names : (names.1, names.0), firstIsRed: firstIsRed)
            (record.redEngine, record.blackEngine) = firstIsRed ? engines : (engines.1, engines.0)
            let (totals, pairs) = await ledger.record(record)
            onGame(record, totals, pairs)
        }
    }

    /// Plays one game to its end; never throws: every engine failure decides the game.
    func playGame(number: Int, opening: Opening, red: EngineClient, black: EngineClient,
                  names: (red: String, black: String), firstIsRed: Bool) async -> GameRecord {
        var game = Game(opening.start)
        var records: [MoveRecord] = []
        for move in opening.moves {
            try? game.play(move)
            records.append(MoveRecord(move: move, searched: false, milliseconds: 0))
        }
        var clocks: (red: Int, black: Int) = (0, 0)
        var increment = 0
        if case .clock(let base, let inc) = settings.timeControl {
            clocks = (base, base)
            increment = inc
        }
        func finish(_ result: GameResult, _ reason: String) -> GameRecord {
            GameRecord(number: number, opening: opening, red: names.red, black: names.black, firstIsRed: firstIsRed,
                       moves: records, result: result, reason: reason, finalFEN: game.position.fen)
        }
        for client in [red, black] where await client.isRunning {
            try? await client.newGame()
        }
        while true {
            switch game.status(moveLimit: settings.moveLimit, repetitionFold: settings.repetitionFold) {
            case .ongoing: break
            case .win(let winner, let reason):
                let loser = winner == .red ? "Black" : "Red"
                let text = reason == .perpetualCheck || reason == .perpetualChase ? "\(reason.rawValue) by \(loser)" : reason.rawValue
                return finish(.win(for: winner), text)
            case .draw(let reason):
                return finish(.draw, reason.rawValue)
            }
            if game.moves.count >= settings.maxPlies { return finish(.draw, "max plies") }
            let mover = game.position.sideToMove
            let moverName = mover == .red ? "Red" : "Black"
            let client = mover == .red ? red : black
            var limits = EngineLimits()
            switch settings.timeControl {
            case .moveTime(let ms): limits.moveTime = ms
            case .depth(let d): limits.depth = d
            case .nodes(let n): limits.nodes = n
            case .clock:
                limits.clocks = .init(redTime: clocks.red, blackTime: clocks.black, redIncrement: increment,
                                      blackIncrement: increment)
            }
            let reply: EngineReply
            do {
                reply = try await client.search(from: opening.start, moves: game.moves, limits: limits)
            } catch {
                let reason = switch error {
                case .illegalMove(let text): "illegal move by \(moverName): \(text)"
                case .timedOut: "hang by \(moverName)"
                case .crashed(let text): "crash by \(moverName): \(text)"
                default: "crash by \(moverName): \(error)"
                }
                return finish(.win(for: mover.opponent), reason)
            }
            if case .clock = settings.timeControl {
                let left = (mover == .red ? clocks.red : clocks.black) - reply.elapsed
                if left < -settings.timeMargin {
                    return finish(.win(for: mover.opponent), "time forfeit by \(moverName)")
                }
                if mover == .red { clocks.red = left + increment } else { clocks.black = left + increment }
            }
            guard let move = reply.move else {
                return finish(.win(for: mover.opponent), "no move by \(moverName) (resigned)")
            }
            let info = reply.lastInfo
            records.append(MoveRecord(move: move, searched: true, score: info?.score, depth: info?.depth,
                                      milliseconds: reply.elapsed))
            try? game.play(move)
        }
    }
}

/// The shared state of a running match: which game is next, the results, an early stop.
actor Ledger {
    private let total: Int
    private let sprt: (elo0: Double, elo1: Double)?
    private var handedOut = 0
    private var games: [GameRecord] = []
    private(set) var abortReason: String?
    private var stopped = false

    private let shouldContinue: @Sendable () -> Bool

    init(total: Int, sprt: (elo0: Double, elo1: Double)?, previous: [GameRecord],
         shouldContinue: @escaping @Sendable () -> Bool) {
        self.total = total
        self.sprt = sprt
        self.shouldContinue = shouldContinue
        games = previous.sorted { $0.number < $1.number }
        handedOut = games.count
        if let sprt, PairStatistics(games: games).sprt(elo0: sprt.elo0, elo1: sprt.elo1) != .continuing { stopped = true }
    }

    func nextGame() -> Int? {
        guard !stopped, handedOut < total, shouldContinue() else { return nil }
        handedOut += 1
        return handedOut - 1
    }

    func record(_ game: GameRecord) -> (MatchStatistics, PairStatistics) {
        games.append(game)
        let totals = MatchSummary(firstName: "", secondName: "", firstEngine: "", secondEngine: "", games: games).statistics()
        let pairs = PairStatistics(games: games)
        // The SPRT is judged on finished pairs (pentanomial), as the games are played in pairs.
        if let sprt, pairs.sprt(elo0: sprt.elo0, elo1: sprt.elo1) != .continuing { stopped = true }
        return (totals, pairs)
    }

    func abort(_ reason: String) {
        if abortReason == nil { abortReason = reason }
        stopped = true
    }

    var sortedGames: [GameRecord] { games.sorted { $0.number < $1.number } }
}
