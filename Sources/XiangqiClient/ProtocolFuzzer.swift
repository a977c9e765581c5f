import XiangqiCore

/// Feeds an engine seeded, mutated protocol lines (commands of both dialects, FENs, moves,
/// option values, huge and non-finite numbers, binary garbage, long lines) and checks after
/// every batch that it still serves: it reaches a marker command sent after the batch and a
/// `go depth 3` from a legal position returns a legal move, every `info ... pv` line of that
/// search legal too. A crash or hang is recorded with the batch that caused it,
/// and the engine is restarted. The same seed gives the same lines.
public struct ProtocolFuzzer: Sendable {
    /// What went wrong after one batch.
    public struct Failure: Sendable, CustomStringConvertible {
        public var batch: Int
        /// `crash (...)`, `hang`, `illegal move ...` or `no move`.
        public var kind: String
        /// Every line the engine process got up to the failure (batches and checks since it
        /// started), byte for byte, without newlines: to replay it.
        public var lines: [[UInt8]]
        public var description: String { "batch \(batch): \(kind)" }
    }

    public struct Report: Sendable {
        public var lines = 0
        public var batches = 0
        /// Legal-move checks passed.
        public var checks = 0
        public var failures: [Failure] = []
    }

    public var executable: String
    public var arguments: [String]
    public var seed: UInt64
    public var lineCount: Int
    public var batchSize = 200
    /// How long the engine may take to reach the check or answer its `go depth 3` before it
    /// counts as hung (a bound for hangs, not a speed requirement).
    public var timeout: Duration = .seconds(60)

    public init(executable: String, arguments: [String] = [], seed: UInt64, lineCount: Int) {
        self.executable = executable
        self.arguments = arguments
        self.seed = seed
        self.lineCount = lineCount
    }

    /// Runs the batches; `progress` sees the report after each.
    public func run(progress: @Sendable (Report) -> Void = { _ in }) async -> Report {
        var report = Report()
        var random = SeededGenerator(seed: seed)
        var generator = LineGenerator()
        // The options to set are those the engine announces in each dialect (its option table).
        let announced = await announcedOptions()
        if let failure = announced.failure {
            report.failures.append(failure)
            return report
        }
        // Options that name a file to write (a debug log) are left out: a mutated value would
        // create files anywhere the fuzzer's user may write.
        generator.options = announced.options.filter { !Self.writesFiles($0.name) }
        var engine: ChildProcess?
        var transcript: [[UInt8]] = []
        func send(_ process: ChildProcess, _ line: String) {
            transcript.append(Array(line.utf8))
            process.writeLine(line)
        }
        while report.lines < lineCount {
            if engine == nil {
                transcript = []
                do {
                    engine = try ChildProcess(executable: executable, arguments: arguments)
                } catch {
                    report.failures.append(Failure(batch: report.batches + 1, kind: "cannot start: \(error)", lines: []))
                    return report
                }
            }
            guard let process = engine else { break }
            report.batches += 1
            let count = min(batchSize, lineCount - report.lines)
            var batch: [[UInt8]] = []
            var dialect = random.next() % 2 == 0 ? "uci" : "ucci"
            batch.append(Array(dialect.utf8))
            for _ in 0..<count {
                let line = generator.line(&random)
                if line == Array("uci".utf8) || line == Array("ucci".utf8) { dialect = String(decoding: line, as: UTF8.self) }
                batch.append(line)
            }
            report.lines += count
            transcript += batch
            var alive = true
            for line in batch where alive {
                alive = process.send(bytes: line + [10])
            }
            // The check: the engine reaches a mark after the batch and searches a legal position legally.
            let check = generator.checkPosition(&random)
            var failure: String?
            if !alive {
                failure = "crash (\(await process.terminate(grace: .seconds(5))))"
            } else {
                // Commands are handled in order, and the batch has isready lines of its own: an
                // unknown command with a unique name marks where the batch's output ends. The
                // position command then waits for any search the batch left (its bestmove comes
                // before the second mark), so the move after that mark answers the check.
                let mark = "fuzz-mark-\(report.batches)"
                send(process, "stop")
                send(process, "\(mark)a")
                failure = await expect(process) { $0 == "info string unknown command: \(mark)a" }.failure.map { $0 + " (after the batch)" }
                if failure == nil {
                    send(process, dialect)
                    send(process, "position fen \(check.fen)")
                    send(process, "\(mark)b")
                    send(process, "go depth 3")
                    failure = await expect(process) { $0 == "info string unknown command: \(mark)b" }.failure.map { $0 + " (position)" }
                }
                if failure == nil {
                    let (answer, problem, output) = await expectAll(process) { $0.hasPrefix("bestmove") || $0 == "nobestmove" }
                    failure = problem.map { $0 + " (go depth 3 in \(check.fen))" }
                    // Every line the search printed plays legally from the position (ranks
                    // 0-9: the handshake before it reset the numbering).
                    if failure == nil, let bad = output.first(where: { !Self.isLegalLine($0, from: check) }) {
                        failure = "illegal line '\(bad)' in \(check.fen)"
                    }
                    if failure == nil, let seen = answer {
                        let answer = String(seen.split(separator: "|").last ?? "").trimmingPrefix(" ")
                        let word = answer.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                        if !Self.isLegal(word, in: check) {
                            failure = (answer == "nobestmove" ? "no move in \(check.fen)" : "illegal move '\(word)' in \(check.fen)")
                                + " (output: \(seen))"
                        }
                    }
                }
            }
            if let failure {
                report.failures.append(Failure(batch: report.batches, kind: failure, lines: transcript))
                process.kill()
                engine = nil
            } else {
                report.checks += 1
            }
            progress(report)
        }
        if let engine {
            engine.writeLine("quit")
            await engine.terminate(grace: .seconds(5))
        }
        return report
    }

