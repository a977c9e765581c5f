import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiProtocol
import XiangqiSearch

/// The `xiangqi` binary: with no arguments the UCCI/UCI protocol loop that GUIs and servers
/// drive; tools for people as subcommands.
@main
struct Xiangqi: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xiangqi",
        abstract: "A Xiangqi (Chinese chess) engine. With no arguments it speaks UCCI or UCI on stdin/stdout.",
        // Listed in the help; `main()` answers --version itself, with the network and book.
        version: EngineVersion.name(build: build),
        subcommands: [PerftCommand.self, MovesCommand.self, StatusCommand.self, BenchCommand.self, TuneCommand.self,
                      BookCommand.self, SuiteCommand.self, MatchCommand.self, ReviewCommand.self,
                      FuzzCommand.self, DatagenCommand.self, TrainCommand.self, SPSACommand.self]
    )

    /// Parses the command line after ``attachingNumericValues(_:)``, so that
    /// `match --sprt -10 5` reads its bounds instead of taking `-10` for an option.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Answered before parsing (the parser's own --version would be built on every start).
        if arguments == ["--version"] || arguments == ["version"] {
            EngineVersion.report(build: build).forEach { print($0) }
            return
        }
        main(attachingNumericValues(arguments))
    }

    /// What this binary was built from: `commit, date` (scripts/build-identity.sh).
    static let build = "\(BuildIdentity.commit), \(BuildIdentity.date)"

    /// Options whose values may be negative numbers, and how many values each takes.
    static let numericOptions = ["--sprt": 2]

    /// `--sprt -10 5` written as `--sprt=-10 --sprt=5`: the argument parser reads a word that
    /// starts with "-" as an option, which leaves a negative bound without its value. Only
    /// words that are numbers are attached; anything else is left for the parser to report.
    static func attachingNumericValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard let count = numericOptions[word] else {
                result.append(word)
                continue
            }
            var values: [String] = []
            while values.count < count && index < arguments.count && Double(arguments[index]) != nil {
                values.append(arguments[index])
                index += 1
            }
            result += values.isEmpty ? [word] : values.map { "\(word)=\($0)" }
        }
        return result
    }

    func run() {
        // A GUI that closes its end of the pipe must not kill the engine mid-write.
        signal(SIGPIPE, SIG_IGN)
        // The built-in book and network, unless the environment names files.
        let session = Session(output: StandardOutputSink(), bookFiles: [DataOverrides.bookFile ?? OpeningBook.builtInName],
                              evalFile: DataOverrides.networkFile ?? NetworkFile.builtInName, build: Self.build)
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
    var fen: String?

    @Option(help: "Moves played from the FEN, space separated, in ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五).")
    var moves: String = ""

    /// The position, or a ``CommandFailure`` naming the bad FEN or move.
    func position() throws -> Position {
        var position: Position
        do {
            position = try Position(fen: fen ?? Position.startFEN)
        } catch {
            throw CommandFailure("invalid FEN: \(error)")
        }
        for token in moves.split(whereSeparator: { $0 == " " || $0 == "," }) {
            guard let move = position.parseMove(String(token)) else {
                throw CommandFailure("'\(token)' is not a legal move in \(position.fen)")
            }
            _ = position.make(move)
        }
        return position
    }
}
