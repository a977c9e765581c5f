import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiClient
import XiangqiCore

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Validate a game and print its status (ongoing, win or draw, with the reason).",
        discussion: """
            Exit status 0 for a valid game; an invalid FEN or move is reported on stderr with exit status 1 \
            (--json prints it as an error object).

            Example: xiangqi status --moves "h2e2 h9g7 h0g2 i9h9" --json
            """
    )

    @OptionGroup var position: PositionOptions

    @Flag(help: "Print one JSON object instead of a line of text.")
    var json = false

    @Option(help: "No-capture limit in moves per side.")
    var moveLimit = 60

    @Option(help: "Occurrences of a position that make a repetition.")
    var repetitionFold = 3

    func run() throws {
        var game: Game
        do {
            game = Game(try Position(fen: position.fen ?? Position.startFEN))
        } catch {
            return fail("invalid FEN: \(error)")
        }
        for (i, token) in position.moves.split(whereSeparator: { $0 == " " || $0 == "," }).enumerated() {
            do {
                try game.play(String(token))
            } catch {
                return fail("move \(i + 1) '\(token)' is not legal in \(game.position.fen)")
            }
        }
        let status = game.status(moveLimit: moveLimit, repetitionFold: repetitionFold)
        guard json else {
            print(status)
            return
        }
        var fields: [(String, String)] = []
        switch status {
        case .ongoing:
            fields = [("status", "ongoing")]
        case .win(let color, let reason):
            fields = [("status", "win"), ("winner", "\(color)"), ("reason", reason.rawValue)]
        case .draw(let reason):
            fields = [("status", "draw"), ("reason", reason.rawValue)]
        }
        fields += [("fen", game.position.fen), ("sideToMove", "\(game.position.sideToMove)")]
        let body = fields.map { "\"\($0.0)\": \(JSONText.quoted($0.1))" } + ["\"plies\": \(game.moves.count)"]
        print("{" + body.joined(separator: ", ") + "}")
    }

    func fail(_ message: String) {
        if json {
            print("{\"status\": \"error\", \"error\": \(JSONText.quoted(message))}")
        } else {
            printError(message)
        }
        Xiangqi.exit(withError: ExitCode.failure)
    }
}

func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}

private func writeToStandardError(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(2, bytes, count)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { writeToStandardError($0.baseAddress, $0.count) }
    }
}
