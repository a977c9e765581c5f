import XiangqiCore

/// A score as an engine reports it, from the side to move's view.
public enum EngineScore: Sendable, Equatable, CustomStringConvertible {
    case centipawns(Int)
    /// Mate in this many moves: positive, the side to move mates; negative, it is mated.
    case mate(Int)

    /// `+0.35` (pawns) or `+M3` / `-M2`, as in game records.
    public var description: String {
        switch self {
        case .centipawns(let cp):
            let sign = cp < 0 ? "-" : "+", a = abs(cp)
            return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
        case .mate(let n): return n < 0 ? "-M\(-n)" : "+M\(n)"
        }
    }
}

/// One `info` line with a score or a principal variation.
public struct EngineInfo: Sendable, Equatable {
    public var depth: Int?
    public var selectiveDepth: Int?
    public var score: EngineScore?
    /// The score is only a lower or upper bound (UCI `lowerbound` / `upperbound`).
    public var isBound = false
    public var nodes: UInt64?
    /// The engine's own `time` field, in ms.
    public var time: Int?
    /// Multi-PV line number (1 when absent).
    public var multiPV = 1
    /// Moves of the principal variation that could be read, in order.
    public var principalVariation: [Move] = []
    /// Milliseconds from `go` to the arrival of this line, measured by the client.
    public var receivedAt = 0

    public init() {}
}

/// What bounds a search.
public struct EngineLimits: Sendable, Equatable {
    /// Both clocks, for clock-controlled games.
    public struct Clocks: Sendable, Equatable {
        public var redTime: Int
        public var blackTime: Int
        public var redIncrement: Int
        public var blackIncrement: Int

        public init(redTime: Int, blackTime: Int, redIncrement: Int = 0, blackIncrement: Int = 0) {
            self.redTime = redTime
            self.blackTime = blackTime
            self.redIncrement = redIncrement
            self.blackIncrement = blackIncrement
        }
    }

    /// Milliseconds for the move.
    public var moveTime: Int?
    public var depth: Int?
    public var nodes: UInt64?
    public var clocks: Clocks?

    public init(moveTime: Int? = nil, depth: Int? = nil, nodes: UInt64? = nil, clocks: Clocks? = nil) {
        self.moveTime = moveTime
        self.depth = depth
        self.nodes = nodes
        self.clocks = clocks
    }

    /// The longest a search within these limits should take with `sideToMove` to move, in ms,
    /// or `nil` when only depth or nodes bound it.
    func expectedMilliseconds(sideToMove: Color) -> Int? {
        var longest: Int?
        if let moveTime { longest = moveTime }
        if let clocks {
            let own = sideToMove == .red ? clocks.redTime : clocks.blackTime
            longest = min(longest ?? Int.max, max(own, 0))
        }
        return longest
    }

    /// The `go` command in `dialect`, with `sideToMove`'s clock first in UCCI.
    func goCommand(_ dialect: EngineDialect, sideToMove: Color) -> String {
        var words = ["go"]
        if let depth { words += ["depth", "\(depth)"] }
        if let nodes { words += ["nodes", "\(nodes)"] }
        if let moveTime { words += ["movetime", "\(moveTime)"] }
        if let c = clocks {
            switch dialect {
            case .uci:
                words += ["wtime", "\(c.redTime)", "btime", "\(c.blackTime)",
                          "winc", "\(c.redIncrement)", "binc", "\(c.blackIncrement)"]
            case .ucci:
                let red = sideToMove == .red
                words += ["time", "\(red ? c.redTime : c.blackTime)", "increment", "\(red ? c.redIncrement : c.blackIncrement)",
                          "opptime", "\(red ? c.blackTime : c.redTime)",
                          "oppincrement", "\(red ? c.blackIncrement : c.redIncrement)"]
            }
        }
        if words.count == 1 { words += ["depth", "1"] }
        return words.joined(separator: " ")
    }
}

