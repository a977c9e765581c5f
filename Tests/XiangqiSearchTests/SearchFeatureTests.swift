import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// The search features that are off by default until a match accepts them keep the search's
/// invariants when on, alone and together: mates at their distance, repetition verdicts,
/// legal moves.
@Suite struct SearchFeatureTests {
    static let features: [(name: String, rule: WritableKeyPath<SearchOptions, Bool> & Sendable)] = [
        ("correctionHistory", \.correctionHistory),
    ]

    /// Each feature alone, then all of them (and the correction history's piece tables) at once.
    static let settings: [String] = features.map(\.name) + ["all"]

    static func options(_ setting: String) -> SearchOptions {
        var options = SearchOptions()
        for feature in features where setting == "all" || setting == feature.name {
            options[keyPath: feature.rule] = true
        }
        if setting == "all" { options.correctionPieces = true }
        return options
    }

    func search(_ setting: String, _ fen: String, _ limits: SearchLimits, moves: [String] = []) throws -> SearchResult {
        let engine = Engine(hashMegabytes: 4)
        engine.searchOptions = Self.options(setting)
        var game = Game(try Position(fen: fen))
        for m in moves { try game.play(m) }
        engine.setGame(game)
        return engine.search(limits)
    }

    @Test(arguments: settings)
    func matesAreFoundAtTheirDistance(_ setting: String) throws {
        let mates: [(fen: String, best: String, moves: Int)] = [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0d0", 1),
            ("2baka3/9/2n4cb/p3p3p/2p2rPc1/4N4/P1P1P3P/2C1B3C/1r7/R2AKABR1 b - - 0 1", "f5f0", 2),
            ("3N5/1C1Ra4/4bk3/p2np3p/2b6/4n4/P3r1p1P/4B4/4A4/4KA3 w - - 0 1", "b8b7", 3),
            ("3ak4/3naP1r1/9/5N3/p8/6R2/P8/5A3/4A4/4K4 w - - 0 1", "g4g9", 3),
        ]
        for mate in mates {
            let result = try search(setting, mate.fen, SearchLimits(depth: 2 * mate.moves + 4))
            #expect(Score.isMate(result.score), "\(mate.fen)")
            #expect(Score.mateInMoves(result.score) == mate.moves, "\(mate.fen)")
            #expect(result.bestMove?.iccs == mate.best, "\(mate.fen)")
        }
    }

    @Test(arguments: settings)
    func repetitionVerdictsStand(_ setting: String) throws {
        // A losing perpetual check is broken (see RuleSearchTests).
        let check = try search(setting, "4k4/R8/9/7r1/2n4c1/9/9/4B4/4A4/3AK1B2 w - - 0 1", SearchLimits(depth: 8),
                               moves: ["a8a9", "e9e8", "a9a8", "e8e9"])
        #expect(check.bestMove != Move(iccs: "a8a9"))
        #expect(check.score < 0 && abs(check.score) < Score.ruleWin - Score.maxPly)
        // The chased side repeats to win by rule.
        let chase = try search(setting, "5k3/3R5/9/9/9/9/2c6/9/9/4K4 w - - 0 1", SearchLimits(depth: 8),
                               moves: ["d8c8", "c3d3", "c8d8", "d3c3", "d8c8"])
        #expect(chase.bestMove == Move(iccs: "c3d3"))
        #expect(chase.score >= Score.ruleWin - Score.maxPly)
    }

    /// The depth-11 search without any feature that the featured ones are compared with,
    /// searched once for all settings (a fresh engine each, as every search here).
    static let plainMiddlegame = Self().plainSearch("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1")

    func plainSearch(_ fen: String) -> SearchResult {
        // The FENs above are valid; a failure here fails the tests that compare with it.
        (try? search("none", fen, SearchLimits(depth: 11))) ?? SearchResult(bestMove: nil, ponderMove: nil, score: 0, depth: 0, nodes: 0)
    }

    @Test(arguments: settings)
    func searchesGiveLegalMovesAndChangeTheTree(_ setting: String) throws {
        // Each feature changes the tree of a middlegame search (it is not dead code), and
        // the move it gives is legal.
        let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1"
        let position = try Position(fen: fen)
        let featured = try search(setting, fen, SearchLimits(depth: 11))
        #expect(featured.bestMove.map { position.isLegal($0) } == true)
        #expect(featured.nodes != Self.plainMiddlegame.nodes)
    }
}
