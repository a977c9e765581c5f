/// A `position` line of either dialect: where the game starts and the moves played since.
/// The protocol session reads GUIs' lines into it (and then the moves, in one rank numbering,
/// with ``MoveListReading``); the client writes other engines' lines from it.
public struct PositionCommand: Sendable, Equatable {
    /// Where the game starts.
    public enum Start: Sendable, Equatable {
        case startPosition
        /// A FEN as written (checked by whoever reads it as a position).
        case fen(String)
    }

    /// Where the position starts: the start position or a FEN.
    public var start: Start
    /// The words after `moves`, as written.
    public var moveWords: [String]

    /// A position from `start` with `moveWords` played.
    public init(start: Start, moveWords: [String] = []) {
        self.start = start
        self.moveWords = moveWords
    }

    /// Reads the words after `position`: `startpos` or `fen <FEN>`, then `moves ...`. On
    /// anything else, `nil` and the reason in `message` (for `info string`).
    public init?(_ args: [String], message: inout String?) {
        guard let kind = args.first?.lowercased() else {
            message = "position needs 'startpos' or 'fen <FEN>'; position unchanged"
            return nil
        }
        let movesIndex = args.firstIndex(where: { $0.lowercased() == "moves" }) ?? args.count
        switch kind {
        case "startpos": start = .startPosition
        case "fen": start = .fen(args[1..<max(1, movesIndex)].joined(separator: " "))
        default:
            message = "position needs 'startpos' or 'fen <FEN>', not '\(args[0])'; position unchanged"
            return nil
        }
        moveWords = movesIndex < args.count ? Array(args[(movesIndex + 1)...]) : []
    }

    /// The line (`position startpos moves ...` or `position fen ... moves ...`).
    public var line: String {
        var words = ["position"]
        switch start {
        case .startPosition: words.append("startpos")
        case .fen(let fen): words += ["fen", fen]
        }
        if !moveWords.isEmpty { words += ["moves"] + moveWords }
        return words.joined(separator: " ")
    }
}

/// A `setoption` line: UCI's `setoption name N [value V]` or UCCI's `setoption N V` (names
/// and values may hold spaces in UCI). The protocol session reads GUIs' lines into it; the
/// client writes other engines' lines from it.
public struct SetOptionCommand: Sendable, Equatable {
    /// The option's name as written (the engine matches it without regard to case, spaces and underscores).
    public var name: String
    /// The value as written; empty for a button or when none was given.
    public var value: String

    /// An option `name` set to `value`.
    public init(name: String, value: String = "") {
        self.name = name
        self.value = value
    }

    /// Reads the words after `setoption` in either grammar; `nil` without an option name.
    public init?(_ args: [String]) {
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
        guard !name.isEmpty else { return nil }
        self.name = name
        self.value = value
    }

    /// The line in `dialect`'s grammar.
    public func line(_ dialect: EngineDialect) -> String {
        dialect == .uci ? "setoption name \(name) value \(value)" : "setoption \(name) \(value)"
    }
}
