import ArgumentParser
import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiProtocol
import XiangqiSearch

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Search the bench positions and print the node count (with no arguments: the signature).",
        discussion: """
            Arguments as Stockfish reads them: [hash MB] [threads] [limit] [positions] [limit type], \
            defaults 16 1 10 default depth. positions: default (the bench positions) or a file of FENs, \
            one per line. limit type: depth, nodes or movetime (ms).

            Example: xiangqi bench 16 1 12   (hash 16 MB, 1 thread, depth 12)
            """
    )

    @Argument(help: "[hash] [threads] [limit] [default|FILE] [depth|nodes|movetime]")
    var arguments: [String] = []

    @Flag(help: "Print nodes per position.")
    var verbose = false

    @Option(help: """
        Evaluate with this network file, random:BUCKETSxHIDDEN[xOUTPUTS] (seeded random weights, to time a shape; OUTPUTS 1 or 8 output buckets) \
        or handcrafted (default: $XIANGQI_EVALFILE if set, else the built-in network).
        """)
    var evalFile: String?

    func validate() throws {
        if case .failure(let error) = BenchArguments.parse(arguments) { throw ValidationError(error.description) }
    }

    /// The network `--eval-file` names; without one, the network the engine plays with (so
    /// that the signature is that of the engine as it plays).
    func network() throws -> Network? {
        guard let evalFile = evalFile ?? DataOverrides.networkFile else { return NetworkFile.builtIn }
        if evalFile == "handcrafted" { return nil }
        if evalFile == NetworkFile.builtInName { return NetworkFile.builtIn }
        if evalFile.hasPrefix("random:") {
            let shape = evalFile.dropFirst(7).split(separator: "x").compactMap { Int($0) }
            guard shape.count == 2 || shape.count == 3, shape[0] == 1 || shape[0] == 6, shape[1] > 0, shape[1] % 16 == 0,
                  shape[1] <= NetworkFile.maximumHidden, shape.count == 2 || [1, Network.materialBuckets].contains(shape[2]) else {
                throw ValidationError("--eval-file random:BUCKETSxHIDDEN[xOUTPUTS] needs 1 or 6 buckets, a width that is a "
                                      + "multiple of 16 and 1 or \(Network.materialBuckets) outputs")
            }
            return Network.random(buckets: shape[0], hidden: shape[1], outputBuckets: shape.count == 3 ? shape[2] : 1, seed: 1)
        }
        do {
            return try NetworkFile.network(atPath: evalFile)
        } catch {
            throw CommandFailure("cannot use \(evalFile): \(error)")
        }
    }

    func run() throws {
        let settings = try BenchArguments.parse(arguments).get()
        let network = try network()
        let (nodes, ms) = Engine.bench(settings, network: network) { i, fen, n in
            if verbose { print("position \(i + 1): \(n) nodes  \(fen)") }
        }
        print("Evaluation: \(network.map { "network \($0.hashText)" } ?? "handcrafted")")
        print("Nodes searched: \(nodes)")
        print("Time: \(ms) ms")
        print("Nodes/second: \(ms > 0 ? nodes * 1000 / UInt64(ms) : nodes)")
    }
}