    /// The options the engine announces after `uci` and after `ucci`, in that order.
    private func announcedOptions() async -> (options: [AnnouncedOption], failure: Failure?) {
        let process: ChildProcess
        do {
            process = try ChildProcess(executable: executable, arguments: arguments)
        } catch {
            return ([], Failure(batch: 0, kind: "cannot start: \(error)", lines: []))
        }
        var options: [AnnouncedOption] = []
        for (handshake, answer) in [("uci", "uciok"), ("ucci", "ucciok")] {
            process.writeLine(handshake)
            let deadline = ContinuousClock.now + timeout
            reading: while true {
                switch await process.lines.next(until: deadline) {
                case .line(let text, _):
                    if let option = AnnouncedOption(line: text) { options.append(option) }
                    if text == answer { break reading }
                case .closed, .timeout:
                    let status = await process.terminate(grace: .seconds(5))
                    return ([], Failure(batch: 0, kind: "no \(answer) after \(handshake) (\(status))",
                                        lines: [Array(handshake.utf8)]))
                }
            }
        }
        process.writeLine("quit")
        await process.terminate(grace: .seconds(5))
        return (options, nil)
    }

    /// Waits for a line matching `isAnswer`: the last lines up to it, or what went wrong
    /// (crash, hang).
    private func expect(_ process: ChildProcess, _ isAnswer: (String) -> Bool) async -> (String?, failure: String?) {
        let (answer, failure, _) = await expectAll(process, isAnswer)
        return (answer, failure)
    }

    /// ``expect(_:_:)`` that also returns every line read up to the answer.
    private func expectAll(_ process: ChildProcess, _ isAnswer: (String) -> Bool) async
        -> (String?, failure: String?, lines: [String]) {
        let deadline = ContinuousClock.now + timeout
        var seen: [String] = []
        while true {
            switch await process.lines.next(until: deadline) {
            case .line(let text, _):
                seen.append(text)
                if isAnswer(text) { return (seen.suffix(4).joined(separator: " | "), nil, seen) }
            case .closed:
                return (nil, "crash (\(await process.terminate(grace: .seconds(5))))", seen)
            case .timeout:
                return (nil, "hang", seen)
            }
        }
    }

    /// Whether the moves of an `info ... pv` line, or `bestmove` and `ponder`, play one
    /// after another from `position` (ICCS, ranks 0-9). Other lines pass.
    public static func isLegalLine(_ line: String, from position: Position) -> Bool {
        let words = line.split(separator: " ").map(String.init)
        var moves: [String]
        if words.first == "info", let pv = words.firstIndex(of: "pv") {
            moves = Array(words[(pv + 1)...])
            if moves.isEmpty { return false }
        } else if words.first == "bestmove", words.count >= 2 {
            moves = [words[1]]
            if let ponder = words.firstIndex(of: "ponder"), ponder + 1 < words.count { moves.append(words[ponder + 1]) }
        } else {
            return true
        }
        var board = position
        for word in moves {
            guard let move = Move(iccs: word), board.isLegal(move) else { return false }
            _ = board.make(move)
        }
        return true
    }

