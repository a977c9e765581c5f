import Foundation
import Testing
import XiangqiBook
import XiangqiCore

/// A fresh temporary directory per test, removed at the end.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-book-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// Five short games: h2e2 three times (Red won two, one draw), c3c4 twice (Black won both).
let sampleGames = """
1-0\th2e2 h9g7 h0g2 i9h9
1-0\th2e2 h9g7 h0g2 b9c7
1/2-1/2\th2e2 b9c7
0-1\tc3c4 g6g5
0-1\tc3c4 c6c5
"""

func buildBook(_ dir: TemporaryDirectory, games: String = sampleGames, minGames: Int = 1, maxPly: Int = 40,
               name: String = "book.sqlite") throws -> (path: String, summary: BookBuilder.Summary, problems: [String]) {
    let input = try dir.write("games.txt", games)
    var builder = BookBuilder()
    builder.minGames = minGames
    builder.maxPly = maxPly
    var problems: [String] = []
    builder.report = { problems.append($0) }
    try builder.addGames(fromFile: input)
    let output = dir.path + "/" + name
    let summary = try builder.write(to: output, buildDate: "2026-01-01")
    return (output, summary, problems)
}

func position(after moves: String) throws -> Position {
    var game = Game()
    for m in moves.split(separator: " ") { try game.play(String(m)) }
    return game.position
}

@Suite struct BookBuildAndProbeTests {
    @Test func probeGivesTheCountsOfTheGames() throws {
        let dir = try TemporaryDirectory()
        let (path, summary, problems) = try buildBook(dir)
        #expect(problems.isEmpty)
        #expect(summary.gamesRead == 5)
        let book = try OpeningBook(path: path)
        let moves = try book.moves(for: .start)
        #expect(moves.map(\.move.iccs) == ["h2e2", "c3c4"])
        let central = moves[0]
        #expect((central.games, central.redWins, central.draws, central.blackWins) == (3, 2, 1, 0))
        #expect(central.weight == 2 * 2 + 1)
        #expect(moves[1].weight == 0)  // Red lost both c3c4 games
        #expect(abs(central.scorePercent(for: .red) - 500.0 / 6) < 1e-9)
        // Black's replies after h2e2, weighted from Black's side.
        let replies = try book.moves(for: try position(after: "h2e2"))
        #expect(replies.map(\.move.iccs) == ["b9c7", "h9g7"])
        #expect(replies.map(\.weight) == [1, 0])
        #expect(try book.moves(for: try position(after: "h2e2 h9g7 h0g2 i9h9")).isEmpty)
        let stats = try book.stats()
        #expect(stats.games == 5)
        #expect(stats.metadata.contains { $0.key == "build_date" && $0.value == "2026-01-01" })
    }

    @Test func mirroredPositionsShareTheirEntries() throws {
        let dir = try TemporaryDirectory()
        // Stored after b2e2 (the mirror image of h2e2): found after h2e2 with the moves mirrored.
        let (path, _, _) = try buildBook(dir, games: "1-0\tb2e2 b9c7 b0c2\n")
        let book = try OpeningBook(path: path)
        let afterCentral = try book.moves(for: try position(after: "h2e2"))
        #expect(afterCentral.map(\.move.iccs) == ["h9g7"])
        #expect(try book.moves(for: try position(after: "h2e2 h9g7")).map(\.move.iccs) == ["h0g2"])
        #expect(try book.moves(for: try position(after: "b2e2")).map(\.move.iccs) == ["b9c7"])
    }

    @Test func minimumGamesAndMaximumPlyFilterTheBuild() throws {
        let dir = try TemporaryDirectory()
        let (path, summary, _) = try buildBook(dir, minGames: 2, maxPly: 2)
        let book = try OpeningBook(path: path)
        #expect(try book.moves(for: .start).map(\.move.iccs) == ["h2e2", "c3c4"])
        #expect(try book.moves(for: try position(after: "h2e2")).map(\.move.iccs) == ["h9g7"])  // b9c7: 1 game
        #expect(try book.moves(for: try position(after: "h2e2 h9g7")).isEmpty)  // ply 2 not recorded
        #expect(summary.moves == 3)
    }

    @Test func choiceFollowsFiltersVarietyAndSeed() throws {
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        let book = try OpeningBook(path: path)
        var selection = BookSelection()
        selection.minGames = 1
        selection.minScorePercent = 0
        var random = SeededGenerator(seed: 1)
        // c3c4 has weight 0 (two losses): never chosen, whatever the variety.
        for _ in 0..<50 {
            #expect(try book.choose(for: .start, selection: selection, using: &random)?.move.iccs == "h2e2")
        }
        // After h2e2: b9c7 (a draw, weight 1) is chosen; h9g7 (two losses) only with a 0% floor
        // and then never, its weight being 0.
        let afterCentral = try position(after: "h2e2")
        #expect(try book.choose(for: afterCentral, selection: selection, using: &random)?.move.iccs == "b9c7")
        selection.minScorePercent = 60
        #expect(try book.choose(for: afterCentral, selection: selection, using: &random) == nil)
        selection.minScorePercent = 0
        selection.minGames = 4
        #expect(try book.choose(for: .start, selection: selection, using: &random) == nil)
        selection.minGames = 1
        selection.maxPly = 1
        #expect(try book.choose(for: afterCentral, selection: selection, using: &random) == nil)
        #expect(try book.choose(for: .start, selection: selection, allowed: [Move(iccs: "c3c4")!], using: &random) == nil)
    }

