import ArgumentParser
import XiangqiCore

/// The `xiangqi` binary: tools for people as subcommands; with no arguments (a later
/// milestone) the UCCI/UCI protocol loop that GUIs and servers drive.
@main
struct Xiangqi: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xiangqi",
        abstract: "A Xiangqi (Chinese chess) engine.",
        subcommands: [PerftCommand.self, MovesCommand.self, BenchCommand.self]
    )
}

/// Options naming a position: a FEN (default the start position) and moves played from it.
struct PositionOptions: ParsableArguments {
    @Option(help: "The position as a FEN (default: the start position).")
    var fen: String = Position.startFEN

    @Option(help: "Moves played from the FEN, space separated, in ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五).")
    var moves: String = ""

    /// The position, or a validation error naming the bad FEN or move.
    func position() throws -> Position {
        var position: Position
        do {
            position = try Position(fen: fen)
        } catch {
            throw ValidationError("invalid FEN: \(error)")
        }
        for token in moves.split(whereSeparator: { $0 == " " || $0 == "," }) {
            guard let move = position.parseMove(String(token)) else {
                throw ValidationError("'\(token)' is not a legal move in \(position.fen)")
            }
            _ = position.make(move)
        }
        return position
    }
}
