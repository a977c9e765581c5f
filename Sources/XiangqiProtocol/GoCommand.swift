import XiangqiCore
import XiangqiSearch

/// A `go` line of either dialect, parsed: what to search and how long. Parsing never fails:
/// bad or out-of-range numbers and unknown words are reported through `messages` (for
/// `info string`) and skipped or clamped.
struct GoCommand {
    var ponder = false
    var draw = false
    var infinite = false
    /// UCCI `depth 0`: report the static evaluation only.
    var depthZero = false
    var depth: Int?
    var nodes: UInt64?
    var mate: Int?
    var moveTime: Int?
    var perftDepth: Int?
    var searchMoves: [String] = []
    /// UCCI `time`/`increment` (the side to move's clock), in milliseconds.
    var ownTime: Int?
    var ownIncrement = 0
    var movesToGo: Int?
    /// UCI clocks by colour, in milliseconds.
    var redTime: Int?, blackTime: Int?, redIncrement = 0, blackIncrement = 0
    var messages: [String] = []

    /// Parses the words after `go`; `secondsScale` is 1000 when UCCI times are in seconds.
    init(_ args: [String], secondsScale: Int) {
        var i = 0
        var messages: [String] = []
        /// The number after `word`, clamped to `range` (times: 0 to about 31 years).
        func number(_ word: String, _ range: ClosedRange<Int> = 0...TimeManager.clockLimit) -> Int? {
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
            case "opptime", "oppincrement", "oppmovestogo": _ = number(word)
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
    func limits(for side: Color, base: SearchLimits) -> SearchLimits {
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
}
