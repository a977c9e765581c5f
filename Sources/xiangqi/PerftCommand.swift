import ArgumentParser
import XiangqiClient
import XiangqiCore

struct PerftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perft",
        abstract: "Count the leaf nodes of the legal move tree (a move-generator test).",
        discussion: """
            With --divide, prints 'move: count' per root move as Pikafish's 'go perft' does.

            Example: xiangqi perft 5 --fen "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"
            """
    )

    @Argument(help: "Depth in plies (0-12).")
    var depth: Int

    @OptionGroup var position: PositionOptions

    @Flag(help: "Print the leaf count below each root move.")
    var divide = false

    func validate() throws {
        guard (0...12).contains(depth) else { throw ValidationError("depth must be 0-12") }
    }

    func run() throws {
        var board = try position.position()
        let clock = ContinuousClock()
        var nodes: UInt64 = 0
        let elapsed = clock.measure {
            if divide {
                for (move, count) in board.divide(depth) {
                    print("\(move): \(count)")
                    nodes += count
                }
                print("")
            } else {
                nodes = board.perft(depth)
            }
        }
        let seconds = elapsed.inSeconds
        print("Nodes searched: \(nodes)")
        let rate = seconds > 0 ? Double(nodes) / seconds : 0
        print("Time: \(Int((seconds * 1000).rounded())) ms, \(Int(rate.rounded())) leaves/s")
    }
}
