import Foundation
import Testing
import XiangqiEngine
import XiangqiProtocol
import XiangqiSearch

/// EvalFile and Use NNUE through the protocol: a network evaluates, a bad file is refused
/// with the reason and the handcrafted evaluation goes on.
@Suite struct NetworkOptionsTests {
    /// The score of the last depth-3 iteration from the start position.
    func score(_ session: Session, _ sink: MemorySink) -> String? {
        let lines = run(session, sink, ["position startpos moves h2e2", "go depth 3"])
        return lines.last { $0.hasPrefix("info depth 3 ") }?.split(separator: " ").drop { $0 != "score" }.prefix(3).joined(separator: " ")
    }

    @Test func networksAreLoadedSwitchedAndRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let network = Network.random(buckets: 6, hidden: 32, seed: 4)
        let bytes = NetworkFile.bytes(of: network)
        let good = directory + "/good.nnue", truncated = directory + "/truncated.nnue"
        try Data(bytes).write(to: URL(fileURLWithPath: good))
        try Data(bytes.dropLast(7)).write(to: URL(fileURLWithPath: truncated))

        let sink = MemorySink()
        let engine = Engine(hashMegabytes: 2)
        let session = Session(engine: engine, output: sink)
        let handshake = run(session, sink, ["uci"])
        #expect(handshake.contains("option name EvalFile type string default <empty>"))
        #expect(handshake.contains("option name Use NNUE type check default true"))
        let handcrafted = try #require(score(session, sink))

        let loaded = run(session, sink, ["setoption name EvalFile value \(good)"])
        #expect(loaded == ["info string network \(good): accumulator 32, 6 king bucket(s), hash \(network.hashText)"])
        let withNetwork = try #require(score(session, sink))
        #expect(withNetwork != handcrafted)
        // The search's evaluation is the network's: at depth 0 (UCCI) the static evaluation shows.
        _ = run(session, sink, ["ucci"])
        let static0 = run(session, sink, ["position startpos", "go depth 0"])
        #expect(static0.first == "info depth 0 score \(network.evaluate(.start))")
        _ = run(session, sink, ["uci"])
        // `eval` says which evaluation is used.
        let shown = run(session, sink, ["eval"])
        #expect(shown.contains("Network \(network.hashText): accumulator 32, 6 king bucket(s)"))
        #expect(shown.last == "Final evaluation: \(network.evaluate(.start)) (side to move: red)")

        _ = run(session, sink, ["setoption name Use NNUE value false"])
        #expect(score(session, sink) == handcrafted)
        _ = run(session, sink, ["setoption name Use NNUE value true"])
        #expect(score(session, sink) == withNetwork)