    /// Whether setting the option named `name` makes the engine write a file.
    static func writesFiles(_ name: String) -> Bool {
        name.lowercased().filter { $0 != " " && $0 != "_" } == "debuglogfile"
    }

    /// Whether `word` is a legal move of `position` in ICCS, with ranks counted from 0 or (as
    /// Fairy-Stockfish's plain UCI does) from 1.
    static func isLegal(_ word: String, in position: Position) -> Bool {
        if let move = Move(iccs: word), position.isLegal(move) { return true }
        let chars = Array(word)
        guard chars.count >= 4, let split = chars.dropFirst().firstIndex(where: { $0.isLetter }) else { return false }
        guard let fromRank = Int(String(chars[1..<split])), let toRank = Int(String(chars[(split + 1)...])) else { return false }
        let text = "\(chars[0])\(fromRank - 1)\(chars[split])\(toRank - 1)"
        guard let move = Move(iccs: text) else { return false }
        return position.isLegal(move)
    }
}

/// Makes the fuzzer's lines: mostly well-formed commands with random arguments, then mutated.
struct LineGenerator {
    /// Positions reached by random playouts, with a legal move each (for FENs and moves).
    private var positions: [Position] = [.start]
    /// The options the engine announced; `setoption` lines name one of them, or an unknown name.
    var options: [AnnouncedOption] = []

    /// A legal position with at least one legal move, for the check after a batch.
    mutating func checkPosition(_ random: inout SeededGenerator) -> Position {
        grow(&random)
        let candidates = positions.filter { !$0.legalMoves.isEmpty }
        return candidates[Int(random.next() % UInt64(candidates.count))]
    }

    /// Adds a position one random move after a known one (up to a few hundred are kept).
    private mutating func grow(_ random: inout SeededGenerator) {
        var p = pick(positions, &random)
        let moves = p.legalMoves
        guard !moves.isEmpty else { return }
        _ = p.make(pick(moves, &random))
        if positions.count < 400 { positions.append(p) } else { positions[Int(random.next() % 400)] = p }
    }

    private func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    private func chance(_ percent: UInt64, _ random: inout SeededGenerator) -> Bool { random.next() % 100 < percent }

    /// A number argument: usually ordinary, sometimes absurd.
    private func number(_ random: inout SeededGenerator, _ ordinary: ClosedRange<Int>) -> String {
        if chance(80, &random) { return String(Int(random.next() % UInt64(ordinary.count)) + ordinary.lowerBound) }
        return pick(["0", "-1", "-999999999999", "99999999999999999999", "9223372036854775807", "-9223372036854775808",
                     "nan", "inf", "-inf", "1e20", "1e-5", "3.7", "0x10", "", "abc", "1_000", "+5", "٣"], &random)
    }

    private func fen(_ random: inout SeededGenerator) -> String {
        let p = pick(positions, &random)
        var text = p.fen
        if chance(30, &random) {
            var chars = Array(text)
            for _ in 0..<(1 + random.next() % 3) where !chars.isEmpty {
                let i = Int(random.next() % UInt64(chars.count))
                switch random.next() % 4 {
                case 0: chars.remove(at: i)
                case 1: chars.insert(pick(Array("rnbakcpRNBAKCP0123456789/ wb-x"), &random), at: i)
                case 2: chars[i] = pick(Array("rnbakcpRNBAKCP0123456789/ wb-"), &random)
                default: chars.insert(contentsOf: chars[i...].prefix(12), at: i)
                }
            }
            text = String(chars)
        }
        if chance(5, &random) { text += " \(number(&random, 0...200)) \(number(&random, 1...300))" }
        return text
    }

