/// A game read from a game file: its tags, the position it started from, its moves (checked
/// legal) and its result, with where it stood in the file.
public struct RecordedGame: Sendable {
    /// 1-based number of the game in its file.
    public var number: Int
    /// 1-based line of the file where the game begins.
    public var line: Int
    /// PGN tags in file order (`Red`, `Black`, `Event`, `FEN`, ...); empty for a one-line game.
    public var tags: [(name: String, value: String)]
    /// The game replayed from its start (the `FEN` tag, else the start position).
    public var game: Game
    /// The moves as the file wrote them, one per move of ``game``.
    public var moveTexts: [String]
    /// The result the file gives, `nil` for `*` or none.
    public var result: GameResult?

    /// The value of tag `name`, if present.
    public func tag(_ name: String) -> String? { tags.first { $0.name == name }?.value }
}

/// Why a game of a game file could not be read: the game, its line and, for a move, the move.
public struct GameFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based number of the game in its file.
    public var game: Int
    /// 1-based line of the file where the game begins.
    public var line: Int
    /// What is wrong, naming the move (its number and text) when a move is.
    public var message: String

    /// The error of game `game`, which begins at `line`.
    public init(game: Int, line: Int, message: String) {
        self.game = game
        self.line = line
        self.message = message
    }

    public var description: String { "game \(game) (line \(line)): \(message)" }
}

/// Reads the game files that `xiangqi book build` and `xiangqi review` take: PGN (tag pairs,
/// an optional `FEN` tag, moves in ICCS, WXF or Chinese notation with move numbers, comments,
/// variations and a result) or one game per line (`RESULT<TAB>moves`, `#` comments).
public struct GameFileReader {
    /// Whether the text is PGN; decided by its first line that is not blank.
    private var isPGN: Bool?
    private var pgnLines: [String] = []
    private var pgnStart = 0
    private var lineNumber = 0
    private var gamesSeen = 0

    /// A reader at the start of a file.
    public init() {}

    /// Reads every game of `text`: the games and, in file order with them, the errors.
    public static func games(in text: String) -> [Result<RecordedGame, GameFileError>] {
        var reader = GameFileReader()
        var out: [Result<RecordedGame, GameFileError>] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(line)
            if line.last == "\r" { line.removeLast() }
            if let game = reader.read(line: line) { out.append(game) }
        }
        if let game = reader.finish() { out.append(game) }
        return out
    }

    /// Takes the file's next line (without its line end); returns a game when one is complete.
    public mutating func read(line: String) -> Result<RecordedGame, GameFileError>? {
        lineNumber += 1
        if isPGN == nil, !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            isPGN = line.hasPrefix("[")
        }
        switch isPGN {
        case true?:
            var done: Result<RecordedGame, GameFileError>?
            if line.hasPrefix("["), pgnLines.contains(where: { !$0.hasPrefix("[") && !$0.allSatisfy(\.isWhitespace) }) {
                done = takePGNGame()
            }
            if pgnLines.isEmpty { pgnStart = lineNumber }
            pgnLines.append(line)
            return done
        case false?:
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
            gamesSeen += 1
            return Self.lineGame(trimmed, number: gamesSeen, line: lineNumber)
        case nil:
            return nil
        }
    }

    /// Ends the file: returns its last PGN game, if one is pending.
    public mutating func finish() -> Result<RecordedGame, GameFileError>? {
        pgnLines.isEmpty ? nil : takePGNGame()
    }

    private mutating func takePGNGame() -> Result<RecordedGame, GameFileError> {
        gamesSeen += 1
        defer { pgnLines = [] }
        return Self.pgnGame(pgnLines, number: gamesSeen, line: pgnStart)
    }

    /// `RESULT<TAB>moves`.
    private static func lineGame(_ text: Substring, number: Int, line: Int) -> Result<RecordedGame, GameFileError> {
        let fields = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        let resultText = String(fields[0]).trimmingSpaces
        guard fields.count == 2, let result = GameResult(text: resultText) else {
            return .failure(GameFileError(game: number, line: line,
                                          message: "expected RESULT<TAB>MOVES with RESULT 1-0, 0-1 or 1/2-1/2"))
        }
        let texts = fields[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return replay(start: .start, texts: texts, tags: [], result: result, number: number, line: line)
    }

    /// Tag lines, then move text.
    private static func pgnGame(_ lines: [String], number: Int, line: Int) -> Result<RecordedGame, GameFileError> {
        var tags: [(name: String, value: String)] = []
        var text = ""
        for l in lines {
            let trimmed = l.trimmingSpaces
            if trimmed.hasPrefix("["), let space = trimmed.firstIndex(of: " "), let open = trimmed.firstIndex(of: "\""),
               let close = trimmed.lastIndex(of: "\""), open < close {
                var value = "", escaping = false
                for c in trimmed[trimmed.index(after: open)..<close] {
                    if escaping || c != "\\" { value.append(c); escaping = false } else { escaping = true }
                }
                tags.append((String(trimmed[trimmed.index(after: trimmed.startIndex)..<space]), value))
            } else {
                text += " " + l
            }
        }
        var start = Position.start
        if let fen = tags.first(where: { $0.name == "FEN" })?.value {
            do { start = try Position(fen: fen) } catch {
                return .failure(GameFileError(game: number, line: line, message: "bad FEN tag: \(error)"))
            }
        }
        // Drop comments {...}, (...) variations and move numbers; stop at the result.
        var cleaned = ""
        var depth = 0
        for ch in text {
            if ch == "{" || ch == "(" { depth += 1; continue }
            if ch == "}" || ch == ")" { depth = max(0, depth - 1); cleaned.append(" "); continue }
            if depth == 0 { cleaned.append(ch) }
        }
        var texts: [String] = []
        var tokenResult: GameResult?
        for token in cleaned.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if let result = GameResult(text: token) { tokenResult = result; break }
            if token == "*" { break }
            var t = token
            // "12." or "12..." before a move, or glued as "12.h2e2"; NAGs ($1) and !? marks.
            if let dot = t.lastIndex(of: "."), t[..<dot].allSatisfy({ $0.isNumber || $0 == "." }) {
                t = t[t.index(after: dot)...]
            }
            if t.first == "$" { continue }
            while let last = t.last, last == "!" || last == "?" { t = t.dropLast() }
            if !t.isEmpty { texts.append(String(t)) }
        }
        let tagResult = tags.first(where: { $0.name == "Result" }).flatMap { GameResult(text: $0.value) }
        return replay(start: start, texts: texts, tags: tags, result: tagResult ?? tokenResult, number: number, line: line)
    }

    private static func replay(start: Position, texts: [String], tags: [(name: String, value: String)],
                               result: GameResult?, number: Int, line: Int) -> Result<RecordedGame, GameFileError> {
        var game = Game(start)
        for (index, text) in texts.enumerated() {
            do { try game.play(text) } catch {
                let ply = index + 1
                let moveNumber = (start.fullmoveNumber - 1) + (ply + (start.sideToMove == .black ? 1 : 0) + 1) / 2
                let side = game.position.sideToMove == .red ? "Red" : "Black"
                return .failure(GameFileError(game: number, line: line,
                                              message: "move \(moveNumber) for \(side) (ply \(ply)) '\(text)': \(error)"))
            }
        }
        return .success(RecordedGame(number: number, line: line, tags: tags, game: game, moveTexts: texts, result: result))
    }
}
