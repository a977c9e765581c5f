#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

/// Builds an opening book from game files: one game per line (`RESULT<TAB>moves`) or PGN
/// (tags, optional `[FEN]`, moves in ICCS, WXF or Chinese notation). Every move is validated;
/// a bad game is reported with its file and line and skipped.
public struct BookBuilder {
    /// Positions from this ply of a game on are not recorded.
    public var maxPly = 40
    /// Moves played in fewer games are left out.
    public var minGames = 2
    /// Called for each problem with `file:line: message`.
    public var report: (String) -> Void = { _ in }
    /// Called after each game read with the total so far (for progress displays).
    public var progress: (Int) -> Void = { _ in }
    /// Recorded as the book's sources instead of the game files' names.
    public var sourceDescription: String?
    /// Polled during the build; returning `false` abandons it (the output stays as it was).
    public var shouldContinue: () -> Bool = { true }

    /// An empty builder: add games, then write.
    public init() {}

    /// Counts for one (canonical position, canonical move).
    struct Tally {
        var games = 0, redWins = 0, draws = 0, blackWins = 0
        /// The side that played the move (the key fixes the side to move).
        var redMoved = true

        /// 2 x wins + draws for the side that played the move.
        var weight: Int { 2 * (redMoved ? redWins : blackWins) + draws }
    }

    struct EntryKey: Hashable {
        let position: UInt64
        let move: UInt16
    }

    /// What a build read and wrote.
    public struct Summary: Sendable, Equatable {
        /// Games read from the sources, and those skipped (unreadable or illegal).
        public var gamesRead = 0
        public var gamesSkipped = 0
        /// Positions and moves written.
        public var positions = 0
        public var moves = 0
    }

    private var tallies: [EntryKey: Tally] = [:]
    private var summary = Summary()
    private var sources: [String] = []

    /// Reads the games of `path` (`-` for standard input).
    public mutating func addGames(fromFile path: String) throws(BookError) {
        let file: UnsafeMutablePointer<FILE>?
        if path == "-" { file = fdopen(0, "r") } else { file = fopen(path, "r") }
        guard let file else { throw BookError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { if path != "-" { fclose(file) } }
        let name = path == "-" ? "<stdin>" : path
        sources.append(name.split(separator: "/").last.map(String.init) ?? name)
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var reader = GameFileReader()
        while getline(&buffer, &capacity, file) >= 0, let buffer {
            var line = String(cString: buffer)
            while line.last == "\n" || line.last == "\r" { line.removeLast() }
            if let game = reader.read(line: line) { add(game, file: name) }
            if !shouldContinue() { throw BookError("build interrupted") }
        }
        if let game = reader.finish() { add(game, file: name) }
        if ferror(file) != 0 { throw BookError("error reading \(name)") }
    }

    /// Counts a game that `GameFileReader` read, or reports why it is skipped.
    mutating func add(_ read: Result<RecordedGame, GameFileError>, file: String) {
        switch read {
        case .failure(let error):
            skip(file, error.line, error.message)
        case .success(let recorded):
            guard let result = recorded.result else {
                skip(file, recorded.line, "no decisive or drawn [Result] tag")
                return
            }
            guard !recorded.game.moves.isEmpty else {
                skip(file, recorded.line, "no moves")
                return
            }
            addGame(recorded.game, result: result)
        }
    }

    private mutating func skip(_ file: String, _ line: Int, _ message: String) {
        summary.gamesSkipped += 1
        report("\(file):\(line): \(message); game skipped")
    }

    /// Counts the moves of `game` played below ``maxPly``.
    mutating func addGame(_ game: Game, result: GameResult) {
        var entries: [(key: EntryKey, redMoved: Bool)] = []
        let start = game.startPosition
        let firstPly = (start.fullmoveNumber - 1) * 2 + (start.sideToMove == .black ? 1 : 0)
        var before = start
        for (index, move) in game.moves.enumerated() {
            guard firstPly + index < maxPly else { break }
            let key = before.key, mirroredKey = before.mirroredFilesKey
            let canonical = mirroredKey < key ? move.mirroredFiles : move
            entries.append((EntryKey(position: min(key, mirroredKey), move: canonical.rawValue), before.sideToMove == .red))
            _ = before.make(move)
        }
        summary.gamesRead += 1
        progress(summary.gamesRead)
        // A position-move pair counts once per game even if a repetition plays it again.
        var seen = Set<EntryKey>()
        for (entry, redMoved) in entries where seen.insert(entry).inserted {
            var tally = tallies[entry, default: Tally(redMoved: redMoved)]
            tally.games += 1
            switch result {
            case .redWins: tally.redWins += 1
            case .draw: tally.draws += 1
            case .blackWins: tally.blackWins += 1
            }
            tallies[entry] = tally
        }
    }

    /// Writes the book to `output` in one transaction on a temporary file renamed over
    /// `output` at the end: a failed or interrupted build leaves `output` as it was.
    public func write(to output: String, buildDate: String) throws(BookError) -> Summary {
        let temporary = output + ".tmp-\(getpid())"
        unlink(temporary)
        var summary = summary
        do throws(BookError) {
            let database = try SQLiteDatabase(path: temporary, readOnly: false)
            try database.execute("BEGIN")
            try BookSchema.migrate(database)
            let insert = try database.prepare(
                "INSERT INTO book_moves(position, move, games, red_wins, draws, black_wins, weight) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
            var positions = Set<UInt64>()
            for (entry, tally) in tallies.sorted(by: { ($0.key.position, $0.key.move) < ($1.key.position, $1.key.move) })
            where tally.games >= minGames {
                if !shouldContinue() { throw BookError("build interrupted") }
                let move = Move(rawValue: entry.move)
                insert.reset()
                insert.bind(Int64(bitPattern: entry.position), at: 1)
                insert.bind(move.iccs, at: 2)
                insert.bind(tally.games, at: 3)
                insert.bind(tally.redWins, at: 4)
                insert.bind(tally.draws, at: 5)
                insert.bind(tally.blackWins, at: 6)
                insert.bind(tally.weight, at: 7)
                _ = try insert.step()
                positions.insert(entry.position)
                summary.moves += 1
            }
            summary.positions = positions.count
            let metadata: [(String, String)] = [
                ("schema_version", "\(BookSchema.version)"),
                ("key_scheme", BookSchema.keyScheme),
                ("start_key", BookSchema.startKey),
                ("sources", sourceDescription ?? sources.joined(separator: ", ")),
                ("build_date", buildDate),
                ("max_ply", "\(maxPly)"),
                ("min_games", "\(minGames)"),
                ("games", "\(summary.gamesRead)"),
                ("positions", "\(summary.positions)"),
                ("moves", "\(summary.moves)"),
            ]
            let meta = try database.prepare("INSERT INTO metadata(key, value) VALUES (?1, ?2)")
            for (key, value) in metadata {
                meta.reset()
                meta.bind(key, at: 1)
                meta.bind(value, at: 2)
                _ = try meta.step()
            }
            try database.execute("COMMIT")
        } catch {
            unlink(temporary)
            unlink(temporary + "-journal")
            throw error
        }
        guard rename(temporary, output) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw BookError("cannot write \(output): \(message)")
        }
        return summary
    }
}
