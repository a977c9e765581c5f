import XiangqiCore

/// A score as an engine reports it, from the side to move's view.
public enum EngineScore: Sendable, Equatable, CustomStringConvertible {
    case centipawns(Int)
    /// Mate in this many moves: positive, the side to move mates; negative (or 0, mated
    /// now), it is mated.
    case mate(Int)

    /// The protocol form of a search score (``Score``): mates in moves, else centipawns.
    public init(searchScore score: Int) {
        self = Score.isMate(score) ? .mate(Score.mateInMoves(score)) : .centipawns(score)
    }

    /// `+0.35` (pawns) or `+M3` / `-M2`, as in game records.
    public var description: String {
        switch self {
        case .centipawns(let cp):
            let sign = cp < 0 ? "-" : "+", a = abs(cp)
            return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
        case .mate(let n): return n <= 0 ? "-M\(-n)" : "+M\(n)"
        }
    }

    /// Reads ``description``'s form back: `+0.43`, `-1.05`, `+M3`, `-M2`.
    public init?(text: String) {
        if text.hasPrefix("+M") || text.hasPrefix("-M") {
            guard let n = Int(text.dropFirst(2)) else { return nil }
            self = .mate(text.hasPrefix("-") ? -n : n)
            return
        }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard digits.count == 2, let whole = Int(digits[0]), let cents = Int(digits[1]), digits[1].count == 2 else { return nil }
        let value = whole * 100 + cents
        self = .centipawns(sign == "-" ? -value : value)
    }

    /// UCI: `cp 35`, `mate 3`, `mate -2`.
    var uciText: String {
        switch self {
        case .centipawns(let cp): "cp \(cp)"
        case .mate(let n): "mate \(n)"
        }
    }

    /// UCCI scores are bare integers: centipawns within ±9000, and mates as ±(10000 − plies),
    /// ElephantEye's convention (a side that mates in n moves does so at ply 2n − 1; a side
    /// mated in n moves is mated at ply 2n).
    public var ucciValue: Int {
        switch self {
        case .centipawns(let cp): max(-9000, min(9000, cp))
        case .mate(let n): n > 0 ? 10000 - (2 * n - 1) : -(10000 - 2 * -n)
        }
    }

    /// The inverse of ``ucciValue``: values beyond ±9000 (up to ±10000) are mates.
    init(ucciValue v: Int) {
        if abs(v) > 9000 && abs(v) <= 10000 {
            let plies = 10000 - abs(v)
            self = .mate(v > 0 ? (plies + 1) / 2 : -(plies / 2))
        } else {
            self = .centipawns(v)
        }
    }
}

/// What one `info` line with search progress says. Fields absent from a line are `nil`.
/// ``line(_:_:)`` writes it in either dialect and ``init(parsing:dialect:numbering:)`` reads
/// it back (from this engine or any other).
public struct EngineInfo: Sendable, Equatable {
    /// `depth`: the iteration's nominal depth.
    public var depth: Int?
    /// `seldepth`: the deepest ply reached.
    public var selectiveDepth: Int?
    /// The MultiPV line number, when the line gives one (UCI).
    public var multiPV: Int?
    /// The score for the side to move, in centipawns or as a mate distance.
    public var score: EngineScore?
    /// `.lower`/`.upper` when the score is only a bound (UCI `lowerbound` / `upperbound`).
    public var bound: Bound = .exact
    /// Win, draw and loss chances per mille (`wdl`).
    public var chances: Chances?
    /// `nodes`: nodes searched so far.
    public var nodes: UInt64?
    /// `nps`: nodes per second.
    public var nodesPerSecond: UInt64?
    /// Per-mille of the hash table in use (UCI).
    public var hashfull: Int?
    /// The engine's own `time` field, in ms.
    public var time: Int?
    /// Moves of the principal variation that could be read, in order.
    public var principalVariation: [Move] = []
    /// Milliseconds from `go` to the arrival of this line, measured by the reader (not part
    /// of the text).
    public var receivedAt = 0

    /// A line that says nothing yet.
    public init() {}

    /// A search's report: every field this engine prints, with `chances` if they are shown.
    public init(_ info: SearchInfo, chances: Chances? = nil) {
        depth = info.depth
        selectiveDepth = info.selectiveDepth
        multiPV = info.multiPV
        score = EngineScore(searchScore: info.score)
        bound = info.bound
        self.chances = chances
        nodes = info.nodes
        nodesPerSecond = info.nodesPerSecond
        hashfull = info.hashfull
        time = info.time
        principalVariation = info.principalVariation
        receivedAt = info.time
    }

    /// Whether the score is only a bound.
    public var isBound: Bool { bound != .exact }

    /// The MultiPV line this reports (1, the best line, when the text does not say).
    public var lineNumber: Int { multiPV ?? 1 }

    /// The line in `dialect` with moves in `numbering`; `nil` for what UCCI cannot say (a
    /// bound, or a MultiPV line other than the first). UCCI lines leave out `seldepth`,
    /// `multipv` and `hashfull`.
    public func line(_ dialect: EngineDialect, _ numbering: RankNumbering = .zeroBased) -> String? {
        var words = ["info"]
        if let depth { words += ["depth", "\(depth)"] }
        switch dialect {
        case .ucci:
            guard bound == .exact, lineNumber == 1 else { return nil }
            if let score { words += ["score", "\(score.ucciValue)"] }
            if let chances { words += ["wdl", "\(chances.win)", "\(chances.draw)", "\(chances.loss)"] }
            if let time { words += ["time", "\(time)"] }
            if let nodes { words += ["nodes", "\(nodes)"] }
            if let nodesPerSecond { words += ["nps", "\(nodesPerSecond)"] }
        case .uci:
            if let selectiveDepth { words += ["seldepth", "\(selectiveDepth)"] }
            if let multiPV { words += ["multipv", "\(multiPV)"] }
            if let score { words += ["score", score.uciText] }
            if bound == .lower { words.append("lowerbound") } else if bound == .upper { words.append("upperbound") }
            if let chances { words += ["wdl", "\(chances.win)", "\(chances.draw)", "\(chances.loss)"] }
            if let nodes { words += ["nodes", "\(nodes)"] }
            if let nodesPerSecond { words += ["nps", "\(nodesPerSecond)"] }
            if let hashfull { words += ["hashfull", "\(hashfull)"] }
            if let time { words += ["time", "\(time)"] }
        }
        if !principalVariation.isEmpty {
            words.append("pv")
            words += principalVariation.map { MoveText.format($0, numbering) }
        }
        return words.joined(separator: " ")
    }

