/// How a game ended, as game files and match records write it. The one result type of the
/// package (books read it, matches write it).
public enum GameResult: String, Sendable, Equatable {
    case redWins = "1-0"
    case blackWins = "0-1"
    case draw = "1/2-1/2"

    /// Reads `1-0`, `0-1`, `1/2-1/2` or `½-½`.
    public init?<S: StringProtocol>(text: S) {
        switch text {
        case "1-0": self = .redWins
        case "0-1": self = .blackWins
        case "1/2-1/2", "½-½": self = .draw
        default: return nil
        }
    }

    /// The win of `color`.
    public static func win(for color: Color) -> GameResult { color == .red ? .redWins : .blackWins }
}

extension GameStatus {
    /// The result of a decided game, or `nil` while it goes on.
    public var result: GameResult? {
        switch self {
        case .ongoing: nil
        case .win(let color, _): .win(for: color)
        case .draw: .draw
        }
    }
}
