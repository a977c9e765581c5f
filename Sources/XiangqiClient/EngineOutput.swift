import XiangqiCodec
import XiangqiCore

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

    /// The `go` command in `dialect`, with `sideToMove`'s clock first in UCCI (written by
    /// the codec's ``GoCommand``, which also reads GUIs' lines in the protocol session).
    func goCommand(_ dialect: EngineDialect, sideToMove: Color) -> String {
        var command = GoCommand()
        command.depth = depth
        command.nodes = nodes
        command.moveTime = moveTime
        if let c = clocks {
            command.redTime = c.redTime
            command.blackTime = c.blackTime
            command.redIncrement = c.redIncrement
            command.blackIncrement = c.blackIncrement
        }
        if depth == nil && nodes == nil && moveTime == nil && clocks == nil { command.depth = 1 }
        return command.line(dialect, sideToMove: sideToMove)
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
    public var lastInfo: EngineInfo? { infos.last { $0.lineNumber == 1 } }
}
