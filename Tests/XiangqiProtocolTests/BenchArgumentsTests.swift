import Foundation
import Testing
import XiangqiEngine
@testable import XiangqiProtocol

/// `bench` reads its arguments as Stockfish does.
struct BenchArgumentsTests {
    @Test func argumentsAreReadInStockfishsOrder() throws {
        #expect(try BenchArguments.parse([]).get() == BenchSettings())
        let stockfish = try BenchArguments.parse(["16", "1", "13", "default", "depth"]).get()
        #expect(stockfish == BenchSettings(hashMegabytes: 16, threads: 1, limit: .depth(13)))
        // The first number is the hash, not the depth.
        #expect(try BenchArguments.parse(["64"]).get() == BenchSettings(hashMegabytes: 64))
        #expect(try BenchArguments.parse(["8", "2", "50000", "default", "nodes"]).get()
                == BenchSettings(hashMegabytes: 8, threads: 2, limit: .nodes(50_000)))
        #expect(try BenchArguments.parse(["16", "1", "250", "default", "movetime"]).get().limit == .moveTime(250))
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        #expect(try BenchArguments.parse(["16", "1", "5", "current"], currentFEN: fen).get().positions == [fen])
    }

    @Test func badArgumentsAreRefusedWithTheReason() {
        func reason(_ words: [String]) -> String? {
            if case .failure(let error) = BenchArguments.parse(words) { return error.description }
            return nil
        }
        #expect(reason(["0"]) == "bench: hash (MB) '0' is not a whole number in 1-4096")
        #expect(reason(["16", "x"]) == "bench: threads 'x' is not a whole number in 1-256")
        #expect(reason(["16", "1", "31"]) == "bench: depth '31' is not a whole number in 1-30")
        #expect(reason(["16", "1", "10", "default", "mate"]) == "bench: limit type 'mate' is not depth, nodes or movetime")
        #expect(reason(["16", "1", "10", "current"]) == "bench: no current position")
        #expect(reason(["16", "1", "10", "/nonexistent/fens.txt"])?.hasPrefix("bench: cannot read positions file /nonexistent/fens.txt") == true)
        #expect(reason(["1", "2", "3", "4", "5", "6"])?.hasPrefix("bench takes at most 5 arguments") == true)
    }

    @Test func aPositionsFileIsReadLineByLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fens-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        let endgame = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
        try Data("# bench positions\r\n\(start)\r\n\n\(endgame) bm a1a9;\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try BenchArguments.parse(["16", "1", "4", path]).get().positions == [start, endgame])
        try Data("\(start)\nnot a fen\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: BenchArgumentError.self) { try BenchArguments.parse(["16", "1", "4", path]).get() }
    }
}
