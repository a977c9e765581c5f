import XiangqiCodec
import XiangqiCore

/// One position of a test suite: `FEN; bm MOVE [MOVE...]; am MOVE [MOVE...]; id "name"; dm N;`.
public struct SuitePosition: Sendable {
    /// 1-based line number in the file.
    public var line: Int
    public var id: String
    public var position: Position
    /// Any of these solves the position (empty: no best move given).
    public var bestMoves: [Move]
    /// None of these may be played.
    public var avoidMoves: [Move]
    /// Mate in this many moves.
    public var mateIn: Int?
}

/// A line of a suite file that could not be used.
public struct SuiteLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// EPD-like suite files.
///
/// Blank lines and lines starting with `#` are skipped. Fields are separated by `;`: first
/// the FEN (the move counters may be left out; the first operation may follow the FEN in its
/// field, as in standard EPD), then operations. `bm` and `am` take moves in
/// ICCS (ranks 0-9), WXF or Chinese notation, or in ranks 1-10 (`h3e3`, `a10a9`) when all of
/// the line's moves are legal only that way; `id` a name, quoted or not; `dm` a positive
/// number of moves. Other operations (`c0`, `acd`, ...) are ignored. A line needs at least
/// one of `bm`, `am` and `dm`.
public enum SuiteFile {
    public static func parse(_ text: String) -> (positions: [SuitePosition], errors: [SuiteLineError]) {
        var positions: [SuitePosition] = [], errors: [SuiteLineError] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            switch parseLine(line, number: index + 1) {
            case .success(let p): positions.append(p)
            case .failure(let e): errors.append(e)
            }
        }
        return (positions, errors)
    }

    static func parseLine(_ line: Substring, number: Int) -> Result<SuitePosition, SuiteLineError> {
        func failure(_ message: String) -> Result<SuitePosition, SuiteLineError> {
            .failure(SuiteLineError(line: number, message: message))
        }
        var fields = splitFields(line)
        // Standard EPD puts the first operation in the FEN's field: `FEN bm h2e2; id "x";`.
        if let first = fields.first {
            let words = first.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let op = words.dropFirst(2).firstIndex(where: { ["bm", "am", "id", "dm"].contains($0) }) {
                fields[0] = first[..<words[op].startIndex]
                fields.insert(first[words[op].startIndex...], at: 1)
            }
        }
        guard let fenText = fields.first?.trimmingBlanks, !fenText.isEmpty else { return failure("no FEN") }
        let position: Position
        do {
            position = try Position(fen: String(fenText))
        } catch {
            return failure("bad FEN '\(fenText)': \(error)")
        }
        var id = "line \(number)", best: [Substring] = [], avoid: [Substring] = [], mate: Int?
        for field in fields.dropFirst() {
            let words = field.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard let op = words.first else { continue }
            let args = Array(words.dropFirst())
            switch op {
            case "bm": best = args
            case "am": avoid = args
            case "id":
                let name = field.trimmingBlanks.dropFirst(2).trimmingBlanks
                id = String(name.count >= 2 && name.first == "\"" && name.last == "\"" ? name.dropFirst().dropLast() : name)
            case "dm":
                guard args.count == 1, let n = Int(args[0]), n > 0 else {
                    return failure("dm needs a positive number of moves, not '\(args.joined(separator: " "))'")
                }
                mate = n
            default: continue
            }
        }
        if best.isEmpty && avoid.isEmpty && mate == nil { return failure("no bm, am or dm") }
        guard let moves = readMoves(best + avoid, in: position) else {
            let bad = (best + avoid).first { position.parseMove(String($0)) == nil } ?? (best + avoid)[0]
            return failure("'\(bad)' is not a legal move in \(position.fen)")
        }
        return .success(SuitePosition(line: number, id: id, position: position, bestMoves: Array(moves.prefix(best.count)),
                                      avoidMoves: Array(moves.dropFirst(best.count)), mateIn: mate))
    }

    /// The moves, all read in one rank numbering (ranks 0-9, the suites' convention, when
    /// both read every move; WXF and Chinese notation read alike); `nil` if no reading makes
    /// every move legal.
    static func readMoves(_ texts: [Substring], in position: Position) -> [Move]? {
        guard case .read(let reading) = MoveListReading.choices(texts.map(String.init), in: position, known: .zeroBased),
              reading.unread.isEmpty else { return nil }
        return reading.moves
    }

    /// Splits on `;` outside double quotes.
    static func splitFields(_ line: Substring) -> [Substring] {
        var fields: [Substring] = [], start = line.startIndex, quoted = false
        var i = line.startIndex
        while i < line.endIndex {
            if line[i] == "\"" { quoted.toggle() }
            if line[i] == ";" && !quoted {
                fields.append(line[start..<i])
                start = line.index(after: i)
            }
            i = line.index(after: i)
        }
        let last = line[start...]
        if !last.trimmingBlanks.isEmpty { fields.append(last) }
        return fields
    }
}

extension Substring {
    /// Without leading and trailing blanks (spaces, tabs, CR).
    var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
