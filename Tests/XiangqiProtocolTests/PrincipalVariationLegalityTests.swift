import Testing
import XiangqiCodec
import XiangqiCore
import XiangqiSearch
import XiangqiTestSupport
@testable import XiangqiProtocol

/// Every move the session prints is legal: each `pv` of each `info` line (MultiPV lines and
/// bound lines too), `bestmove` and `ponder`, in both dialects and both rank numberings, at
/// every depth, after interrupted searches and with two threads. The reference generator
/// makes the positions and judges every move.
@Suite struct PrincipalVariationLegalityTests {
    /// What one session's output said, line by line, against the reference generator.
    struct Verdict {
        var lines = 0
        var moves = 0
        var problems: [String] = []
    }

    /// Checks every move-bearing line of `output`, written in `numbering`, from `fen`.
    static func check(_ output: [String], from fen: String, _ numbering: RankNumbering, into verdict: inout Verdict) {
        func play(_ words: ArraySlice<String>, what: String, line: String) {
            var board = ReferenceBoard(try! Position(fen: fen))
            for word in words {
                guard let move = MoveText.parse(word, numbering) else {
                    verdict.problems.append("\(fen): unreadable \(what) move '\(word)' in '\(line)'")
                    return
                }
                guard board.legalMoves().contains(move.iccs) else {
                    verdict.problems.append("\(fen): illegal \(what) move '\(word)' in '\(line)'")
                    return
                }
                board.play(move.iccs)
                verdict.moves += 1
            }
        }
        for line in output {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "info", let pv = words.firstIndex(of: "pv") {
                verdict.lines += 1
                let moves = words[(pv + 1)...]
                if moves.isEmpty { verdict.problems.append("\(fen): empty pv in '\(line)'") }
                play(moves, what: "pv", line: line)
            } else if words.first == "info", words.contains("lowerbound") || words.contains("upperbound") {
                verdict.problems.append("\(fen): a bound line without its move: '\(line)'")
            } else if words.first == "bestmove", words.count >= 2 {
                verdict.lines += 1
                var moves = [words[1]]
                if let ponder = words.firstIndex(of: "ponder"), ponder + 1 < words.count { moves.append(words[ponder + 1]) }
                play(moves[...], what: "bestmove/ponder", line: line)
            }
        }
    }

    /// How a search ends: by its depth, or interrupted by `stop`, a new `position` or a
    /// `ponderhit` of a pondering search.
    enum Ending: CaseIterable { case depth, stop, newPosition, ponderHit }

    /// Plays `searches` searches in one session of `dialect` and `numbering` on positions of
    /// seeded random games, with MultiPV 1-5 (UCI), 1 or 2 threads, depths 1-`maxDepth`.
    static func run(searches: Int, dialect: String, numbering: RankNumbering, maxDepth: Int, seed: UInt64) -> Verdict {
        var rng = SeededGenerator(seed: seed)
        let sink = MemorySink()
        let session = Session(output: sink, bookFiles: [], evalFile: NetworkFile.builtInName)
        session.handle(dialect)
        session.handle(dialect == "uci" ? "setoption name Hash value 2" : "setoption hashsize 2")
        if numbering == .oneBased {
            // Only the one-based reading of h3e3 is legal (a cannon): the session answers in
            // that numbering from here on.
            session.handle("position startpos moves h3e3")
        }
        session.handle("isready")
        _ = sink.take()
        var verdict = Verdict()
        var fens: [String] = []
        while fens.count < searches {
            let game = ReferenceGame(from: .start, plies: 20 + Int(rng.next() % 140), rng: &rng)
            for board in game.boards.dropFirst(4) where rng.next() % 8 == 0 {
                let fen = board + " - - 0 1"
                if !ReferenceBoard(try! Position(fen: fen)).legalMoves().isEmpty { fens.append(fen) }
            }
        }
        // A position whose stale line once printed an illegal move (a cannon between the
        // black cannon on i0 and the red king).
        fens[0] = "1cbak1b2/4a4/1C7/Nnp4rp/4pC3/2P3B2/P7P/4B4/4A4/1R1AK3c b - - 0 1"
        for (index, fen) in fens.prefix(searches).enumerated() {
            if dialect == "uci" { session.handle("setoption name MultiPV value \(1 + rng.next() % 5)") }
            session.handle("setoption \(dialect == "uci" ? "name Threads value" : "threads") \(rng.next() % 4 == 0 ? 2 : 1)")
            session.handle("position fen \(fen)")
            let depth = 1 + Int(rng.next() % UInt64(maxDepth))
            let ending = index == 0 ? .depth : Ending.allCases[Int(rng.next() % 4)]
            switch ending {
            case .depth:
                session.handle("go depth \(depth)")
            case .stop:
                session.handle("go infinite")
                spin(rng.next() % 20_000)
                session.handle("stop")
            case .newPosition:
                session.handle("go depth \(depth + 4)")
                spin(rng.next() % 20_000)
                session.handle("position fen \(fen)")
            case .ponderHit:
                session.handle("go ponder depth \(depth)")
                spin(rng.next() % 20_000)
                session.handle("ponderhit")
            }
            session.waitForSearch()
            check(sink.take(), from: fen, numbering, into: &verdict)
        }
        session.handle("quit")
        return verdict
    }

    /// Busy work of `n` steps: lets a search run a little before it is interrupted (how far it
    /// got does not matter to the assertions).
    static func spin(_ n: UInt64) {
        var x: UInt64 = 0
        for i in 0..<n { x = x &* 31 &+ i }
        precondition(x != 1)
    }

    @Test(arguments: [("uci", RankNumbering.zeroBased, UInt64(1)), ("uci", .oneBased, 2), ("ucci", .zeroBased, 3),
                      ("ucci", .oneBased, 4)])
    func everyPrintedMoveIsLegal(dialect: String, numbering: RankNumbering, seed: UInt64) {
        let verdict = Self.run(searches: 300, dialect: dialect, numbering: numbering, maxDepth: 7, seed: seed)
        print("PV legality (\(dialect), \(numbering)): \(verdict.lines) lines, \(verdict.moves) moves, "
              + "\(verdict.problems.count) illegal")
        #expect(verdict.problems.isEmpty, "\(verdict.problems.prefix(5))")
        #expect(verdict.lines >= 300)
    }
}
