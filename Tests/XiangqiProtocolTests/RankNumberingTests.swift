import Testing
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiTestSupport
@testable import XiangqiProtocol

/// A game played at random by the reference generator (seeded): its moves in ICCS and the
/// board and side to move before each move and after the last, as the reference writes them.
struct ReferenceGame {
    var moves: [String] = []
    var boards: [String] = []
    /// For each move, whether its text in the other numbering is a legal move too (so that
    /// reading move by move could take the wrong one).
    var readsBothWays: [Bool] = []

    init(from start: Position, plies: Int, rng: inout SeededGenerator) {
        var board = ReferenceBoard(start)
        boards.append(board.boardAndSide)
        for _ in 0..<plies {
            let legal = board.legalMoves()
            guard !legal.isEmpty else { break }
            let move = legal.sorted().randomElement(using: &rng)!
            readsBothWays.append(Self.otherReadings(of: move).contains { legal.contains($0) })
            moves.append(move)
            board.play(move)
            boards.append(board.boardAndSide)
        }
    }

    /// The moves (ICCS) that `move`'s text in each numbering means in the other one.
    static func otherReadings(of iccs: String) -> [String] {
        let move = Move(iccs: iccs)!
        let readings = [MoveText.parse(MoveText.format(move, .oneBased), .zeroBased),
                        MoveText.parse(MoveText.format(move, .zeroBased), .oneBased)]
        return readings.compactMap { $0?.iccs }
    }

    /// `moves[range]` as a GUI writing `numbering` sends them.
    func text(_ range: Range<Int>, _ numbering: RankNumbering) -> String {
        moves[range].map { MoveText.format(Move(iccs: $0)!, numbering) }.joined(separator: " ")
    }

    /// Whether the reference board `boards[ply]` accepts every move of `texts` read in
    /// `numbering`, played one after another.
    static func playsLegally(_ texts: [String], _ numbering: RankNumbering, from fen: String) -> Bool {
        var board = ReferenceBoard(try! Position(fen: fen))
        for text in texts {
            guard let move = MoveText.parse(text, numbering), board.legalMoves().contains(move.iccs) else { return false }
            board.play(move.iccs)
        }
        return true
    }
}

/// The first two FEN fields of the session's position, or `nil` when it has none.
private func boardAndSide(_ session: Session) -> String? {
    session.game.map { $0.position.fen.split(separator: " ").prefix(2).joined(separator: " ") }
}

private func newSession(_ sink: MemorySink = MemorySink()) -> Session {
    let session = Session(engine: Engine(hashMegabytes: 1), output: sink)
    session.handle("uci")
    return session
}

@Suite struct RankNumberingTests {
    static let games: [ReferenceGame] = {
        var rng = SeededGenerator(seed: 20261125)
        return (0..<40).map { _ in ReferenceGame(from: .start, plies: 100, rng: &rng) }
    }()

