import Foundation
import XiangqiCore

/// Reads a resource file shipped with the tests.
func resourceText(_ name: String) throws -> String {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources") else {
        throw CocoaError(.fileNoSuchFile)
    }
    return try String(contentsOf: url, encoding: .utf8)
}

/// A small seeded generator so that random playouts are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Positions reached by seeded random playouts from the start and from a few test positions.
func randomPositions(games: Int, plies: Int, seed: UInt64) -> [Position] {
    var rng = SeededGenerator(seed: seed)
    var result: [Position] = []
    let starts = [Position.startFEN,
                  "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                  "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1"]
    for g in 0..<games {
        guard var p = try? Position(fen: starts[g % starts.count]) else { continue }
        for _ in 0..<plies {
            let moves = p.legalMoves
            if moves.isEmpty { break }
            _ = p.make(moves.randomElement(using: &rng)!)
            result.append(p)
        }
    }
    return result
}