        // Bad files: the reason, and the network in use stays (never a silent fall to the
        // handcrafted evaluation); the engine keeps serving.
        let refused = run(session, sink, ["setoption name EvalFile value \(truncated)"])
        #expect(refused.count == 1 && refused[0].hasPrefix("info string cannot use EvalFile \(truncated): truncated or padded"))
        #expect(refused.first?.hasSuffix("network \(network.hashText) stays in use") == true)
        #expect(score(session, sink) == withNetwork)
        let missing = run(session, sink, ["setoption name EvalFile value \(directory)/none.nnue"])
        #expect(missing.first?.contains("cannot open") == true)
        let notANetwork = run(session, sink, ["setoption name EvalFile value \(directory)"])
        #expect(notANetwork.first?.hasSuffix("not a regular file; network \(network.hashText) stays in use") == true)
        // Reading a device or a pipe would block the engine: refused before opening.
        let device = run(session, sink, ["setoption name EvalFile value /dev/stdin"])
        #expect(device.first?.contains("not a regular file") == true)
        #expect(engine.evaluator.network?.contentHash == network.contentHash)
        // <empty> (what some GUIs send for an empty field) and <built-in>: the built-in network.
        for name in ["<empty>", "<built-in>"] {
            _ = run(session, sink, ["setoption name EvalFile value \(good)", "setoption name EvalFile value \(name)"])
            #expect(engine.evaluator.network?.contentHash == NetworkFile.builtInHash)
        }
        // isready names the evaluation in use, again only when it changed.
        let builtIn = "info string evaluation: network \(NetworkFile.builtIn.hashText) from <built-in>; engine \(EngineVersion.name)"
        #expect(run(session, sink, ["isready"]) == [builtIn, "readyok"])
        #expect(run(session, sink, ["isready"]) == ["readyok"])
        #expect(run(session, sink, ["setoption name Use NNUE value false", "isready"])
            == ["info string evaluation: handcrafted; engine \(EngineVersion.name)", "readyok"])
        #expect(run(session, sink, ["setoption name Use NNUE value true", "isready"]) == [builtIn, "readyok"])
        // Levels below 16 play with the handcrafted evaluation, and say so; levels 16 to 19
        // with the network, and say their level.
        #expect(run(session, sink, ["setoption name Skill Level value 5", "isready"])
            == ["info string evaluation: handcrafted (level 5; network \(NetworkFile.builtIn.hashText) loaded); engine \(EngineVersion.name)", "readyok"])
        #expect(run(session, sink, ["setoption name Skill Level value 15", "isready"])
            == ["info string evaluation: handcrafted (level 15; network \(NetworkFile.builtIn.hashText) loaded); engine \(EngineVersion.name)", "readyok"])
        #expect(run(session, sink, ["setoption name Skill Level value 16", "isready"])
            == ["info string evaluation: network \(NetworkFile.builtIn.hashText) from <built-in> (level 16); engine \(EngineVersion.name)", "readyok"])
        #expect(run(session, sink, ["setoption name Skill Level value 20", "isready"]) == [builtIn, "readyok"])
    }

    /// Levels below 16 play with the handcrafted evaluation (their UCI_Elo ladder was
    /// measured with it): with a network loaded, a level-15 game with a fixed seed plays and
    /// scores as it does without one, while levels 16 and 20 do not.
    @Test func lowLevelsKeepTheHandcraftedEvaluation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/net.nnue"
        try Data(NetworkFile.bytes(of: Network.random(buckets: 6, hidden: 32, seed: 4))).write(to: URL(fileURLWithPath: path))
        /// The scores and moves of three searches at `level`, with or without the network.
        func play(level: Int, network: Bool) -> [String] {
            let sink = MemorySink()
            let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
            var setup = ["uci", "setoption name Skill Level value \(level)", "setoption name Seed value 7"]
            if network { setup.append("setoption name EvalFile value \(path)") }
            _ = run(session, sink, setup)
            var moves: [String] = [], seen: [String] = []
            for _ in 0..<3 {
                let lines = run(session, sink, ["position startpos" + (moves.isEmpty ? "" : " moves " + moves.joined(separator: " ")),
                                                "go depth 4"])
                let best = lines.last { $0.hasPrefix("bestmove") } ?? "no bestmove"
                moves.append(String(best.split(separator: " ")[1]))
                // Score lines only: a search slower than a second (a sanitized build) also
                // says which root move it is on, as often as the clock lets it.
                seen += lines.filter { $0.hasPrefix("info depth") && $0.contains(" score ") }.map { $0.split(separator: " ").drop { $0 != "score" }.prefix(3).joined(separator: " ") }
                seen.append(best)
            }
            return seen
        }
        let handcrafted = play(level: 15, network: false)
        #expect(handcrafted.count > 6)
        #expect(play(level: 15, network: true) == handcrafted)
        #expect(play(level: 16, network: true) != play(level: 16, network: false))
        #expect(play(level: 20, network: true) != play(level: 20, network: false))
    }

    /// The built-in network is EvalFile's default, loaded at the first isready (not before
    /// uciok); a file named instead (by the environment) that cannot be used is reported there
    /// and the built-in network stays in use.
    @Test func theBuiltInNetworkIsAnnouncedAndLoadedLazily() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The built-in bytes are the committed network file.
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("networks/xiangqi.nnue")
        #expect(try Data(contentsOf: committed) == Data(NetworkFile.builtInBytes))
        #expect(NetworkFile.builtIn.contentHash == NetworkFile.builtInHash)

        let sink = MemorySink()
        let engine = Engine(hashMegabytes: 2)
        let session = Session(engine: engine, output: sink, evalFile: NetworkFile.builtInName)
        let handshake = run(session, sink, ["uci"])
        #expect(handshake.contains("option name EvalFile type string default <built-in>"))
        #expect(engine.evaluator.network == nil)  // not yet: start-up stays quick
        let builtInHash = NetworkFile.builtIn.hashText
        #expect(run(session, sink, ["isready"]) == ["info string evaluation: network \(builtInHash) from <built-in>; engine \(EngineVersion.name)", "readyok"])
        #expect(engine.evaluator.network?.contentHash == NetworkFile.builtInHash)

        // A network file named at start that cannot be used is reported at the first isready.
        let bad = directory + "/bad.nnue"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: bad))
        let otherEngine = Engine(hashMegabytes: 2)
        let other = Session(engine: otherEngine, output: sink, evalFile: bad)
        #expect(run(other, sink, ["isready"]) == ["info string cannot use EvalFile \(bad): not a network file (no XQNN header); network \(builtInHash) stays in use",
                                                  "info string evaluation: network \(builtInHash) from <built-in>; engine \(EngineVersion.name)", "readyok"])
        #expect(otherEngine.evaluator.network?.contentHash == NetworkFile.builtInHash)
    }
}
