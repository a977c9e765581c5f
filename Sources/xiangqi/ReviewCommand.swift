import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiClient
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review games: each move judged against the engine's best, blunders marked, an accuracy per side.",
        discussion: """
            Reads PGN (tags, an optional [FEN], moves in ICCS, WXF or Chinese notation) or one game per line \
            (RESULT<TAB>moves), as `book build` does. The position before each move is searched at full \
            strength, and the move played alone from it when it is not the engine's choice (default 100000 \
            nodes a search, the same judgement on every machine); a move's loss is the expected score \
            (0-1 points, from the win/draw/loss model) it gives away against the best move, and its class \
            best, excellent, good, inaccuracy (?!), mistake (?) or blunder (??) follows from the loss \
            (thresholds in bench/review.md); a side's accuracy (0-100) averages its moves played while the game \
            was open. Output: a table per game (scores from Red's side); --json one JSON object per game and \
            line; -o writes the games as PGN with the marks and score comments. A game that cannot be read \
            is reported (game, line and move) and skipped; the exit status is then 1.

            Example: xiangqi review games.pgn --nodes 200000 -o reviewed.pgn
            """
    )

    @Argument(help: "The game file (- for standard input).")
    var file: String

    @Option(help: "Nodes per search (default 100000 when no other limit is given).")
    var nodes: UInt64?

    @Option(help: "Milliseconds per search instead of a node count.")
    var movetime: Int?

    @Option(help: "Depth per search instead of a node count.")
    var depth: Int?

    @Option(help: "Review only game N of the file (1-based).")
    var game: Int?

    @Option(help: "Begin with game N of the file (1-based).")
    var startGame = 1

    @Option(help: "Review at most this many games.")
    var maxGames: Int?

    @Flag(help: "One JSON object per game and line instead of the table.")
    var json = false

    @Option(name: .shortAndLong, help: "Write the reviewed games as annotated PGN to this file.")
    var output: String?

    @Option(help: "Hash table size in MB.")
    var hash = 16

    @Option(help: "Evaluate with this network file (default: $XIANGQI_EVALFILE if set, else the built-in network).")
    var evalFile: String?

    func validate() throws {
        let limits = [nodes != nil, movetime != nil, depth != nil].filter { $0 }.count
        guard limits <= 1 else { throw ValidationError("give at most one of --nodes, --movetime and --depth") }
        if let nodes, nodes < 1 { throw ValidationError("--nodes must be at least 1") }
        if let movetime, movetime < 1 { throw ValidationError("--movetime must be at least 1") }
        if let depth, !(1...100).contains(depth) { throw ValidationError("--depth must be 1-100") }
        if let game, game < 1 { throw ValidationError("--game must be at least 1") }
        if let maxGames, maxGames < 1 { throw ValidationError("--max-games must be at least 1") }
        guard startGame >= 1 else { throw ValidationError("--start-game must be at least 1") }
        if game != nil && startGame != 1 { throw ValidationError("give --game or --start-game, not both") }
        guard (1...4096).contains(hash) else { throw ValidationError("--hash must be 1-4096") }
    }

    var limits: SearchLimits {
        if let movetime { return SearchLimits(moveTime: movetime) }
        if let depth { return SearchLimits(depth: depth) }
        return nodes.map { SearchLimits(nodes: $0) } ?? Engine.defaultReviewLimits
    }

    var limitsText: String {
        if let movetime { return "\(movetime) ms" }
        if let depth { return "depth \(depth)" }
        return "\(nodes ?? Engine.defaultReviewLimits.nodes ?? 0) nodes"
    }

    func run() throws {
        let text = file == "-" ? try readStandardInput() : try readTextFile(file)
        let engine = Engine(hashMegabytes: hash)
        if let evalFile = evalFile ?? DataOverrides.networkFile, !NetworkChoice.namesBuiltIn(evalFile) {
            do { engine.setNetwork(try NetworkFile.network(atPath: evalFile)) } catch {
                throw CommandFailure("cannot use \(evalFile): \(error)")
            }
        } else {
            engine.setNetwork(NetworkFile.builtIn)
        }
        let annotated = try output.map { try OutputFile(path: $0) }
        let name = file == "-" ? "<stdin>" : file
        var all = GameFileReader.games(in: text)
        if let game {
            guard game <= all.count else { throw CommandFailure("\(name) has \(all.count) games, not \(game)") }
            all = [all[game - 1]]
        }
        if startGame > 1 {
            guard startGame <= all.count else { throw CommandFailure("\(name) has \(all.count) games, not \(startGame)") }
            all = Array(all.dropFirst(startGame - 1))
        }
        if let maxGames { all = Array(all.prefix(maxGames)) }
        guard !all.isEmpty else { throw CommandFailure("\(name) holds no game") }
        var failures = 0
        let showProgress = isTerminal(2)
        for (index, read) in all.enumerated() {
            let recorded: RecordedGame
            switch read {
            case .failure(let error):
                errorWrite("Error: \(name): \(error)\n")
                failures += 1
                continue
            case .success(let game):
                recorded = game
            }
            guard !recorded.game.moves.isEmpty else {
                errorWrite("Error: \(name): game \(recorded.number) (line \(recorded.line)): no moves\n")
                failures += 1
                continue
            }
            let review = engine.review(recorded.game, limits: limits) { progress in
                if showProgress { drawProgress(progress, game: index + 1, of: all.count) }
            }
            if showProgress { errorWrite("\r\u{1B}[K") }
            if json {
                emit(jsonText(recorded, review))
            } else {
                emit(table(recorded, review))
            }
            annotated?.write(annotatedPGN(recorded, review))
        }
        // Each unreadable game had its line on standard error.
        if failures > 0 { throw ExitCode.failure }
    }

    private func readStandardInput() throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 { throw CommandFailure("cannot read standard input: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func drawProgress(_ progress: ReviewProgress, game: Int, of games: Int) {
        let width = 30
        let filled = progress.total > 0 ? progress.judged * width / progress.total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        errorWrite("\r[\(bar)] \(progress.judged)/\(progress.total) moves, game \(game) of \(games)")
    }

    /// A score from Red's side as game records write it: `+0.35`, `-M3`.
    private func redText(_ score: Int, side: Color) -> String {
        EngineScore(searchScore: side == .red ? score : -score).description
    }

    private func players(_ recorded: RecordedGame) -> String {
        "\(recorded.tag("Red") ?? "?") - \(recorded.tag("Black") ?? "?")"
    }

    func table(_ recorded: RecordedGame, _ review: GameReview) -> String {
        let result = recorded.result?.rawValue ?? "*"
        var lines = ["Game \(recorded.number) (line \(recorded.line)): \(players(recorded)), \(result), "
                     + "\(recorded.game.moves.count) plies; \(limitsText) per search"]
        lines.append(" ply  side   move   class       best   Red's score after  loss")
        for judgement in review.moves {
            let side = judgement.side == .red ? "Red  " : "Black"
            let best = judgement.bestMove?.iccs ?? "-"
            lines.append(pad("\(judgement.ply + 1)", 4) + "  " + side + "  " + judgement.move.iccs + "   "
                         + judgement.moveClass.rawValue.padding(10) + "  " + best + "  "
                         + pad(redText(judgement.scoreAfter, side: judgement.side), 17) + "  "
                         + fixed(judgement.loss, 3))
        }
        for side in [Color.red, .black] {
            lines.append(summary(review, side))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func summary(_ review: GameReview, _ side: Color) -> String {
        let name = side == .red ? "Red" : "Black"
        guard let accuracy = review.accuracy(of: side) else { return "\(name): no moves" }
        let counts = MoveClass.allCases.map { "\(review.count(of: $0, for: side)) \($0.rawValue)" }
        return "\(name): accuracy \(format1(accuracy)); " + counts.joined(separator: ", ")
            + "; mean loss \(fixed(review.meanLoss(of: side) ?? 0, 3))"
    }

    func jsonText(_ recorded: RecordedGame, _ review: GameReview) -> String {
        var moves: [String] = []
        for (judgement, text) in zip(review.moves, recorded.moveTexts) {
            moves.append("{\"ply\": \(judgement.ply + 1), \"side\": \"\(judgement.side == .red ? "red" : "black")\", "
                         + "\"move\": \"\(judgement.move.iccs)\", \"text\": \(JSONText.quoted(text)), "
                         + "\"best\": \(judgement.bestMove.map { "\"\($0.iccs)\"" } ?? "null"), "
                         + "\"line\": \"\(judgement.bestLine.map(\.iccs).joined(separator: " "))\", "
                         + "\"score_before\": \(judgement.scoreBefore), \"score_after\": \(judgement.scoreAfter), "
                         + "\"expected_before\": \(fixed(judgement.expectedBefore, 4)), "
                         + "\"expected_after\": \(fixed(judgement.expectedAfter, 4)), "
                         + "\"loss\": \(fixed(judgement.loss, 4)), \"class\": \"\(judgement.moveClass.rawValue)\", "
                         + "\"accuracy\": \(fixed(judgement.accuracy, 1)), \"depth\": \(judgement.depth)}")
        }
        func side(_ color: Color) -> String {
            let counts = MoveClass.allCases.map { "\"\($0.rawValue)\": \(review.count(of: $0, for: color))" }
            return "{\"accuracy\": \(review.accuracy(of: color).map { fixed($0, 1) } ?? "null"), "
                + "\"mean_loss\": \(review.meanLoss(of: color).map { fixed($0, 4) } ?? "null"), "
                + "\"moves\": \(review.moves.filter { $0.side == color }.count), " + counts.joined(separator: ", ") + "}"
        }
        let tags = recorded.tags.map { "\(JSONText.quoted($0.name)): \(JSONText.quoted($0.value))" }.joined(separator: ", ")
        return "{\"tool\": \"xiangqi review\", \"file\": \(JSONText.quoted(file)), \"game\": \(recorded.number), "
            + "\"line\": \(recorded.line), \"tags\": {\(tags)}, "
            + "\"result\": \(recorded.result.map { "\"\($0.rawValue)\"" } ?? "null"), "
            + "\"limits\": \(JSONText.quoted(limitsText)), \"plies\": \(recorded.game.moves.count), "
            + "\"red\": \(side(.red)), \"black\": \(side(.black)), \"moves\": [\(moves.joined(separator: ", "))]}"
    }

    func annotatedPGN(_ recorded: RecordedGame, _ review: GameReview) -> String {
        var out = ""
        var tags = recorded.tags
        if !tags.contains(where: { $0.name == "Result" }) { tags.append(("Result", recorded.result?.rawValue ?? "*")) }
        tags.removeAll { $0.name == "Annotator" }
        tags.append(("Annotator", "\(EngineVersion.name(build: Xiangqi.build)) review, \(limitsText) per search"))
        for tag in tags {
            var value = ""
            for c in tag.value {
                if c == "\\" || c == "\"" { value.append("\\") }
                value.append(c)
            }
            out += "[\(tag.name) \"\(value)\"]\n"
        }
        func accuracyComment(_ side: Color) -> String {
            let name = side == .red ? "Red" : "Black"
            let a = review.accuracy(of: side).map(format1) ?? "-"
            return "\(name) accuracy \(a), \(review.count(of: .inaccuracy, for: side)) inaccuracies, "
                + "\(review.count(of: .mistake, for: side)) mistakes, \(review.count(of: .blunder, for: side)) blunders"
        }
        out += "\n{\(accuracyComment(.red)); \(accuracyComment(.black))}\n"
        var words: [String] = []
        let start = recorded.game.startPosition
        for (judgement, text) in zip(review.moves, recorded.moveTexts) {
            let ply = judgement.ply + (start.sideToMove == .black ? 1 : 0)
            let number = start.fullmoveNumber + ply / 2
            if judgement.side == .red { words.append("\(number).") } else if judgement.ply == 0 { words.append("\(number)...") }
            words.append(text + (judgement.moveClass.annotation ?? ""))
            var comment = "\(redText(judgement.scoreAfter, side: judgement.side))/\(judgement.depth)"
            if judgement.moveClass >= .inaccuracy, let best = judgement.bestMove {
                comment += " \(judgement.moveClass.rawValue); best \(best.iccs) \(redText(judgement.scoreBefore, side: judgement.side))"
            }
            words.append("{\(comment)}")
        }
        words.append(recorded.result?.rawValue ?? "*")
        var line = ""
        for word in words {
            if !line.isEmpty, line.count + 1 + word.count > 80 {
                out += line + "\n"
                line = ""
            }
            line += line.isEmpty ? word : " " + word
        }
        out += line + "\n\n"
        return out
    }
}

private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
