import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiCore
import XiangqiProtocol
import XiangqiSearch

/// The `xiangqi` binary: with no arguments the UCCI/UCI protocol loop that GUIs and servers
/// drive; tools for people as subcommands.
@main
struct Xiangqi: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xiangqi",
        abstract: "A Xiangqi (Chinese chess) engine. With no arguments it speaks UCCI or UCI on stdin/stdout.",
        subcommands: [PerftCommand.self, MovesCommand.self, StatusCommand.self, BenchCommand.self, TuneCommand.self,
                      BookCommand.self, SuiteCommand.self, MatchCommand.self,
                      FuzzCommand.self, DatagenCommand.self, TrainCommand.self]
    )

    func run() {
        // A GUI that closes its end of the pipe must not kill the engine mid-write.
        signal(SIGPIPE, SIG_IGN)
        let session = Session(output: StandardOutputSink(), bookPath: BookLocator.defaultBookPath(),
                              networkPath: NetworkFile.defaultPath())
        for line in StandardInputLines() {
            session.handle(line)
            if session.shouldQuit { return }
        }
        session.finish()
    }
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