    @Test func weightedChoiceIsProportionalAndSeeded() throws {
        let dir = try TemporaryDirectory()
        // Red wins: h2e2 3 games (weight 6), c3c4 1 game (weight 2).
        let games = "1-0\th2e2\n1-0\th2e2\n1-0\th2e2\n1-0\tc3c4\n"
        let (path, _, _) = try buildBook(dir, games: games)
        let book = try OpeningBook(path: path)
        var selection = BookSelection()
        selection.minGames = 1
        func picks(seed: UInt64, variety: Int) throws -> [String] {
            selection.variety = variety
            var random = SeededGenerator(seed: seed)
            return try (0..<400).map { _ in try book.choose(for: .start, selection: selection, using: &random)!.move.iccs }
        }
        let proportional = try picks(seed: 7, variety: 100)
        let share = Double(proportional.filter { $0 == "c3c4" }.count) / 400
        #expect(share > 0.15 && share < 0.35)  // expected 0.25
        #expect(try picks(seed: 7, variety: 100) == proportional)  // same seed, same choices
        #expect(try picks(seed: 8, variety: 100) != proportional)
        #expect(Set(try picks(seed: 7, variety: 0)) == ["h2e2"])  // variety 0: the best move only
    }
}

@Suite struct BookInputTests {
    @Test func badGamesAreReportedWithFileAndLineAndSkipped() throws {
        let dir = try TemporaryDirectory()
        let games = """
        1-0\th2e2 h9g7
        # a comment line

        2-0\th2e2 h9g7
        1-0\th2e2 h2e3
        0-1 h2e2 h9g7
        1/2-1/2\t
        0-1\th2e2 h9g7
        """
        let (path, summary, problems) = try buildBook(dir, games: games)
        #expect(summary.gamesRead == 2)
        #expect(summary.gamesSkipped == 4)
        #expect(problems.count == 4)
        #expect(problems[0].hasSuffix("games.txt:4: expected RESULT<TAB>MOVES with RESULT 1-0, 0-1 or 1/2-1/2; game skipped"))
        #expect(problems[1].contains("games.txt:5: move 1 for Black (ply 2) 'h2e3'"))
        #expect(problems[2].contains("games.txt:6:"))
        #expect(problems[3].contains("games.txt:7: no moves"))
        let moves = try OpeningBook(path: path).moves(for: .start)
        #expect(moves.count == 1 && moves[0].games == 2)
    }

    @Test func pgnWithCoordinateWXFAndChineseMovesAndAFEN() throws {
        let dir = try TemporaryDirectory()
        let pgn = """
        [Event "one"]
        [Result "1-0"]

        1. h2e2 {book} h9g7 2. h0g2 1-0

        [Event "two"]
        [Result "0-1"]
        1. C2=5 H8+7 2. H2+3 0-1

        [Event "three"]
        [Result "1/2-1/2"]
        1. 炮二平五 馬８進７ 1/2-1/2

        [Event "four, from a FEN"]
        [Result "1-0"]
        [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
        1... h9g7 1-0

        [Event "five, bad"]
        [Result "1-0"]
        1. h2e2 h9h9
        """
        let input = try dir.write("games.pgn", pgn)
        var builder = BookBuilder()
        builder.minGames = 1
        var problems: [String] = []
        builder.report = { problems.append($0) }
        try builder.addGames(fromFile: input)
        let output = dir.path + "/book.sqlite"
        let summary = try builder.write(to: output, buildDate: "2026-01-01")
        #expect(summary.gamesRead == 4)
        #expect(problems.count == 1 && problems[0].contains("games.pgn:19: move 1 for Black (ply 2) 'h9h9'"))
        let book = try OpeningBook(path: output)
        let start = try book.moves(for: .start)
        #expect(start.map(\.move.iccs) == ["h2e2"])
        #expect(start[0].games == 3)
        #expect((start[0].redWins, start[0].draws, start[0].blackWins) == (1, 1, 1))
        let reply = try book.moves(for: try position(after: "h2e2"))
        #expect(reply.map(\.move.iccs) == ["h9g7"])
        #expect(reply[0].games == 4)  // the FEN game reaches the same position
        #expect(try book.moves(for: try position(after: "h2e2 h9g7")).first?.games == 2)
    }
}

