import XiangqiCore
import XiangqiEngine
import XiangqiSearch

extension Session {
    /// `d`: the board, FEN, key and checkers.
    func display() {
        guard let position = game?.position else {
            inform("no valid position")
            return
        }
        // Ranks are labelled as the session's moves number them (0-9, or 1-10 for a GUI
        // whose moves showed that numbering), so that a square read off the board is the
        // square a move names.
        let offset = numbering == .oneBased ? 1 : 0
        send("  +-------------------+")
        for rank in stride(from: 9, through: 0, by: -1) {
            let label = String(rank + offset)
            var row = String(repeating: " ", count: 2 - label.count) + label + "| "
            for file in 0..<9 {
                let p = position.piece(at: Square(file: file, rank: rank)!)
                row += "\(p.fenLetter) "
            }
            send(row + "|")
        }
        send("  +-------------------+")
        send("    a b c d e f g h i")
        send("")
        send("Fen: \(position.fen)")
        send("Key: \(String(position.key, radix: 16, uppercase: true))")
        send("Checkers: " + position.checkers.map(\.name).joined(separator: " "))
    }

    /// `eval`: the evaluation split by term.
    func evaluate() {
        guard let position = game?.position else {
            inform("no valid position")
            return
        }
        let evaluator = engine.evaluator
        func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        let terms = evaluator.breakdown(position)
        let nameWidth = max(4, terms.map(\.name.count).max() ?? 0)
        send(pad("term", nameWidth) + " |    red mg    red eg |  black mg  black eg")
        for term in terms {
            send(pad(term.name, nameWidth) + " | " + pad("\(term.redMiddlegame)", 9) + " " + pad("\(term.redEndgame)", 9)
                 + " | " + pad("\(term.blackMiddlegame)", 9) + " " + pad("\(term.blackEndgame)", 9))
        }
        send("Phase: \(Evaluator.phase(position)) of 32 (middlegame weight)")
        if let network = evaluator.activeNetwork {
            var handcrafted = evaluator
            handcrafted.network = nil
            send("Handcrafted evaluation: \(handcrafted.evaluate(position)) (not used)")
            send("Network \(network.hashText): accumulator \(network.hidden), \(network.buckets) king bucket(s)"
                 + (network.outputBuckets > 1 ? ", \(network.outputBuckets) output buckets" : ""))
        }
        send("Final evaluation: \(evaluator.evaluate(position)) (side to move: \(position.sideToMove))")
    }

    /// `flip`: the same position seen from the other side (colours and ranks swapped).
    func flip() {
        guard let position = game?.position else {
            inform("no valid position")
            return
        }
        game = Game(position.colorFlipped)
        bannedMoves = []
    }

    /// `perft N` / `go perft N`: leaf counts per root move, then the total; no bestmove.
    func perft(_ args: [String]) {
        guard let depthText = args.first, let depth = Int(depthText), (1...10).contains(depth) else {
            inform("perft needs a depth 1-10")
            return
        }
        guard var position = game?.position else {
            inform("no valid position")
            return
        }
        var total: UInt64 = 0
        for (move, count) in position.divide(depth) {
            send("\(text(move)): \(count)")
            total += count
        }
        send("")
        send("Nodes searched: \(total)")
        send("")
    }

    /// `bench [hash] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]` (see
    /// ``BenchArguments``), with the session's evaluation: with no arguments, the signature.
    func bench(_ args: [String]) {
        let settings: BenchSettings
        switch BenchArguments.parse(args, currentFEN: game?.position.fen) {
        case .success(let parsed): settings = parsed
        case .failure(let error):
            inform(error.description)
            return
        }
        loadPendingNetwork()
        let (nodes, ms) = Engine.bench(settings, network: engine.evaluator.activeNetwork)
        send("Nodes searched: \(nodes)")
        send("Time: \(ms) ms")
        send("Nodes/second: \(ms > 0 ? nodes * 1000 / UInt64(ms) : nodes)")
    }
}
