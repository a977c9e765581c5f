#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCodec
import XiangqiCore

extension GameRecord {
    /// The game as PGN-style text: tags (with the start FEN and the termination), ICCS moves
    /// numbered by move pairs, and a comment after each searched move with the mover's score
    /// in pawns (or `M`ate distance), the depth and the think time: `{+0.35/12 105ms}`;
    /// opening moves carry `{book}`.
    public func pgn(event: String = "xiangqi match", round: Int? = nil, timeControl: TimeControl? = nil) -> String {
        var tags: [(String, String)] = [
            ("Event", event), ("Site", "?"), ("Date", Self.today()), ("Round", "\(round ?? number)"),
            ("Red", red), ("Black", black), ("Result", result.rawValue), ("FEN", opening.start.fen),
            ("Opening", opening.name),
        ]
        if let redEngine { tags.append(("RedEngine", redEngine)) }
        if let blackEngine { tags.append(("BlackEngine", blackEngine)) }
        if let timeControl { tags.append(("TimeControl", timeControl.description)) }
        tags += [("Termination", reason), ("PlyCount", "\(moves.count)")]
        var text = tags.map { "[\($0.0) \"\(Self.escaped($0.1))\"]" }.joined(separator: "\n") + "\n\n"
        var line = ""
        var ply = opening.start.sideToMove == .red ? 0 : 1
        var moveNumber = opening.start.fullmoveNumber
        func add(_ word: String) {
            if line.count + word.count + 1 > 100 {
                text += line + "\n"
                line = ""
            }
            line += line.isEmpty ? word : " " + word
        }
        for (i, record) in moves.enumerated() {
            if ply % 2 == 0 {
                add("\(moveNumber).")
            } else if i == 0 {
                add("\(moveNumber)...")
            }
            add(record.move.iccs)
            if record.searched {
                let score = record.score.map(\.description) ?? "?"
                add("{\(score)/\(record.depth ?? 0) \(record.milliseconds)ms}")
            } else {
                add("{book}")
            }
            ply += 1
            if ply % 2 == 0 { moveNumber += 1 }
        }
        add("{\(reason)} \(result.rawValue)")
        return text + line + "\n"
    }

    private static func escaped(_ value: String) -> String {
        value.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : String($0) }.joined()
    }

    /// Today's date (UTC) as `YYYY.MM.DD`.
    static func today() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900).\(two(parts.tm_mon + 1)).\(two(parts.tm_mday))"
    }
}

/// A game of a PGN text that could not be read back, with why.
public struct PGNGameError: Error, Sendable, CustomStringConvertible {
    /// 1-based position of the game in the text.
    public var game: Int
    public var message: String
    public var description: String { "game \(game): \(message)" }
}