    private func moves(_ random: inout SeededGenerator, from position: Position?) -> String {
        var list: [String] = []
        var p = position ?? pick(positions, &random)
        for _ in 0..<(random.next() % 8) {
            let legal = p.legalMoves
            if legal.isEmpty || chance(10, &random) {
                // Anything that looks like a move (or does not).
                list.append(pick(["a0a1", "e0e1", "h2e2", "z9z9", "a10a9", "h2", "h2e2e3", "0000", "(none)", "炮二平五"], &random))
                if legal.isEmpty { break }
                continue
            }
            let move = pick(legal, &random)
            list.append(move.iccs)
            _ = p.make(move)
        }
        return list.joined(separator: " ")
    }

    private mutating func command(_ random: inout SeededGenerator) -> String {
        grow(&random)
        switch random.next() % 20 {
        case 0: return pick(["uci", "ucci", "isready", "ucinewgame", "uccinewgame", "stop", "ponderhit", "ponderhit draw",
                             "d", "eval", "flip", "probe", "", "   ", "\t", "xboard", "new", "help"], &random)
        case 1, 2, 3:
            let start = chance(30, &random)
            let base = start ? "position startpos" : "position fen \(fen(&random))"
            return chance(60, &random) ? base + " moves " + moves(&random, from: start ? .start : nil) : base
        case 4: return "fen \(fen(&random))" + (chance(50, &random) ? " moves " + moves(&random, from: nil) : "")
        case 5: return "banmoves " + moves(&random, from: nil)
        case 6: return "probe " + (chance(50, &random) ? "fen \(fen(&random))" : "startpos moves " + moves(&random, from: .start))
        case 7, 8, 9, 10, 11:
            var words = ["go"]
            for _ in 0..<(random.next() % 4) {
                switch random.next() % 16 {
                case 0: words += ["depth", number(&random, 1...6)]
                case 1: words += ["nodes", number(&random, 1...20_000)]
                case 2: words += ["movetime", number(&random, 1...40)]
                case 3: words += ["wtime", number(&random, 0...3_000), "btime", number(&random, 0...3_000)]
                case 4: words += ["winc", number(&random, 0...100), "binc", number(&random, 0...100)]
                case 5: words += ["time", number(&random, 0...3), "increment", number(&random, 0...1)]
                case 6: words += ["movestogo", number(&random, 1...40)]
                case 7: words += ["mate", number(&random, 1...3)]
                case 8: words.append("infinite")
                case 9: words.append("ponder")
                case 10: words.append("draw")
                case 11: words += ["searchmoves"] + moves(&random, from: nil).split(separator: " ").map(String.init)
                case 12: words += ["opptime", number(&random, 0...3_000), "oppincrement", number(&random, 0...100)]
                case 13: words += ["depth"]
                default: words.append(pick(["wtime", "nodes", "movetime", "time", "mate", "depth", "foo"], &random))
                }
            }
            return words.joined(separator: " ")
        case 12, 13, 14:
            let unknown = AnnouncedOption(name: "NoSuchOption", kind: .spin(0...100))
            let option = options.isEmpty || chance(3, &random) ? unknown : pick(options, &random)
            let name = option.name, value = value(for: option, &random)
            if chance(50, &random) { return "setoption name \(name) value \(value)" }
            return chance(50, &random) ? "setoption \(name) \(value)" : "setoption name \(name)"
        case 15: return "perft " + String(random.next() % 3 + 1)
        case 16: return "go perft " + String(random.next() % 3 + 1)
        default:
            return pick(["isready", "stop", "position startpos", "go depth 2", "ponderhit", "debug on", "debug off"], &random)
        }
    }

