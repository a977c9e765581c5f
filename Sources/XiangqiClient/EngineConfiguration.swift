import XiangqiCodec

/// Why talking to an engine failed. Every failure of the client is one of these.
public enum EngineClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine specification could not be read.
    case badSpecification(String)
    /// The process could not be started.
    case launchFailed(String)
    /// The engine ended (or closed its output) while it was expected to answer.
    case crashed(String)
    /// The engine did not answer in time; it has been killed.
    case timedOut(String)
    /// The engine answered with a move that is not legal in the position.
    case illegalMove(String)
    /// The engine has not been started, or was killed after a failure and not restarted.
    case notRunning

    public var description: String {
        switch self {
        case .badSpecification(let text): "bad engine specification: \(text)"
        case .launchFailed(let text): "launch failed: \(text)"
        case .crashed(let text): "crash: \(text)"
        case .timedOut(let text): "hang: \(text)"
        case .illegalMove(let text): "illegal move: \(text)"
        case .notRunning: "the engine is not running"
        }
    }
}

/// Piece letters in FENs sent to the engine: chess-style N/B (the standard) or H/E.
public enum PieceLetters: String, Sendable {
    case knightBishop = "nb"
    case horseElephant = "he"
}

/// How to start and set up an engine.
///
/// Written as a specification string: the command words, then optional `key=value` words:
/// `name=NAME`, `proto=auto|ucci|uci`, `notation=auto|iccs|uci10`, `fen=auto|nb|he`, and
/// `opt.NAME=VALUE` for each option to set (quote a word that has spaces: `'opt.Skill
/// Level=5'`). For example `"/usr/games/fairy-stockfish proto=uci opt.Hash=16"`. With `auto`
/// the client decides at the handshake (see ``EngineClient/start()``).
public struct EngineConfiguration: Sendable {
    public var executable: String
    public var arguments: [String]
    /// The name used in reports; default: the engine's `id name`, else the executable's name.
    public var name: String?
    /// `nil`: try UCCI first, then UCI.
    public var dialect: EngineDialect?
    /// `nil`: found by a one-ply probe search at the handshake.
    public var rankNumbering: RankNumbering?
    /// `nil`: H/E for engines known to need them (Sjaak), N/B otherwise.
    public var pieceLetters: PieceLetters?
    /// Options set after the handshake, in order.
    public var options: [(name: String, value: String)] = []
    /// Time allowed for the handshake.
    public var handshakeTimeout: Duration = .seconds(10)

    public init(executable: String, arguments: [String] = [], name: String? = nil, dialect: EngineDialect? = nil,
                rankNumbering: RankNumbering? = nil, pieceLetters: PieceLetters? = nil,
                options: [(name: String, value: String)] = []) {
        self.executable = executable
        self.arguments = arguments
        self.name = name
        self.dialect = dialect
        self.rankNumbering = rankNumbering
        self.pieceLetters = pieceLetters
        self.options = options
    }

    /// Reads a specification string (see the type's documentation).
    public init(specification: String) throws(EngineClientError) {
        var command: [String] = []
        var name: String?, dialect: EngineDialect?, numbering: RankNumbering?, letters: PieceLetters?
        var options: [(name: String, value: String)] = []
        for word in try Self.words(specification) {
            let (key, hasValue, value) = Self.keyValue(word)
            guard hasValue, command.count > 0 else {
                command.append(word)
                continue
            }
            switch key {
            case "name": name = value
            case "proto":
                guard value == "auto" || EngineDialect(rawValue: value) != nil else {
                    throw .badSpecification("proto must be auto, ucci or uci, not '\(value)'")
                }
                dialect = EngineDialect(rawValue: value)
            case "notation":
                guard value == "auto" || RankNumbering(rawValue: value) != nil else {
                    throw .badSpecification("notation must be auto, iccs or uci10, not '\(value)'")
                }
                numbering = RankNumbering(rawValue: value)
            case "fen":
                guard value == "auto" || PieceLetters(rawValue: value) != nil else {
                    throw .badSpecification("fen must be auto, nb or he, not '\(value)'")
                }
                letters = PieceLetters(rawValue: value)
            default:
                if key.hasPrefix("opt."), key.count > 4 {
                    options.append((String(key.dropFirst(4)), value))
                } else {
                    command.append(word)
                }
            }
        }
        guard let executable = command.first else { throw .badSpecification("no command in '\(specification)'") }
        self.init(executable: executable, arguments: Array(command.dropFirst()), name: name, dialect: dialect,
                  rankNumbering: numbering, pieceLetters: letters, options: options)
    }

    private static func keyValue(_ word: String) -> (key: String, hasValue: Bool, value: String) {
        guard let equals = word.firstIndex(of: "=") else { return (word, false, "") }
        return (String(word[..<equals]), true, String(word[word.index(after: equals)...]))
    }

    /// Splits on blanks, honouring single and double quotes and backslash escapes.
    static func words(_ text: String) throws(EngineClientError) -> [String] {
        var words: [String] = [], current = "", inWord = false
        var quote: Character?, escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw .badSpecification("unterminated quote in '\(text)'") }
        if inWord { words.append(current) }
        return words
    }
}