    /// Reads an `info` line; `nil` for lines with neither score nor PV (`info string`,
    /// `currmove` lines) and for other lines. Unknown fields are skipped; a PV ends at the
    /// first word that is not a move.
    public init?(parsing line: String, dialect: EngineDialect, numbering: RankNumbering) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard words.first == "info", !words.contains(where: { $0 == "string" }) else { return nil }
        var i = 1
        func integer(_ at: Int) -> Int? { at < words.count ? Int(words[at]) : nil }
        func unsigned(_ at: Int) -> UInt64? { at < words.count ? UInt64(words[at]) : nil }
        while i < words.count {
            switch words[i] {
            case "depth": depth = integer(i + 1); i += 2
            case "seldepth": selectiveDepth = integer(i + 1); i += 2
            case "nodes": nodes = unsigned(i + 1); i += 2
            case "nps": nodesPerSecond = unsigned(i + 1); i += 2
            case "hashfull": hashfull = integer(i + 1); i += 2
            case "time": time = integer(i + 1); i += 2
            case "multipv": multiPV = integer(i + 1); i += 2
            case "lowerbound": bound = .lower; i += 1
            case "upperbound": bound = .upper; i += 1
            case "wdl":
                if let w = integer(i + 1), let d = integer(i + 2), let l = integer(i + 3) {
                    chances = Chances(win: w, draw: d, loss: l)
                    i += 4
                } else {
                    i += 1
                }
            case "score":
                if i + 2 < words.count, words[i + 1] == "cp", let v = Int(words[i + 2]) {
                    score = .centipawns(v); i += 3
                } else if i + 2 < words.count, words[i + 1] == "mate", let v = Int(words[i + 2]) {
                    score = .mate(v); i += 3
                } else if let v = integer(i + 1) {
                    score = dialect == .ucci ? EngineScore(ucciValue: v) : .centipawns(v)
                    i += 2
                } else {
                    i += 1
                }
            case "pv":
                i += 1
                while i < words.count, let move = MoveText.parse(words[i], numbering) {
                    principalVariation.append(move)
                    i += 1
                }
            default: i += 1
            }
        }
        guard score != nil || !principalVariation.isEmpty else { return nil }
    }

    /// The `currmove` line of a long search (UCI; UCCI GUIs skip what they do not know).
    public static func currentMoveLine(depth: Int, move: Move, number: Int, _ numbering: RankNumbering = .zeroBased)
        -> String {
        "info depth \(depth) currmove \(MoveText.format(move, numbering)) currmovenumber \(number)"
    }
}

/// What a `bestmove` (or UCCI `nobestmove`) line says.
public struct BestMoveLine: Sendable, Equatable {
    /// The move; `nil` when the engine has none (`nobestmove`, `bestmove (none)`, `0000`) or
    /// when its text could not be read (see ``unreadableMove``).
    public var move: Move?
    /// The word after `bestmove` when it is not a readable move (and not a "none" form).
    public var unreadableMove: String?
    /// The expected reply (`ponder`), when given and readable.
    public var ponderMove: Move?
    /// UCCI: the engine offers or accepts a draw (`draw`).
    public var draw = false
    /// UCCI: the engine resigns (`resign`).
    public var resign = false

    /// The line for `move` (`nil`: no move), with the optional ponder move and UCCI words.
    public init(move: Move?, ponderMove: Move? = nil, draw: Bool = false, resign: Bool = false) {
        self.move = move
        self.ponderMove = ponderMove
        self.draw = draw
        self.resign = resign
    }

    /// The line in `dialect`: with no move, `nobestmove` (UCCI) or `bestmove (none)` (UCI).
    /// `draw` and `resign` are UCCI words and are left out in UCI.
    public func line(_ dialect: EngineDialect, _ numbering: RankNumbering = .zeroBased) -> String {
        guard let move else { return dialect == .ucci ? "nobestmove" : "bestmove (none)" }
        var words = ["bestmove", MoveText.format(move, numbering)]
        if let ponderMove { words += ["ponder", MoveText.format(ponderMove, numbering)] }
        if dialect == .ucci {
            if draw { words.append("draw") }
            if resign { words.append("resign") }
        }
        return words.joined(separator: " ")
    }

    /// Reads a `bestmove` or `nobestmove` line; `nil` for any other line.
    public init?(parsing line: String, numbering: RankNumbering) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first, first == "bestmove" || first == "nobestmove" else { return nil }
        guard first == "bestmove", words.count >= 2, words[1] != "(none)", words[1] != "0000" else { return }
        move = MoveText.parse(words[1], numbering)
        if move == nil { unreadableMove = String(words[1]) }
        var i = 2
        while i < words.count {
            switch words[i] {
            case "ponder":
                if i + 1 < words.count { ponderMove = MoveText.parse(words[i + 1], numbering) }
                i += 2
            case "draw": draw = true; i += 1
            case "resign": resign = true; i += 1
            default: i += 1
            }
        }
    }
}
