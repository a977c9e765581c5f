import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiClient
import XiangqiCore
import XiangqiEngine
import XiangqiSearch
import XiangqiTraining

struct DatagenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datagen",
        abstract: "Play self-play games and write training positions (32-byte records) for an evaluation.",
        discussion: """
        Each game opens with random plies, then the engine plays both sides at a fixed node (or \
        depth) budget; quiet positions (not in check, best move not a capture, no mate score) are \
        written with the search score (side to move) and the game's result. Game i depends only \
        on --seed and i, so runs over --first-game ranges combine into the same data as one run, \
        whatever --threads says. The file is written as OUTPUT.partial and renamed to OUTPUT \
        when every game is done. Record format: TrainingRecord in the XiangqiTraining library.

        Example: xiangqi datagen --games 100 --nodes 1000 -o data.bin
        """
    )

    @Option(name: .shortAndLong, help: "The file of records to write.")
    var output: String

    @Option(help: "How many games to play.")
    var games = 100

    @Option(help: "The index of the first game (to continue or split a run).")
    var firstGame = 0

    @Option(help: "The seed of the random openings.")
    var seed: UInt64 = 1

    @Option(help: "Nodes per search.")
    var nodes: UInt64 = 5000

    @Option(help: "Search to this depth instead of a node budget.")
    var depth: Int?

    @Option(help: "Random plies opening each game, as MIN-MAX.")
    var randomPlies = "6-9"

    @Option(help: "Games played at once, one engine each (one per core).")
    var threads = 1

    @Option(help: "Hash per engine, in MB.")
    var hash = 4

    @Option(help: "Score the positions of these recorded games (RESULT<TAB>ICCS moves per line, - for standard input) instead of playing: game i is the file's i-th game.")
    var fromGames: String?

    @Option(help: "With --from-games, leave out the positions before this ply.")
    var skipPlies = 8

    @Option(help: "Search with this network (xiangqi train) instead of the handcrafted evaluation.")
    var evalFile: String?

    func validate() throws {
        guard games >= 1 else { throw ValidationError("--games must be at least 1") }
        guard firstGame >= 0 else { throw ValidationError("--first-game must not be negative") }
        guard (1...10_000_000).contains(nodes) else { throw ValidationError("--nodes must be between 1 and 10000000") }
        if let depth { guard (1...30).contains(depth) else { throw ValidationError("--depth must be between 1 and 30") } }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256") }
        guard (1...1024).contains(hash) else { throw ValidationError("--hash must be between 1 and 1024") }
        guard plyRange() != nil else { throw ValidationError("--random-plies must be MIN-MAX with 0 <= MIN <= MAX <= 40") }
    }

    func plyRange() -> ClosedRange<Int>? {
        let parts = randomPlies.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let low = parts[0], let high = parts[1], low >= 0, low <= high, high <= 40 else { return nil }
        return low...high
    }

    func run() throws {
        var settings = DataGeneration()
        settings.seed = seed
        settings.nodes = nodes
        settings.depth = depth
        settings.randomPlies = plyRange()!
        settings.hashMegabytes = hash
        if let evalFile {
            do {
                settings.network = try NetworkFile.network(atPath: evalFile)
            } catch {
                throw CommandFailure("cannot use \(evalFile): \(error)")
            }
        }
        let partial = output + ".partial"
        guard let file = fopen(partial, "w") else {
            throw CommandFailure("cannot write \(partial): \(String(cString: strerror(errno)))")
        }
        var range = firstGame..<(firstGame + games)
        var play: (@Sendable (Int, Engine) -> DataGeneration.Outcome?)?
        if let fromGames {
            let recorded = try readRecordedGames(fromGames)
            range = min(firstGame, recorded.count)..<min(firstGame + games, recorded.count)
            let settings = settings, skip = skipPlies
            play = { index, engine in
                settings.replay(recorded[index].moves, result: recorded[index].result, skipPlies: skip, engine: engine)
            }
        }
        let tally = DatagenTally(total: range.count, terminal: isatty(2) != 0, file: file)
        settings.run(games: range, threads: threads, play: play) { _, outcome in tally.add(outcome) }
        let closed = fclose(file) == 0
        guard closed && !tally.writeFailed else {
            throw CommandFailure("cannot write \(partial): \(String(cString: strerror(errno))); the partial file is kept")
        }
        guard rename(partial, output) == 0 else {
            throw CommandFailure("cannot rename \(partial) to \(output): \(String(cString: strerror(errno)))")
        }
        let source = fromGames.map { "recorded games of \($0) from ply \(skipPlies)" }
            ?? "seed \(seed), random plies \(settings.randomPlies.lowerBound)-\(settings.randomPlies.upperBound)"
        print(tally.summary(settings: settings, source: source, range: range, threads: threads, output: output))
    }
}

