import ArgumentParser
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Search the fixed bench positions (16 MB hash, one thread) and print the node signature."
    )

    @Argument(help: "Search depth per position.")
    var depth: Int = BenchCommand.defaultDepth

    @Flag(help: "Print nodes per position.")
    var verbose = false

    @Option(help: """
        Evaluate with this network file, random:BUCKETSxHIDDEN (seeded random weights, to time a shape) \
        or handcrafted (default: the default network, as the engine finds it, else handcrafted).
        """)
    var evalFile: String?

    static let defaultDepth = 10

    func validate() throws {
        guard (1...30).contains(depth) else { throw ValidationError("depth must be 1-30") }
    }

    /// The network `--eval-file` names; without one, the engine's default network (so that the
    /// signature is that of the engine as it plays), or none when there is no default network.
    func network() throws -> Network? {
        guard let evalFile = evalFile ?? NetworkFile.defaultPath(), evalFile != "handcrafted" else { return nil }
        if evalFile.hasPrefix("random:") {
            let shape = evalFile.dropFirst(7).split(separator: "x").compactMap { Int($0) }
            guard shape.count == 2, shape[0] == 1 || shape[0] == 6, shape[1] > 0, shape[1] % 16 == 0,
                  shape[1] <= NetworkFile.maximumHidden else {
                throw ValidationError("--eval-file random:BUCKETSxHIDDEN needs 1 or 6 buckets and a width that is a multiple of 16")
            }
            return Network.random(buckets: shape[0], hidden: shape[1], seed: 1)
        }
        do {
            return try NetworkFile.network(atPath: evalFile)
        } catch {
            throw ValidationError("cannot use \(evalFile): \(error)")
        }
    }

    func run() throws {
        let network = try network()
        let (nodes, ms) = Engine.bench(depth: depth, network: network) { i, fen, n in
            if verbose { print("position \(i + 1): \(n) nodes  \(fen)") }
        }
        print("Evaluation: \(network.map { "network \($0.hashText)" } ?? "handcrafted")")
        print("Nodes searched: \(nodes)")
        print("Time: \(ms) ms")
        print("Nodes/second: \(ms > 0 ? nodes * 1000 / UInt64(ms) : nodes)")
    }
}
