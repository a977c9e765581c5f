import Foundation
import Testing
import XiangqiBook
import XiangqiEngine
import XiangqiProtocol

/// The book through the protocol: options, the book move and its report, fallbacks.
@Suite struct BookSessionTests {
    /// A book where Red's first move is h2e2 (weight 6) or c3c4 (weight 2), then nothing.
    static func makeBook() throws -> (directory: String, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let games = directory + "/games.txt"
        try "1-0\th2e2 h9g7\n1-0\th2e2 h9g7\n1-0\th2e2 b9c7\n1-0\tc3c4 h9g7\n".write(toFile: games, atomically: true, encoding: .utf8)
        var builder = BookBuilder()
        builder.minGames = 1
        try builder.addGames(fromFile: games)
        _ = try builder.write(to: directory + "/book.sqlite", buildDate: "2026-01-01")
        return (directory, directory + "/book.sqlite")
    }

    func run(_ session: Session, _ sink: MemorySink, _ lines: [String]) -> [String] {
        for line in lines {
            session.handle(line)
            session.waitForSearch()
        }
        return sink.take()
    }

    @Test func bookMovesAreReportedChosenBySeedAndSwitchedOff() throws {
        let (directory, path) = try Self.makeBook()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink, bookFiles: [path])
        let handshake = run(session, sink, ["uci"])
        #expect(handshake.contains("option name BookFile type string default \(path)"))
        #expect(handshake.contains("option name OwnBook type check default true"))

        let first = run(session, sink, ["setoption name BookMinGames value 1", "position startpos", "go depth 4"])
        #expect(first.count == 3)
        #expect(first[0].hasPrefix("info string book move "))
        // Book moves carry a score (from the book's results through the WDL model) for GUIs.
        #expect(first[1].hasPrefix("info depth 1 seldepth 1 multipv 1 score cp "))
        #expect(first[1].contains(" pv "))
        #expect(first[2] == "bestmove h2e2 ponder h9g7" || first[2] == "bestmove c3c4 ponder h9g7")

        // The same seed gives the same sequence of choices.
        func choices() -> [String] {
            _ = run(session, sink, ["setoption name Seed value 42", "ucinewgame"])
            return (0..<20).compactMap { _ in run(session, sink, ["go depth 4"]).last }
        }
        let sequence = choices()
        #expect(choices() == sequence)
        #expect(Set(sequence).count == 2)  // both moves are played

        // Variety 0: always the heaviest move.
        let best = run(session, sink, ["setoption name BookVariety value 0", "go depth 4"])
        #expect(best.last == "bestmove h2e2 ponder h9g7")

        // Past the last book move: a search.
        let searched = run(session, sink, ["position startpos moves h2e2 h9g7", "go depth 2"])
        #expect(searched.contains { $0.hasPrefix("info depth 2 ") })
        #expect(!searched.contains { $0.contains("book move") })

        // BookDepth: the book answers only below that many plies (here: the start position, ply 0).
        _ = run(session, sink, ["setoption name BookDepth value 1"])
        let start = run(session, sink, ["position startpos", "go depth 2"])
        #expect(start.contains { $0.hasPrefix("info string book move ") })
        let none = run(session, sink, ["setoption name BookDepth value 0", "go depth 2"])
        #expect(!none.contains { $0.contains("book move") } && none.contains { $0.hasPrefix("info depth 2 ") })
        _ = run(session, sink, ["setoption name BookDepth value 40"])

        // searchmoves restricts the book too; OwnBook false searches.
        let restricted = run(session, sink, ["position startpos", "go depth 2 searchmoves c3c4"])
        #expect(restricted.last?.hasPrefix("bestmove c3c4") == true)
        #expect(restricted.contains { $0.contains("book move c3c4") })
        let off = run(session, sink, ["setoption name OwnBook value false", "go depth 2"])
        #expect(off.contains { $0.hasPrefix("info depth 2 ") })
        #expect(!off.contains { $0.contains("book move") })
    }

    @Test func badBookFilesAreReportedAndPlayGoesOn() throws {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink, bookFiles: ["/nonexistent/default.sqlite"])
        let out = run(session, sink, ["ucci", "position startpos", "go depth 2"])
        #expect(out.contains("info string book not used: cannot open /nonexistent/default.sqlite: unable to open database file"))
        // The built-in book stays in use: the start position is answered from it.
        #expect(out.contains("info string no book asked for can be used: the built-in book stays in use"))
        #expect(out.contains { $0.hasPrefix("info string book move ") && $0.contains(" from <built-in>") })
        #expect(out.last?.hasPrefix("bestmove ") == true)
        // Reported once, not at every search.
        let again = run(session, sink, ["go depth 2"])
        #expect(!again.contains { $0.contains("book not used") || $0.contains("built-in book stays") })
        let (directory, path) = try Self.makeBook()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notABook = directory + "/games.txt"
        let set = run(session, sink, ["setoption bookfiles \(notABook);\(path)", "setoption bookmingames 1", "go depth 2"])
        #expect(set.contains { $0.hasPrefix("info string book not used: \(notABook)") })
        #expect(set.contains { $0.hasPrefix("info string book move ") })
    }
}
