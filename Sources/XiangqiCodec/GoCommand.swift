import XiangqiCore

/// A `go` line of either dialect: what to search and how long. The protocol session parses
/// GUIs' lines into it, the client writes other engines' lines from it. Parsing never fails:
/// bad or out-of-range numbers and unknown words are reported through `messages` (for
/// `info string`) and skipped or clamped.
public struct GoCommand: Sendable, Equatable {
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    public var ponder = false
    /// UCCI `draw`: the opponent offers a draw with its last move.
    public var draw = false
    /// `infinite`: search until `stop`, whatever else is given.
    public var infinite = false
    /// UCCI `depth 0`: report the static evaluation only.
    public var depthZero = false
    /// `depth N`: the deepest iteration.
    public var depth: Int?
    /// `nodes N`: stop after about this many nodes.
    public var nodes: UInt64?
    /// `mate N`: look for a mate in N moves.
    public var mate: Int?
    /// `movetime N`: milliseconds for this move.
    public var moveTime: Int?
    /// `perft N` (Stockfish's `go perft`): count the moves to depth N instead of searching.
    public var perftDepth: Int?
    /// `searchmoves ...`: the root moves to choose among, as written (read in one rank
    /// numbering by ``MoveListReading``).
    public var searchMoves: [String] = []
    /// UCCI `time`/`increment` (the side to move's clock) and `opptime`/`oppincrement`, in
    /// milliseconds.
    public var ownTime: Int?
    /// UCCI `increment`, in milliseconds.
    public var ownIncrement = 0
    /// UCCI `opptime`, in milliseconds.
    public var opponentTime: Int?
    /// UCCI `oppincrement`, in milliseconds.
    public var opponentIncrement = 0
    /// `movestogo` (UCCI `movestogo`): moves until the next time control.
    public var movesToGo: Int?
    /// UCI clocks by colour, in milliseconds.
    public var redTime: Int?, blackTime: Int?, redIncrement = 0, blackIncrement = 0
    /// What parsing reported (bad numbers, unknown words), for `info string`.
    public var messages: [String] = []

    /// A `go` with nothing set: a search without limits.
    public init() {}

    /// Parses the words after `go`; `secondsScale` is 1000 when UCCI times are in seconds.
    public init(_ args: [String], secondsScale: Int = 1) {
        var i = 0
        var messages: [String] = []
        /// The number after `word`, clamped to `range` (times: 0 to about 31 years).
        func number(_ word: String, _ range: ClosedRange<Int> = 0...SearchLimits.clockLimit) -> Int? {
            guard i + 1 < args.count else {
                messages.append("go: '\(word)' needs a number")
                return nil
            }
            i += 1
            switch ProtocolNumber.read(args[i], in: range) {
            case .value(let n):
                return n
            case .clamped(let n):
                messages.append("go: \(word) '\(args[i])' is out of range \(range.lowerBound)-\(range.upperBound); using \(n)")
                return n
            case .invalid:
                messages.append("go: '\(args[i])' after '\(word)' is not a number, ignored")
                return nil
            }
        }
        while i < args.count {
            let word = args[i].lowercased()
            switch word {
            case "ponder": ponder = true
            case "draw": draw = true
            case "infinite": infinite = true
            case "depth":
                if let n = number(word, 0...Score.maxPly - 8) {
                    if n == 0 { depthZero = true } else { depth = n }
                }
            case "nodes": if let n = number(word, 1...Int.max) { nodes = UInt64(n) }
            case "mate": if let n = number(word, 1...Score.maxPly / 2) { mate = n }
            case "movetime": if let n = number(word) { moveTime = n }
            case "time": if let n = number(word) { ownTime = n * secondsScale }
            case "increment": if let n = number(word) { ownIncrement = n * secondsScale }
            case "movestogo": if let n = number(word, 1...10_000) { movesToGo = n }
            case "opptime": if let n = number(word) { opponentTime = n * secondsScale }
            case "oppincrement": if let n = number(word) { opponentIncrement = n * secondsScale }
            case "oppmovestogo": _ = number(word)
            case "wtime": redTime = number(word)
            case "btime": blackTime = number(word)
            case "winc": redIncrement = number(word) ?? 0
            case "binc": blackIncrement = number(word) ?? 0
            case "perft": perftDepth = number(word, 0...10_000)
            case "searchmoves":
                searchMoves = Array(args[(i + 1)...])
                i = args.count
            default: messages.append("go: unknown word '\(args[i])' ignored")
            }
            i += 1
        }
        self.messages = messages
    }

    /// The search limits for `side` to move, on top of `base` (overhead, ponder setting). No
    /// bound at all (or UCI `depth 0`, which Stockfish-family engines read as "no limit")
    /// searches until `stop`.
    public func limits(for side: Color, base: SearchLimits) -> SearchLimits {
        var limits = base
        limits.depth = depth
        limits.nodes = nodes
        limits.mate = mate
        limits.moveTime = moveTime
        if let ownTime {
            limits.clock = SearchLimits.Clock(timeLeft: ownTime, increment: ownIncrement, movesToGo: movesToGo)
        } else if let t = side == .red ? redTime : blackTime {
            limits.clock = SearchLimits.Clock(timeLeft: t, increment: side == .red ? redIncrement : blackIncrement,
                                              movesToGo: movesToGo)
        }
        let noBound = limits.depth == nil && limits.nodes == nil && limits.moveTime == nil && limits.clock == nil
            && limits.mate == nil
        limits.infinite = infinite || noBound
        return limits
    }

    /// The line in `dialect` for `sideToMove` (UCCI gives the clocks as own and opponent's,
    /// UCI by colour; either kind of clock is written in either dialect). Times in
    /// milliseconds; `searchmoves` last.
    public func line(_ dialect: EngineDialect, sideToMove: Color) -> String {
        var words = ["go"]
        if ponder { words.append("ponder") }
        if infinite { words.append("infinite") }
        if depthZero { words += ["depth", "0"] } else if let depth { words += ["depth", "\(depth)"] }
        if let nodes { words += ["nodes", "\(nodes)"] }
        if let mate { words += ["mate", "\(mate)"] }
        if let moveTime { words += ["movetime", "\(moveTime)"] }
        let red = sideToMove == .red
        // The clocks by colour, whichever way they were given.
        let redClock = redTime.map { ($0, redIncrement) } ?? (red ? ownTime.map { ($0, ownIncrement) } : opponentTime.map { ($0, opponentIncrement) })
        let blackClock = blackTime.map { ($0, blackIncrement) } ?? (red ? opponentTime.map { ($0, opponentIncrement) } : ownTime.map { ($0, ownIncrement) })
        switch dialect {
        case .uci:
            if let redClock { words += ["wtime", "\(redClock.0)"] }
            if let blackClock { words += ["btime", "\(blackClock.0)"] }
            if let redClock { words += ["winc", "\(redClock.1)"] }
            if let blackClock { words += ["binc", "\(blackClock.1)"] }
        case .ucci:
            let own = red ? redClock : blackClock, other = red ? blackClock : redClock
            if let own { words += ["time", "\(own.0)", "increment", "\(own.1)"] }
            if let other { words += ["opptime", "\(other.0)", "oppincrement", "\(other.1)"] }
        }
        if let movesToGo { words += ["movestogo", "\(movesToGo)"] }
        if draw && dialect == .ucci { words.append("draw") }
        if let perftDepth { words += ["perft", "\(perftDepth)"] }
        if !searchMoves.isEmpty { words += ["searchmoves"] + searchMoves }
        return words.joined(separator: " ")
    }
}
