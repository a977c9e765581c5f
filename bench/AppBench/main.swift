// Measures for app developers (bench/app.md), through the public API as an app uses it:
//   app-bench memory [COMPANION_HASH_MB]   the process's resident memory (Linux
//       /proc/self/status: RssAnon, what the process itself wrote; RssFile, the binary's
//       pages, shared with the page cache) after each step of a practice mode: one engine
//       playing, a companion engine for hints, the evaluation bar or a review beside it.
//   app-bench cancel [COUNT]   how long a cancelled hint, analysis and review take to stop:
//       COUNT times each (default 100), cancelled 20-200 ms into an endless search; the
//       time from the cancel to the engine being idle again, in milliseconds.
//   app-bench review [GAMES_FILE]   the time to review each game of the file (default: a
//       100-ply game of the engine against itself) at the default limits, on one core.
// Build: swift build -c release --product app-bench. bench/scripts/app-bench.sh runs them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

let middlegame = try! Position(fen: "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1")

/// (RssAnon, RssFile) in KiB; zeros where /proc is missing.
func residentMemory() -> (anonymous: Int, file: Int) {
    guard let file = fopen("/proc/self/status", "r") else { return (0, 0) }
    defer { fclose(file) }
    var anonymous = 0, mapped = 0
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let value = Int(text.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "") ?? 0
        if text.hasPrefix("RssAnon:") { anonymous = value }
        if text.hasPrefix("RssFile:") { mapped = value }
    }
    return (anonymous, mapped)
}

func memory(companionHash: Int) async {
    var last = residentMemory()
    func report(_ step: String) {
        let now = residentMemory()
        print("\(step)\tRssAnon \(now.anonymous) KiB (+\(now.anonymous - last.anonymous))"
              + "\tRssFile \(now.file) KiB (+\(now.file - last.file))")
        last = now
    }
    report("start")
    let engine = Engine()
    engine.setNetwork(NetworkFile.builtIn)
    let book = BookPlayer(paths: [OpeningBook.builtInName])
    for warning in book.open() { print(warning) }
    report("engine (16 MB table), network, book")
    _ = engine.search(SearchLimits(nodes: 2_000_000), game: Game(middlegame))
    report("engine searched 2M nodes")
    let companion = engine.companion(hashMegabytes: companionHash)
    report("companion (\(companionHash) MB table)")
    _ = await companion.hint(for: Game(middlegame), limits: SearchLimits(nodes: 2_000_000))
    report("companion searched 2M nodes")
    // Both at once, as an evaluation bar while the engine thinks.
    async let bar = companion.evaluation(of: Game(middlegame), limits: SearchLimits(nodes: 1_000_000))
    _ = await engine.decide(MoveRequest(game: Game(middlegame), limits: SearchLimits(nodes: 1_000_000)))
    _ = await bar
    report("both searched at once")
    let game = selfPlayGame(plies: 20, engine: companion)
    _ = await companion.review(game, limits: Engine.defaultReviewLimits)
    report("companion played and reviewed a 20-ply game")
    _ = await companion.review(game, limits: Engine.defaultReviewLimits)
    report("companion reviewed it again")
    let independent = Engine(hashMegabytes: companionHash)
    independent.setNetwork(NetworkFile.builtIn)
    _ = independent.search(SearchLimits(nodes: 2_000_000), game: Game(middlegame))
    report("an independent engine (\(companionHash) MB) searched 2M nodes")
}

/// A game of `engine` (default: a new one with a 16 MB table) against itself at 20,000 nodes a
/// move from the middlegame position (the same every run).
func selfPlayGame(plies: Int, engine given: Engine? = nil) -> Game {
    let engine = given ?? Engine(hashMegabytes: 16)
    if given == nil { engine.setNetwork(NetworkFile.builtIn) }
    engine.newGame()
    var game = Game(middlegame)
    while game.moves.count < plies, game.status() == .ongoing,
          let move = engine.search(SearchLimits(nodes: 20_000), game: game).bestMove {
        try! game.play(move)
    }
    return game
}