@Suite struct BookInMemoryTests {
    @Test func aBookOpenedFromBytesAnswersAsTheFile() throws {
        // An app hands over its bundled book's bytes: no file path, no /proc.
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let memory = try OpeningBook(bytes: bytes, name: "bundled.sqlite")
        let file = try OpeningBook(path: path)
        #expect(memory.path == "bundled.sqlite")
        for moves in ["", "h2e2", "c3c4"] {
            let probed = moves.isEmpty ? Position.start : try position(after: moves)
            #expect(try memory.moves(for: probed) == file.moves(for: probed))
        }
        #expect(try memory.moves(for: .start).map(\.move.iccs) == ["h2e2", "c3c4"])
        #expect(try memory.stats().games == 5)
        // The default book too.
        let shipped = [UInt8](try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../books/xiangqi-book.sqlite")))
        #expect(try OpeningBook(bytes: shipped).moves(for: .start).count >= 5)
    }

    @Test func badBytesAreAnError() throws {
        #expect(throws: BookError.self) { try OpeningBook(bytes: []) }
        #expect(throws: BookError.self) { try OpeningBook(bytes: Array("this is not a database\n".utf8)) }
        let noise = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        #expect(throws: BookError.self) { try OpeningBook(bytes: noise) }
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: BookError.self) {
            let book = try OpeningBook(bytes: Array(bytes.prefix(bytes.count / 2)))
            _ = try book.moves(for: .start)
            _ = try book.stats()
        }
    }
}

@Suite struct BookFailureTests {
    @Test func aMissingFileIsAnError() {
        #expect(throws: BookError.self) { try OpeningBook(path: "/nonexistent/book.sqlite") }
    }

    /// A FIFO would block the engine at open, a device would be read as a database.
    @Test func aPathThatIsNoRegularFileIsRefusedWithoutOpening() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/book.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: BookError("cannot open \(fifo): not a regular file")) { try OpeningBook(path: fifo) }
        #expect(throws: BookError("cannot open /dev/null: not a regular file")) { try OpeningBook(path: "/dev/null") }
        #expect(throws: BookError("cannot open \(directory.path): not a regular file")) { try OpeningBook(path: directory.path) }
    }

    @Test func aCorruptFileIsAnError() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/corrupt.sqlite"
        let noise = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try noise.write(to: URL(fileURLWithPath: path))
        #expect(throws: BookError.self) { try OpeningBook(path: path) }
        let text = try dir.write("text.sqlite", "this is not a database\n")
        #expect(throws: BookError.self) { try OpeningBook(path: text) }
    }

    @Test func aTruncatedBookIsAnErrorAtOpenOrProbe() throws {
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: BookError.self) {
            let book = try OpeningBook(path: path)
            _ = try book.moves(for: .start)
            _ = try book.stats()
        }
    }

    @Test func aNewerSchemaVersionIsRefused() throws {
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        // The SQLite header keeps PRAGMA user_version as a big-endian 32-bit number at offset 60.
        data.replaceSubrange(60..<64, with: [0, 0, 0, 99])
        try data.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try OpeningBook(path: path)
        } throws: { error in
            (error as? BookError)?.description.contains("schema version 99") == true
        }
    }

    @Test func anInterruptedBuildLeavesTheOldBookUntouched() throws {
        let dir = try TemporaryDirectory()
        let (path, _, _) = try buildBook(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let input = try dir.write("more.txt", "1-0\tg3g4 g6g5\n1-0\th0g2 h9g7\n0-1\tb0c2 b9c7\n")
        var builder = BookBuilder()
        builder.minGames = 1
        try builder.addGames(fromFile: input)
        var polls = 0
        builder.shouldContinue = {
            polls += 1
            return polls < 3  // stop in the middle of writing the moves
        }
        #expect(throws: BookError("build interrupted")) { try builder.write(to: path, buildDate: "2026-01-02") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        #expect(try OpeningBook(path: path).moves(for: .start).map(\.move.iccs) == ["h2e2", "c3c4"])
    }

    @Test func aFailedBuildOfAnUnwritablePathReportsIt() throws {
        var builder = BookBuilder()
        builder.minGames = 1
        #expect(throws: BookError.self) { try builder.write(to: "/nonexistent/dir/book.sqlite", buildDate: "2026-01-01") }
    }
}

@Suite struct BookKeyAndLocatorTests {
    @Test func mirroredKeyIsTheKeyOfTheMirroredPosition() throws {
        var game = Game()
        var random = SeededGenerator(seed: 3)
        for _ in 0..<120 {
            let p = game.position
            #expect(p.mirroredFilesKey == p.mirroredFiles.key)
            let moves = p.legalMoves
            guard !moves.isEmpty else { break }
            try game.play(moves[Int(random.next() % UInt64(moves.count))])
        }
    }

    /// The built-in book is the committed file, opens in place and answers the start position.
    @Test func theBuiltInBookIsTheCommittedFile() throws {
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("books/xiangqi-book.sqlite")
        #expect(try Data(contentsOf: committed) == Data(OpeningBook.builtInBytes))
        let book = try OpeningBook.open(OpeningBook.builtInName)
        #expect(book.path == OpeningBook.builtInName)
        let stats = try book.stats()
        #expect(stats.positions == 67_822 && stats.moves == 77_554)
        #expect(try book.moves(for: .start).contains { $0.move.iccs == "h2e2" })
        // Two connections over the same bytes do not disturb each other.
        let second = try OpeningBook.builtIn()
        #expect(try second.moves(for: .start) == book.moves(for: .start))
    }
}
