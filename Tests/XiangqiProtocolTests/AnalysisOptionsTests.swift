import Foundation
import Testing
import XiangqiBook
import XiangqiCore
import XiangqiEngine
@testable import XiangqiProtocol

/// The options analysis GUIs expect (Stockfish, Pikafish): MultiPV up to 128, a debug log of
/// the whole conversation, UCI_AnalyseMode, and a board whose rank labels follow the GUI.
@Suite struct AnalysisOptionsTests {
    /// MultiPV 128 reports every legal move once when a position has fewer.
    @Test func multiPVCoversEveryMoveUpTo128() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        let handshake = run(session, sink, ["uci"])
        #expect(handshake.contains("option name MultiPV type spin default 1 min 1 max 128"))
        let output = run(session, sink, ["setoption name MultiPV value 128", "position startpos", "go depth 2"])
        let depthTwo = output.filter { $0.hasPrefix("info depth 2 ") && $0.contains(" pv ") }
        let firstMoves = Set(depthTwo.compactMap { $0.split(separator: " ").drop { $0 != "pv" }.dropFirst().first.map(String.init) })
        #expect(depthTwo.count == 44 && firstMoves == Set(Position.start.legalMoves.map(\.iccs)))
        #expect(depthTwo.last?.contains(" multipv 44 ") == true)
    }

    /// Every line in and out is appended to the file, marked; a file that cannot be opened is
    /// reported and play goes on; an empty name stops the log.
    @Test func debugLogFileRecordsTheConversation() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-log-\(getpid()).txt").path
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for round in 0..<2 {
            let sink = MemorySink()
            let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
            #expect(run(session, sink, ["uci"]).contains("option name Debug Log File type string default <empty>"))
            #expect(run(session, sink, ["setoption name Debug Log File value \(path)"]).isEmpty)
            let output = run(session, sink, ["position startpos", "go depth \(round + 1)"])
            _ = run(session, sink, ["setoption name Debug Log File value "])
            _ = run(session, sink, ["isready"])  // after the log stopped: not in it
            let log = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            let expected = ["<< " + output.last!]  // this round's bestmove, in the order written
            #expect(log.contains(">> go depth \(round + 1)") && log.contains(">> position startpos"))
            #expect(log.contains(expected[0]))
            #expect(!log.contains(">> isready"))
            // Appended: the first round's lines stay.
            #expect(log.filter { $0.hasPrefix(">> go depth") }.count == round + 1)
            #expect(log.allSatisfy { $0.hasPrefix(">> ") || $0.hasPrefix("<< ") })
        }
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        _ = run(session, sink, ["uci"])
        let refused = run(session, sink, ["setoption name Debug Log File value /nonexistent/dir/engine.log"])
        #expect(refused == ["info string cannot open Debug Log File /nonexistent/dir/engine.log: No such file or directory; no log is written"])
        #expect(run(session, sink, ["position startpos", "go depth 1"]).last?.hasPrefix("bestmove ") == true)
    }

    /// With UCI_AnalyseMode the book does not answer: the GUI gets a search's lines.
    @Test func analyseModeSearchesInsteadOfPlayingTheBook() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink, bookFiles: [OpeningBook.builtInName])
        #expect(run(session, sink, ["uci"]).contains("option name UCI_AnalyseMode type check default false"))
        let played = run(session, sink, ["position startpos", "go depth 3"])
        #expect(played.contains { $0.hasPrefix("info string book move ") })
        let analysed = run(session, sink, ["setoption name UCI_AnalyseMode value true", "go depth 3"])
        #expect(!analysed.contains { $0.hasPrefix("info string book move ") })
        #expect(analysed.contains { $0.hasPrefix("info depth 3 ") })
    }

    /// `d` labels ranks as the session's moves number them.
    @Test func displayLabelsRanksInTheSessionsNumbering() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        _ = run(session, sink, ["uci"])
        let zeroBased = run(session, sink, ["position startpos", "d"])
        #expect(zeroBased[1] == " 9| r n b a k a b n r |" && zeroBased[10] == " 0| R N B A K A B N R |")
        // h3e3 reads legally only with ranks 1-10 (a cannon): the session numbers so from here.
        let oneBased = run(session, sink, ["position startpos moves h3e3", "d"])
        #expect(oneBased[1] == "10| r n b a k a b n r |" && oneBased[10] == " 1| R N B A K A B N R |")
        #expect(oneBased[12] == "    a b c d e f g h i")
    }
}