/// The games of a file of `RESULT<TAB>ICCS moves` lines (`-`: standard input); bad lines are
/// reported on standard error and left out, so game numbers count good games only.
private func readRecordedGames(_ path: String) throws -> [(moves: [Move], result: GameResult)] {
    let text = path == "-" ? readStandardInput() : try readTextFile(path)
    var games: [(moves: [Move], result: GameResult)] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let trimmed = line.drop { $0 == " " }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
        let fields = trimmed.split(separator: "\t", maxSplits: 1)
        guard fields.count == 2, let result = GameResult(text: fields[0]) else {
            errorWrite("\(path):\(number + 1): expected RESULT<TAB>MOVES; line skipped\n")
            continue
        }
        var position = Position.start
        var moves: [Move] = []
        for text in fields[1].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
            guard let move = Move(iccs: String(text)), position.isLegal(move) else {
                errorWrite("\(path):\(number + 1): '\(text)' is not a legal ICCS move; game skipped\n")
                moves = []
                break
            }
            _ = position.make(move)
            moves.append(move)
        }
        if !moves.isEmpty { games.append((moves, result)) }
    }
    return games
}

/// All of standard input.
private func readStandardInput() -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Counts of a datagen run, updated as games are delivered (one at a time), with a progress
/// line on a terminal.
private final class DatagenTally: @unchecked Sendable {
    // Updated only inside DataGeneration.run's delivery, which is serialised; read after it.
    // The file is written there too, and closed by the command after the run.
    private let total: Int
    private let terminal: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastShown: ContinuousClock.Instant
    private let file: UnsafeMutablePointer<FILE>
    private(set) var writeFailed = false
    private var games = 0, skipped = 0, positions = 0, plies = 0
    private var results: [GameResult: Int] = [:]
    private var adjudicated = 0

    init(total: Int, terminal: Bool, file: UnsafeMutablePointer<FILE>) {
        self.file = file
        self.total = total
        self.terminal = terminal
        start = clock.now
        lastShown = start
    }

    /// Writes a game's records and counts it.
    func add(_ outcome: DataGeneration.Outcome?) {
        games += 1
        if let outcome {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(outcome.records.count * TrainingRecord.byteCount)
            for record in outcome.records { bytes += record.bytes }
            let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            if written != bytes.count { writeFailed = true }
            positions += outcome.records.count
            plies += outcome.plies
            results[outcome.result, default: 0] += 1
            if outcome.reason.hasPrefix("adjudicated") { adjudicated += 1 }
        } else {
            skipped += 1
        }
        if terminal && (clock.now - lastShown > .seconds(1) || games == total) {
            lastShown = clock.now
            let done = games * 30 / max(total, 1)
            let bar = String(repeating: "#", count: done) + String(repeating: ".", count: 30 - done)
            errorWrite("\r[\(bar)] games \(games)/\(total), positions \(positions), \(Int(rate())) positions/s ")
            if games == total { errorWrite("\n") }
        }
    }

    func seconds() -> Double {
        let d = clock.now - start
        return d.inSeconds
    }

    func rate() -> Double { Double(positions) / max(seconds(), 0.001) }

    func summary(settings: DataGeneration, source: String, range: Range<Int>, threads: Int, output: String) -> String {
        let budget = settings.depth.map { "depth \($0)" } ?? "\(settings.nodes) nodes"
        let evaluation = settings.network.map { "network \($0.hashText)" } ?? "handcrafted evaluation"
        return """
        datagen: games \(range.lowerBound)..<\(range.upperBound), \(source), \(budget), \(evaluation), \(threads) thread(s)
        positions \(positions) in \(output) (\(positions * TrainingRecord.byteCount) bytes), \
        \(games - skipped) games played (\(skipped) skipped), mean \(format1(Double(plies) / Double(max(games - skipped, 1)))) plies
        results: red wins \(results[.redWins, default: 0]), draws \(results[.draw, default: 0]), \
        black wins \(results[.blackWins, default: 0]) (\(adjudicated) adjudicated)
        time \(format1(seconds())) s: \(Int(rate())) positions/s, \(Int(rate() / Double(threads))) per thread
        """
    }
}
