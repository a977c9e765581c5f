import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiClient
import XiangqiCore

struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "Build, probe and describe opening books (SQLite files).",
        subcommands: [BookBuildCommand.self, BookProbeCommand.self, BookStatsCommand.self]
    )
}

/// Set by SIGINT during a build so that it stops cleanly and leaves the old book in place.
nonisolated(unsafe) private var interrupted: sig_atomic_t = 0

struct BookBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a book from game files.",
        discussion: """
        Game files: one game per line (RESULT<TAB>moves, RESULT 1-0, 0-1 or 1/2-1/2) or PGN \
        (tags incl. [Result] and optional [FEN], moves in ICCS, WXF or Chinese); - reads standard input. \
        Bad games are reported with file and line and skipped. The book is written to a temporary \
        file in one transaction and renamed over FILE at the end: a failed or interrupted build \
        leaves FILE as it was. SOURCE_DATE_EPOCH, if set, gives the recorded build date.

        Example: xiangqi book build games.pgn -o my-book.sqlite
        """
    )

    @Argument(help: "Game files.")
    var games: [String]

    @Option(name: .shortAndLong, help: "The book file to write.")
    var output: String

    @Option(help: "Record positions before this ply of each game.")
    var maxPly = 40

    @Option(help: "Keep moves played in at least this many games.")
    var minGames = 2

    @Option(help: "Describe the sources in the book's metadata (default: the game files' names).")
    var source: String?

    @Flag(help: "Do not list each skipped game.")
    var quiet = false

    func validate() throws {
        guard maxPly >= 1 else { throw ValidationError("--max-ply must be at least 1") }
        guard minGames >= 1 else { throw ValidationError("--min-games must be at least 1") }
    }

    func run() throws {
        let terminal = isatty(2) != 0
        signal(SIGINT) { _ in interrupted = 1 }
        var builder = BookBuilder()
        builder.maxPly = maxPly
        builder.sourceDescription = source
        builder.minGames = minGames
        var problems = 0
        builder.report = { message in
            problems += 1
            if !quiet {
                if terminal { errorWrite("\r\u{1B}[K") }
                errorWrite(message + "\n")
            }
        }
        var currentFile = ""
        builder.progress = { count in
            if terminal, count % 500 == 0 {
                errorWrite("\r\u{1B}[K\(currentFile): \(count) games read")
            } else if !terminal, count % 10_000 == 0 {
                errorWrite("\(count) games read\n")
            }
        }
        builder.shouldContinue = { interrupted == 0 }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            for path in games {
                currentFile = path
                try builder.addGames(fromFile: path)
            }
            if terminal { errorWrite("\r\u{1B}[Kwriting \(output)\n") }
            let summary = try builder.write(to: output, buildDate: Self.buildDate())
            let elapsed = clock.now - start
            let ms = elapsed.wholeMilliseconds
            print("\(output): \(summary.gamesRead) games read, \(summary.gamesSkipped) skipped; "
                  + "\(summary.positions) positions, \(summary.moves) moves; \(ms) ms")
        } catch {
            if terminal { errorWrite("\n") }
            throw CommandFailure("\(error.description); \(output) left unchanged")
        }
    }

    /// `YYYY-MM-DD` (UTC) of `SOURCE_DATE_EPOCH` if set (reproducible builds), else of now.
    static func buildDate() -> String {
        var seconds = time(nil)
        if let env = getenv("SOURCE_DATE_EPOCH"), let value = Int(String(cString: env)) { seconds = time_t(value) }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }
}

/// The book to read: `--book FILE`, else the default book.
struct BookFileOption: ParsableArguments {
    @Option(help: "The book file (default: $XIANGQI_BOOK if set, else the built-in book).")
    var book: String?

    func open() throws -> OpeningBook {
        let name = book ?? DataOverrides.bookFile ?? OpeningBook.builtInName
        do { return try OpeningBook.open(name) } catch { throw CommandFailure(error.description) }
    }
}

struct BookProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "List the book moves of a position with counts, percentages and weights.",
        discussion: "Example: xiangqi book probe --moves \"h2e2\""
    )

    @OptionGroup var position: PositionOptions
    @OptionGroup var file: BookFileOption

    @Option(help: ArgumentHelp("Benchmark: probe this many times and print the time per probe.", visibility: .hidden))
    var repeatCount: Int?

    func run() throws {
        let board = try position.position()
        let book = try file.open()
        if let repeatCount {
            let clock = ContinuousClock()
            let start = clock.now
            var found = 0
            for _ in 0..<max(1, repeatCount) {
                do { found += try book.moves(for: board).count } catch { throw CommandFailure(error.description) }
            }
            let elapsed = clock.now - start
            let micros = elapsed.inSeconds * 1e6
                / Double(max(1, repeatCount))
            print("\(max(1, repeatCount)) probes, \(found / max(1, repeatCount)) moves each: \(format1(micros)) us per probe")
            return
        }
        let moves: [BookMove]
        do { moves = try book.moves(for: board) } catch { throw CommandFailure(error.description) }
        print("FEN: \(board.fen)")
        guard !moves.isEmpty else {
            print("not in the book")
            return
        }
        let totalWeight = max(1, moves.reduce(0) { $0 + $1.weight })
        let totalGames = max(1, moves.reduce(0) { $0 + $1.games })
        print("move  wxf     games  played  red%  draw%  black%  score%  weight  chance%")
        for m in moves {
            func pct(_ n: Int, _ d: Int) -> String { pad(String(format1(100 * Double(n) / Double(max(1, d)))), 6) }
            let line = m.move.iccs + "  " + board.wxf(m.move).padding(6) + pad("\(m.games)", 7)
                + pct(m.games, totalGames) + "  " + pct(m.redWins, m.games) + pct(m.draws, m.games) + " "
                + pct(m.blackWins, m.games) + "  " + pad(format1(m.scorePercent(for: board.sideToMove)), 6)
                + pad("\(m.weight)", 8) + "  " + pct(m.weight, totalWeight)
            print(line)
        }
        print("\(moves.count) moves, \(totalGames) games; score and weight for \(board.sideToMove)")
    }
}

struct BookStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a book's positions, moves, games, sources and other metadata.",
        discussion: "Example: xiangqi book stats --book my-book.sqlite"
    )

    @OptionGroup var file: BookFileOption

    func run() throws {
        let book = try file.open()
        let stats: BookStats
        do { stats = try book.stats() } catch { throw CommandFailure(error.description) }
        print("file: \(book.path)")
        print("positions: \(stats.positions)")
        print("moves: \(stats.moves)")
        print("games: \(stats.games)")
        for (key, value) in stats.metadata where !["positions", "moves", "games"].contains(key) {
            print("\(key): \(value)")
        }
    }
}

private func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
}


extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