/// An engine's answer to one search.
public struct EngineReply: Sendable {
    /// The move played; `nil` when the engine said it has none (`nobestmove`, `bestmove (none)`).
    public var move: Move?
    /// The expected reply, when given and legal.
    public var ponderMove: Move?
    /// Every `info` line with a score or PV, in arrival order.
    public var infos: [EngineInfo] = []
    /// Milliseconds from sending `go` to the arrival of `bestmove`.
    public var elapsed = 0
    /// The search overran its deadline and answered only after `stop`.
    public var neededStop = false

    public init(move: Move? = nil, ponderMove: Move? = nil, infos: [EngineInfo] = [], elapsed: Int = 0) {
        self.move = move
        self.ponderMove = ponderMove
        self.infos = infos
        self.elapsed = elapsed
    }

    /// The last reported line of the best move (multi-PV line 1), if any.
    public var lastInfo: EngineInfo? { infos.last { $0.multiPV == 1 } }
}

/// Move text in an engine's rank numbering.
enum MoveText {
    /// Parses `h2e2` (0-9) or `h3e3` / `a10a9` (1-10); `nil` if not two squares.
    static func parse(_ text: Substring, _ numbering: RankNumbering) -> Move? {
        let bytes = Array(text.utf8)
        var index = 0
        func square() -> Square? {
            guard index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "i")).contains(bytes[index] | 0x20) else {
                return nil
            }
            let file = Int((bytes[index] | 0x20) - UInt8(ascii: "a"))
            index += 1
            var rank = 0, digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 2 {
                rank = rank * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
            return Square(file: file, rank: numbering == .oneBased ? rank - 1 : rank)
        }
        guard let from = square(), let to = square(), index == bytes.count, from != to else { return nil }
        return Move(from: from, to: to)
    }

    static func format(_ move: Move, _ numbering: RankNumbering) -> String {
        guard numbering == .oneBased else { return move.iccs }
        func name(_ s: Square) -> String {
            String(UnicodeScalar(UInt8(ascii: "a") + UInt8(s.file))) + "\(s.rank + 1)"
        }
        return name(move.from) + name(move.to)
    }
}

/// Reads `info` lines.
enum InfoParser {
    /// The fields of an `info` line; `nil` for lines with neither score nor PV (`info string`,
    /// `currmove` lines). Bare UCCI scores of at least 9000 in size are mates in
    /// (10000 − |score|) plies.
    static func parse(_ line: String, dialect: EngineDialect, numbering: RankNumbering) -> EngineInfo? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first == "info", !words.contains("string") else { return nil }
        var info = EngineInfo(), sawScore = false, i = 1
        func integer(_ at: Int) -> Int? { at < words.count ? Int(words[at]) : nil }
        while i < words.count {
            switch words[i] {
            case "depth": info.depth = integer(i + 1); i += 2
            case "seldepth": info.selectiveDepth = integer(i + 1); i += 2
            case "nodes": info.nodes = i + 1 < words.count ? UInt64(words[i + 1]) : nil; i += 2
            case "time": info.time = integer(i + 1); i += 2
            case "multipv": info.multiPV = integer(i + 1) ?? 1; i += 2
            case "lowerbound", "upperbound": info.isBound = true; i += 1
            case "score":
                if i + 2 < words.count, words[i + 1] == "cp", let v = Int(words[i + 2]) {
                    info.score = .centipawns(v); i += 3
                } else if i + 2 < words.count, words[i + 1] == "mate", let v = Int(words[i + 2]) {
                    info.score = .mate(v); i += 3
                } else if let v = integer(i + 1) {
                    if dialect == .ucci && abs(v) >= 9000 && abs(v) <= 10000 {
                        let plies = 10000 - abs(v)
                        info.score = .mate(v > 0 ? (plies + 1) / 2 : -(plies / 2))
                    } else {
                        info.score = .centipawns(v)
                    }
                    i += 2
                } else {
                    i += 1
                }
                sawScore = info.score != nil
            case "pv":
                i += 1
                while i < words.count, let move = MoveText.parse(words[i], numbering) {
                    info.principalVariation.append(move)
                    i += 1
                }
            default: i += 1
            }
        }
        return sawScore || !info.principalVariation.isEmpty ? info : nil
    }
}