    /// Whole games from the start position, in both numberings, reach exactly the reference
    /// positions, at every tenth ply and at the end, and the replies follow the numbering.
    @Test func gamesFromTheStartReachTheReferencePositionsInBothNumberings() {
        // The games do contain moves that read legally both ways (what misled the
        // move-by-move reading): the test covers them.
        let ambiguous = Self.games.map { $0.readsBothWays.filter { $0 }.count }.reduce(0, +)
        #expect(ambiguous >= 30, "only \(ambiguous) moves read both ways")
        for (index, game) in Self.games.enumerated() {
            for numbering in [RankNumbering.zeroBased, .oneBased] {
                let sink = MemorySink()
                let session = newSession(sink)
                for ply in Array(stride(from: 1, to: game.moves.count, by: 10)) + [game.moves.count] {
                    session.handle("position startpos moves " + game.text(0..<ply, numbering))
                    #expect(boardAndSide(session) == game.boards[ply],
                            "game \(index), \(numbering), after \(ply) plies")
                    #expect(session.numbering == numbering)
                }
                #expect(!sink.lines.contains { $0.hasPrefix("info string") }, "\(sink.lines.filter { $0.hasPrefix("info string") })")
            }
        }
    }

    /// A game from a FEN with no earlier command: read in the numbering that plays the whole
    /// list legally; refused with a message when both do (to different positions); and, once
    /// an earlier command showed the numbering, read in it.
    @Test func gamesFromAFenAreReadWholeOrRefused() {
        var decided = 0, refused = 0
        for game in Self.games {
            // Lists of one to three moves at every seventh ply, and a single move wherever it
            // reads legally both ways.
            let starts = Set(stride(from: 0, to: game.moves.count - 1, by: 7))
                .union(game.readsBothWays.indices.filter { game.readsBothWays[$0] })
            for start in starts.sorted() {
                let length = game.readsBothWays[start] ? 1 : 1 + start % 3
                let end = min(start + length, game.moves.count)
                let fen = game.boards[start] + " - - 0 1"
                for numbering in [RankNumbering.zeroBased, .oneBased] {
                    let other: RankNumbering = numbering == .zeroBased ? .oneBased : .zeroBased
                    let texts = game.text(start..<end, numbering).split(separator: " ").map(String.init)
                    let bothWays = ReferenceGame.playsLegally(texts, other, from: fen)
                    let command = "position fen \(fen) moves " + texts.joined(separator: " ")

                    let sink = MemorySink()
                    let fresh = newSession(sink)
                    fresh.handle(command)
                    if bothWays {
                        refused += 1
                        #expect(fresh.game == nil, "\(command)")
                        #expect(sink.lines.last == "info string moves legal with ranks 0-9 and with ranks 1-10 alike, and no earlier "
                            + "command showed which the GUI uses: no position is set (send the game from its start)")
                    } else {
                        decided += 1
                        #expect(boardAndSide(fresh) == game.boards[end], "\(command)")
                        #expect(fresh.numbering == numbering)
                    }

                    // The first move of a game from the start shows the numbering; it holds.
                    let told = newSession()
                    told.handle("position startpos moves " + MoveText.format(Move(iccs: "h2e2")!, numbering))
                    told.handle(command)
                    #expect(boardAndSide(told) == game.boards[end], "\(command) after a game in \(numbering)")
                    #expect(told.numbering == numbering)
                }
            }
        }
        #expect(refused >= 30 && decided >= 1000, "refused \(refused), decided \(decided)")
    }

    /// `searchmoves` and `banmoves` at random positions of the games leave exactly the moves
    /// the reference expects, in both numberings.
    @Test func searchMovesAndBanMovesFollowTheNumbering() throws {
        var rng = SeededGenerator(seed: 7)
        var checked = 0
        for game in Self.games.prefix(12) {
            for ply in stride(from: 3, to: game.moves.count, by: 9) {
                let legal = ReferenceBoard(try Position(fen: game.boards[ply] + " - - 0 1")).legalMoves().sorted()
                let chosen = Set(legal.filter { _ in Bool.random(using: &rng) })
                for numbering in [RankNumbering.zeroBased, .oneBased] {
                    let session = newSession()
                    session.handle("position startpos moves " + game.text(0..<ply, numbering))
                    let position = try #require(session.game?.position)
                    let texts = chosen.sorted().map { MoveText.format(Move(iccs: $0)!, numbering) }

                    let searched = Set(session.rootMoves(position, searchMoves: texts).map(\.iccs))
                    #expect(searched == (chosen.isEmpty ? Set(legal) : chosen), "searchmoves \(texts) at ply \(ply)")

                    session.handle("banmoves " + texts.joined(separator: " "))
                    let allowed = Set(session.rootMoves(position, searchMoves: []).map(\.iccs))
                    #expect(allowed == Set(legal).subtracting(chosen), "banmoves \(texts) at ply \(ply)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }

    /// With nothing to tell the numbering by (a FEN without moves), a `searchmoves` list that
    /// reads legally only one way shows it; one that reads both ways is ignored with a message.
    @Test func searchMovesAloneShowTheNumberingOrAreIgnored() throws {
        // A red chariot on a1 (0-9): `a1a2` reads as a1-a2 in 0-9 (legal) and as a0-a1 in
        // 1-10 (no piece on a0): 0-9.
        let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
        let sink = MemorySink()
        let session = newSession(sink)
        session.handle("position fen \(fen)")
        let position = try #require(session.game?.position)
        #expect(session.rootMoves(position, searchMoves: ["a1a2"]).map(\.iccs) == ["a1a2"])
        #expect(session.rankNumbering == .zeroBased)

        let another = newSession(sink)
        another.handle("position fen \(fen)")
        // `a2a3` reads as a1-a2 in 1-10 (legal) and as a2-a3 in 0-9 (no piece on a2): 1-10.
        #expect(another.rootMoves(position, searchMoves: ["a2a3"]).map(\.iccs) == ["a1a2"])
        #expect(another.numbering == .oneBased)

        // Red chariots on a4 and a3 (0-9): `a4b4` reads as a4-b4 in 0-9 and as a3-b3 in 1-10,
        // both legal.
        let both = "3k5/9/9/9/9/R8/R8/9/9/4K4 w - - 0 1"
        let third = MemorySink()
        let undecided = newSession(third)
        undecided.handle("position fen \(both)")
        let twoChariots = try #require(undecided.game?.position)
        let all = Set(twoChariots.legalMoves.map(\.iccs))
        #expect(Set(undecided.rootMoves(twoChariots, searchMoves: ["a4b4"]).map(\.iccs)) == all)
        #expect(third.lines.last == "info string searchmoves: moves legal with ranks 0-9 and with ranks 1-10 alike, "
            + "and no earlier command showed which the GUI uses: searchmoves ignored")
        #expect(undecided.rankNumbering == nil)
    }

    /// A handshake read while a search runs forgets the GUI's numbering for what comes next,
    /// but the running search answers in the numbering of its `go`: the reader thread must
    /// not change what the search thread writes (the thread sanitizer found that race).
    @Test func aHandshakeDuringASearchLeavesItsAnswerInItsNumbering() throws {
        let sink = MemorySink()
        let session = newSession(sink)
        let opening = try #require(Move(iccs: "h2e2")), reply = try #require(Move(iccs: "h9g7"))
        session.handle("position startpos moves " + MoveText.format(opening, .oneBased))
        #expect(session.rankNumbering == .oneBased)
        _ = sink.take()
        session.handle("go infinite searchmoves " + MoveText.format(reply, .oneBased))
        session.handle("uci")
        #expect(session.rankNumbering == nil)
        session.handle("stop")
        session.waitForSearch()
        let lines = sink.take()
        #expect(lines.contains("uciok"))
        // The answer (and a ponder move, when the search got that far) in ranks 1-10.
        #expect(lines.last.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == "bestmove " + MoveText.format(reply, .oneBased), "\(lines.suffix(3))")
        // The next search, after the handshake, answers 0-9 again.
        session.handle("position startpos moves h2e2")
        session.handle("go depth 1 searchmoves h9g7")
        session.waitForSearch()
        #expect(sink.take().last.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == "bestmove h9g7")
    }
}