extension GameRecord {
    /// Reads back the games that ``pgn(event:round:timeControl:)`` wrote (a match's record),
    /// so that an interrupted match can go on (`xiangqi match --resume`). Each game's moves are
    /// replayed from its `FEN` tag and must be legal; its number is the `Round` tag, and the
    /// first engine of the match played red in odd rounds (as ``MatchRunner`` deals colours).
    /// Games that cannot be read are returned as errors, never guessed.
    public static func records(fromPGN text: String) -> (records: [GameRecord], errors: [PGNGameError]) {
        var records: [GameRecord] = [], errors: [PGNGameError] = []
        var chunks: [[Substring]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[Event ") || chunks.isEmpty { chunks.append([]) }
            chunks[chunks.count - 1].append(line)
        }
        for (index, lines) in chunks.enumerated() {
            guard lines.contains(where: { !$0.allSatisfy(\.isWhitespace) }) else { continue }
            switch record(fromPGNLines: lines) {
            case .success(let record): records.append(record)
            case .failure(let message): errors.append(PGNGameError(game: index + 1, message: message.text))
            }
        }
        return (records, errors)
    }

    private struct Message: Error { var text: String }

    private static func record(fromPGNLines lines: [Substring]) -> Result<GameRecord, Message> {
        var tags: [String: String] = [:]
        var body = ""
        for line in lines {
            if line.hasPrefix("["), line.hasSuffix("]"), let space = line.firstIndex(of: " ") {
                let key = String(line[line.index(after: line.startIndex)..<space])
                var value = line[line.index(after: space)..<line.index(before: line.endIndex)]
                guard value.count >= 2, value.first == "\"", value.last == "\"" else {
                    return .failure(Message(text: "tag \(key) has no quoted value"))
                }
                value = value.dropFirst().dropLast()
                var unescaped = "", escaping = false
                for c in value {
                    if escaping || c != "\\" { unescaped.append(c); escaping = false } else { escaping = true }
                }
                tags[key] = unescaped
            } else {
                body += line + " "
            }
        }
        guard let roundText = tags["Round"], let number = Int(roundText), number >= 1 else {
            return .failure(Message(text: "no game number (Round tag)"))
        }
        guard let resultText = tags["Result"], let result = GameResult(rawValue: resultText) else {
            return .failure(Message(text: "no finished result (Result tag)"))
        }
        let start: Position
        do {
            start = try Position(fen: tags["FEN"] ?? Position.startFEN)
        } catch {
            return .failure(Message(text: "bad FEN tag: \(error)"))
        }
        // Tokens: move numbers, ICCS moves, {comments}, the result.
        var tokens: [(text: String, isComment: Bool)] = []
        var rest = Substring(body)
        while let first = rest.first {
            if first.isWhitespace {
                rest = rest.dropFirst()
            } else if first == "{" {
                guard let close = rest.firstIndex(of: "}") else { return .failure(Message(text: "unclosed comment")) }
                tokens.append((String(rest[rest.index(after: rest.startIndex)..<close]), true))
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(where: { $0.isWhitespace || $0 == "{" }) ?? rest.endIndex
                tokens.append((String(rest[..<end]), false))
                rest = rest[end...]
            }
        }
        var game = Game(start)
        var moves: [MoveRecord] = []
        var openingMoves: [Move] = []
        var reason = tags["Termination"] ?? "?"
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            i += 1
            if token.isComment {
                // A comment not after a move: the closing reason.
                reason = token.text
                continue
            }
            if token.text == result.rawValue || token.text.last == "." || token.text.hasSuffix("...") { continue }
            guard let move = Move(iccs: token.text), game.position.isLegal(move) else {
                return .failure(Message(text: "illegal or unreadable move \(token.text) at ply \(moves.count + 1)"))
            }
            try? game.play(move)
            var record = MoveRecord(move: move, searched: true, score: nil, depth: nil, milliseconds: 0)
            if i < tokens.count, tokens[i].isComment {
                let comment = tokens[i].text
                i += 1
                if comment == "book" {
                    guard moves.allSatisfy({ !$0.searched }) else {
                        return .failure(Message(text: "a book move after searched moves at ply \(moves.count + 1)"))
                    }
                    record.searched = false
                    openingMoves.append(move)
                } else {
                    // "+0.43/12 714ms": score/depth time.
                    let words = comment.split(separator: " ")
                    guard words.count == 2, words[1].hasSuffix("ms"), let ms = Int(words[1].dropLast(2)) else {
                        return .failure(Message(text: "unreadable move comment {\(comment)} at ply \(moves.count + 1)"))
                    }
                    record.milliseconds = ms
                    let parts = words[0].split(separator: "/")
                    if parts.count == 2 {
                        record.depth = Int(parts[1])
                        record.score = EngineScore(text: String(parts[0]))
                    }
                }
            }
            moves.append(record)
        }
        let opening = Opening(name: tags["Opening"] ?? "?", start: start, moves: openingMoves)
        return .success(GameRecord(number: number, opening: opening, red: tags["Red"] ?? "?", black: tags["Black"] ?? "?",
                                   firstIsRed: number % 2 == 1, moves: moves, result: result, reason: reason,
                                   finalFEN: game.position.fen, redEngine: tags["RedEngine"],
                                   blackEngine: tags["BlackEngine"]))
    }
}
