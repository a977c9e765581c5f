import ArgumentParser
import XiangqiCore

struct MovesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moves",
        abstract: "List the legal moves of a position in ICCS, WXF and Chinese notation, and its state.",
        discussion: "Example: xiangqi moves --moves \"h2e2 h9g7\""
    )

    @OptionGroup var position: PositionOptions

    @Option(help: "Only moves from this square (e.g. h2).")
    var from: String?

    func run() throws {
        let board = try position.position()
        print("FEN: \(board.fen)")
        var moves = board.legalMoves
        if let from {
            guard let square = Square(name: from) else { throw CommandFailure("'\(from)' is not a square") }
            moves = board.legalMoves(from: square)
        }
        for move in moves.sorted(by: { $0.iccs < $1.iccs }) {
            print("\(move.iccs)  \(board.wxf(move))  \(board.chinese(move))")
        }
        let state: String
        if board.isCheckmate {
            state = "checkmate: \(board.sideToMove) has lost"
        } else if board.isStalemate {
            state = "stalemate: \(board.sideToMove) has no legal move and has lost"
        } else {
            state = board.isInCheck ? "\(board.sideToMove) to move, in check" : "\(board.sideToMove) to move"
        }
        print("\(moves.count) moves; \(state)")
    }
}
