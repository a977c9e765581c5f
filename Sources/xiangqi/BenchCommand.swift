import ArgumentParser
import XiangqiCore
import XiangqiEngine

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Search the fixed bench positions (16 MB hash, one thread) and print the node signature."
    )

    @Argument(help: "Search depth per position.")
    var depth: Int = BenchCommand.defaultDepth

    @Flag(help: "Print nodes per position.")
    var verbose = false

    static let defaultDepth = 10

    func validate() throws {
        guard (1...30).contains(depth) else { throw ValidationError("depth must be 1-30") }
    }

    func run() {
        let (nodes, ms) = Engine.bench(depth: depth) { i, fen, n in
            if verbose { print("position \(i + 1): \(n) nodes  \(fen)") }
        }
        print("Nodes searched: \(nodes)")
        print("Time: \(ms) ms")
        print("Nodes/second: \(ms > 0 ? nodes * 1000 / UInt64(ms) : nodes)")
    }
}