func milliseconds(since start: MonotonicInstant) -> Double { MonotonicInstant.now.seconds(since: start) * 1000 }

func summary(_ name: String, _ latencies: [Double]) {
    let sorted = latencies.sorted()
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let text = { (x: Double) in "\(Double(Int(x * 100)) / 100)" }
    print("\(name): \(sorted.count) cancels, median \(text(median)) ms, p90 \(text(sorted[sorted.count * 9 / 10])) ms, "
          + "worst \(text(sorted.last!)) ms")
}

func cancellation(count: Int) async {
    let engine = Engine()
    engine.setNetwork(NetworkFile.builtIn)
    var random = SeededGenerator(seed: 2026)
    let positions = benchPositions.compactMap { try? Position(fen: $0) }
    func pause() async { usleep(UInt32(20_000 + Int(random.next() % 180_000))) }

    var hints: [Double] = []
    for i in 0..<count {
        let game = Game(positions[i % positions.count])
        let task = Task { await engine.hint(for: game, limits: SearchLimits(infinite: true)) }
        while !engine.isSearching { await Task.yield() }
        await pause()
        let start = MonotonicInstant.now
        task.cancel()
        _ = await task.value
        engine.waitUntilIdle()
        hints.append(milliseconds(since: start))
    }
    summary("hint", hints)

    var analyses: [Double] = []
    for i in 0..<count {
        let game = Game(positions[i % positions.count])
        let end = MonotonicInstant.now
        let wait = 20 + Int(random.next() % 180)
        var start = MonotonicInstant.now
        for await _ in engine.analysis(of: game) where end.millisecondsElapsed >= wait {
            start = .now
            break
        }
        engine.waitUntilIdle()
        analyses.append(milliseconds(since: start))
    }
    summary("analysis (consumer stops iterating)", analyses)

    var reviews: [Double] = []
    let game = selfPlayGame(plies: 40)
    for _ in 0..<count {
        let task = Task { await engine.review(game, limits: SearchLimits(infinite: true)) }
        while !engine.isSearching { await Task.yield() }
        await pause()
        let start = MonotonicInstant.now
        task.cancel()
        _ = await task.value
        engine.waitUntilIdle()
        reviews.append(milliseconds(since: start))
    }
    summary("review", reviews)
}

func reviewTimes(file: String?) async {
    var games: [Game] = []
    if let file {
        guard let handle = fopen(file, "r") else {
            print("cannot read \(file)")
            exit(1)
        }
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            text += buffer[0..<n]
            if n < buffer.count { break }
        }
        fclose(handle)
        for read in GameFileReader.games(in: String(decoding: text, as: UTF8.self)) {
            if case .success(let recorded) = read { games.append(recorded.game) }
        }
    } else {
        games = [selfPlayGame(plies: 100)]
    }
    let engine = Engine()
    engine.setNetwork(NetworkFile.builtIn)
    for (i, game) in games.enumerated() {
        let start = MonotonicInstant.now
        let review = await engine.review(game)
        let seconds = milliseconds(since: start) / 1000
        let red = review.accuracy(of: .red) ?? 0, black = review.accuracy(of: .black) ?? 0
        print("game \(i + 1): \(game.moves.count) plies reviewed in \(Double(Int(seconds * 100)) / 100) s "
              + "(\(Int(Double(game.moves.count) / seconds)) moves/s); accuracy Red \(Int(red)), Black \(Int(black))")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "memory":
    await memory(companionHash: arguments.dropFirst().first.flatMap { Int($0) } ?? 4)
case "cancel":
    await cancellation(count: arguments.dropFirst().first.flatMap { Int($0) } ?? 100)
case "review":
    await reviewTimes(file: arguments.dropFirst().first)
default:
    print("usage: app-bench memory [COMPANION_HASH_MB] | cancel [COUNT] | review [GAMES_FILE]")
    exit(64)
}
