#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