    /// A value for `option`: of its type, usually within its range, sometimes absurd.
    private func value(for option: AnnouncedOption, _ random: inout SeededGenerator) -> String {
        switch option.name.lowercased() {
        // Memory-sized options get small or non-numeric values only (a fuzzer must not
        // allocate gigabytes on a CI machine), and a few threads at most.
        case "hash", "hashsize": return pick(["1", "2", "16", "0", "-4", "x", "", "1.5"], &random)
        // Out-of-range counts are drawn below the range only: one above it clamps to 256
        // threads, each with its own 3.2 MB of statistics cleared before every search once
        // UseHash is off (the clamp itself is a protocol test).
        case "threads": return chance(80, &random) ? String(1 + random.next() % 4) : pick(["0", "-1", "-9223372036854775808", "nan", "x", "", "1.5", "٣"], &random)
        // Batch mode stops reading commands while a bounded search runs, as it should: the
        // fuzzer leaves it off (its hang on unbounded searches is a transcript test).
        case "batch": return pick(["off", "false", "0", "", "maybe"], &random)
        default: break
        }
        switch option.kind {
        case .check: return pick(["true", "false", "on", "off", "1", "", "maybe"], &random)
        case .spin(let range):
            // Within the range, or near it, or absurd.
            let low = max(range.lowerBound, -1_000_000), high = min(range.upperBound, low + 1_000_000)
            return chance(70, &random) ? number(&random, low...max(low, high)) : number(&random, (low - 5)...(low + 5))
        case .combo(let choices): return chance(70, &random) && !choices.isEmpty ? pick(choices, &random) : pick(["", "huge", "0", "NONE"], &random)
        case .string:
            return pick(["/nonexistent/file", "/dev/null", "/dev/stdin", "/dev/zero", "/etc/passwd", "", "<empty>",
                         "<built-in>", "books/xiangqi-book.sqlite", "networks/xiangqi.nnue"], &random)
        case .button: return pick(["", "now", "1"], &random)
        }
    }

    /// One line (without its newline): a command, sometimes mutated.
    mutating func line(_ random: inout SeededGenerator) -> [UInt8] {
        let text = command(&random)
        var bytes = Array(text.utf8)
        // Perft lines are kept as they are: a mutated depth would run for hours by request.
        if text.contains("perft") { return bytes }
        switch random.next() % 10 {
        case 0:
            // Random bytes inserted (never a newline, never a digit: see the Hash option above).
            for _ in 0..<(1 + random.next() % 4) {
                var b = UInt8(truncatingIfNeeded: random.next())
                if b == 10 || (48...57).contains(b) { b = 0x80 }
                bytes.insert(b, at: Int(random.next() % UInt64(bytes.count + 1)))
            }
        case 1:
            // A token dropped, doubled or moved.
            var words = text.split(separator: " ").map(String.init)
            if words.count > 1 {
                let i = Int(random.next() % UInt64(words.count)), j = Int(random.next() % UInt64(words.count))
                switch random.next() % 3 {
                case 0: words.remove(at: i)
                case 1: words.insert(words[i], at: j)
                default: words.swapAt(i, j)
                }
            }
            bytes = Array(words.joined(separator: random.next() % 5 == 0 ? "  " : " ").utf8)
        case 2:
            if random.next() % 8 == 0 {
                // A very long line.
                let unit = (bytes.isEmpty ? Array("x".utf8) : bytes) + [32]
                let target = 2_000 + Int(random.next() % 100_000)
                while bytes.count < target { bytes += unit }
            } else {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))))
            }
        case 3:
            bytes += Array(pick(["\r", " \t ", "\u{0}", " moves", " fen", " name", " value"], &random).utf8)
        default:
            break
        }
        return bytes
    }
}

/// An option an engine announces: its name and what values it takes.
struct AnnouncedOption: Equatable {
    enum Kind: Equatable {
        case check
        case spin(ClosedRange<Int>)
        case combo([String])
        case string
        case button
    }

    var name: String
    var kind: Kind

    init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Reads UCI's `option name N type T ...` (names may hold spaces) or UCCI's
    /// `option N type T ...`; `nil` for any other line.
    init?(line: String) {
        let words = line.split(separator: " ").map(String.init)
        guard words.first == "option", let typeIndex = words.firstIndex(of: "type"), typeIndex + 1 < words.count else { return nil }
        let nameWords = words[1] == "name" ? words[2..<typeIndex] : words[1..<typeIndex]
        guard !nameWords.isEmpty else { return nil }
        name = nameWords.joined(separator: " ")
        func number(after key: String) -> Int? {
            words.firstIndex(of: key).flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
        switch words[typeIndex + 1] {
        case "check": kind = .check
        case "spin": kind = .spin((number(after: "min") ?? 0)...max(number(after: "min") ?? 0, number(after: "max") ?? 100))
        case "combo": kind = .combo(words.indices.filter { words[$0] == "var" && $0 + 1 < words.count }.map { words[$0 + 1] })
        case "string": kind = .string
        case "button": kind = .button
        default: return nil
        }
    }
}
