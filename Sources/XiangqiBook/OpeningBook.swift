#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CEmbeddedData
import XiangqiCore

/// A book move with the record behind it, in the orientation of the probed position.
public struct BookMove: Sendable, Equatable {
    /// The move, legal in the probed position.
    public let move: Move
    /// Games of the book's sources that played it here.
    public let games: Int
    /// Their results.
    public let redWins: Int
    public let draws: Int
    public let blackWins: Int
    /// 2 x wins + draws for the side that played the move.
    public let weight: Int

    /// A move and its record, as stored.
    public init(move: Move, games: Int, redWins: Int, draws: Int, blackWins: Int, weight: Int) {
        self.move = move
        self.games = games
        self.redWins = redWins
        self.draws = draws
        self.blackWins = blackWins
        self.weight = weight
    }

    /// Wins plus half the draws, in percent of the games, for `mover`.
    public func scorePercent(for mover: Color) -> Double {
        guard games > 0 else { return 0 }
        let wins = mover == .red ? redWins : blackWins
        return 100 * (Double(wins) + Double(draws) / 2) / Double(games)
    }
}

/// Which book moves may be played, and how the choice among them is made.
public struct BookSelection: Sendable, Equatable {
    /// Moves played in fewer games are never chosen.
    public var minGames = 3
    /// Moves scoring below this percentage for their side are never chosen.
    public var minScorePercent = 30.0
    /// 0: always the move of highest weight; 100: a move drawn in proportion to its weight;
    /// in between, in proportion to weight^(100 / variety).
    public var variety = 100
    /// The book is not used from this ply of the game on (plies counted from the FEN's move
    /// number, so a GUI sending only a recent FEN still gets the right ply).
    public var maxPly = 40

    /// The defaults: at least 3 games, 30%, full variety, up to ply 40.
    public init() {}
}

/// Totals of a book, from its metadata and tables.
public struct BookStats: Sendable {
    /// Distinct positions (mirrored ones counted once).
    public var positions = 0
    /// Moves stored over all positions.
    public var moves = 0
    /// Games the book was built from.
    public var games = 0
    /// The metadata table: schema version, key scheme, sources, build date.
    public var metadata: [(key: String, value: String)] = []
}

/// A read-only opening book file. Opening checks the schema version and the key scheme; every
/// probe returns only moves legal in the probed position. Not thread-safe.
public final class OpeningBook {
    /// The file opened, or ``builtInName`` for the built-in book.
    public let path: String
    private let database: SQLiteDatabase
    private let probeStatement: SQLiteStatement

    /// Opens and validates the book at `path`.
    public convenience init(path: String) throws(BookError) {
        try self.init(database: SQLiteDatabase(path: path, readOnly: true))
    }

    /// Opens and validates a book held in memory: `bytes` are a whole book file (an app's
    /// bundled resource, read by the app), `name` names it in messages and in ``path``.
    public convenience init(bytes: [UInt8], name: String = "<book in memory>") throws(BookError) {
        try self.init(database: SQLiteDatabase(bytes: bytes, name: name))
    }

    /// The name that stands for the built-in book (`BookFile`'s default).
    public static let builtInName = "<built-in>"

    /// The bytes of the built-in book (`books/xiangqi-book.sqlite` of the source tree, part of
    /// the binary and of every app that links the libraries).
    public static var builtInBytes: UnsafeRawBufferPointer {
        var size = 0
        let start = xiangqi_builtin_book(&size)
        return UnsafeRawBufferPointer(start: start, count: size)
    }

    /// The built-in book, opened in place (no copy; each call gives a connection of its own).
    public static func builtIn() throws(BookError) -> OpeningBook {
        try OpeningBook(database: SQLiteDatabase(staticBytes: builtInBytes, name: builtInName))
    }

    /// Opens the book `name` names: ``builtInName`` for the built-in book, else a file path.
    public static func open(_ name: String) throws(BookError) -> OpeningBook {
        name == builtInName ? try builtIn() : try OpeningBook(path: name)
    }

    private init(database: SQLiteDatabase) throws(BookError) {
        let path = database.path
        self.path = path
        self.database = database
        let version: Int
        do { version = try database.userVersion() } catch { throw BookError("\(path) is not a readable SQLite file (\(error.description))") }
        guard version == BookSchema.version else {
            throw version == 0
                ? BookError("\(path) is not an opening book (no schema)")
                : BookError("\(path) has book schema version \(version); this engine reads version \(BookSchema.version)")
        }
        let metadata = try Self.readMetadata(database)
        guard metadata["key_scheme"] == BookSchema.keyScheme, metadata["start_key"] == BookSchema.startKey else {
            throw BookError("\(path) was built with another position key scheme (\(metadata["key_scheme"] ?? "none"))")
        }
        probeStatement = try database.prepare(
            "SELECT move, games, red_wins, draws, black_wins, weight FROM book_moves WHERE position = ?1")
    }

    private static func readMetadata(_ database: SQLiteDatabase) throws(BookError) -> [String: String] {
        let statement = try database.prepare("SELECT key, value FROM metadata")
        var result: [String: String] = [:]
        while try statement.step() { result[statement.text(0)] = statement.text(1) }
        return result
    }

    /// The canonical key of `position` and whether it is the mirrored one.
    static func canonicalKey(_ position: Position) -> (key: UInt64, mirrored: Bool) {
        let key = position.key, mirroredKey = position.mirroredFilesKey
        return mirroredKey < key ? (mirroredKey, true) : (key, false)
    }

    /// The book moves for `position`, legal ones only, highest weight first (then most games).
    public func moves(for position: Position) throws(BookError) -> [BookMove] {
        let (key, mirrored) = Self.canonicalKey(position)
        probeStatement.reset()
        probeStatement.bind(Int64(bitPattern: key), at: 1)
        var result: [BookMove] = []
        while try probeStatement.step() {
            guard var move = Move(iccs: probeStatement.text(0)) else { continue }
            if mirrored { move = move.mirroredFiles }
            guard position.isLegal(move) else { continue }
            result.append(BookMove(move: move, games: probeStatement.int(1), redWins: probeStatement.int(2),
                                   draws: probeStatement.int(3), blackWins: probeStatement.int(4),
                                   weight: probeStatement.int(5)))
        }
        probeStatement.reset()
        // A symmetric position may list a move under both orientations: merge them.
        var merged: [BookMove] = []
        for entry in result {
            if let i = merged.firstIndex(where: { $0.move == entry.move }) {
                let m = merged[i]
                merged[i] = BookMove(move: m.move, games: m.games + entry.games, redWins: m.redWins + entry.redWins,
                                     draws: m.draws + entry.draws, blackWins: m.blackWins + entry.blackWins,
                                     weight: m.weight + entry.weight)
            } else {
                merged.append(entry)
            }
        }
        return merged.sorted { ($0.weight, $0.games, $1.move.rawValue) > ($1.weight, $1.games, $0.move.rawValue) }
    }

    /// The moves of `position` that pass the filters of `selection` (empty past its ply limit).
    public func candidates(for position: Position, selection: BookSelection) throws(BookError) -> [BookMove] {
        let ply = (position.fullmoveNumber - 1) * 2 + (position.sideToMove == .black ? 1 : 0)
        guard ply < selection.maxPly else { return [] }
        let mover = position.sideToMove
        return try moves(for: position).filter {
            $0.games >= selection.minGames && $0.weight > 0 && $0.scorePercent(for: mover) >= selection.minScorePercent
        }
    }

    /// A move chosen among ``candidates(for:selection:)`` as ``BookSelection/variety`` says,
    /// restricted to `allowed` when that is not empty; `nil` when none qualifies.
    public func choose<R: RandomNumberGenerator>(for position: Position, selection: BookSelection,
                                                 allowed: [Move] = [], using random: inout R) throws(BookError) -> BookMove? {
        var pool = try candidates(for: position, selection: selection)
        if !allowed.isEmpty { pool = pool.filter { allowed.contains($0.move) } }
        guard let best = pool.first else { return nil }
        if selection.variety <= 0 || pool.count == 1 { return best }
        let exponent = 100 / Double(min(100, selection.variety))
        let weights = pool.map { pow(Double($0.weight) / Double(best.weight), exponent) }
        var draw = Double.random(in: 0..<weights.reduce(0, +), using: &random)
        for (entry, weight) in zip(pool, weights) {
            if draw < weight { return entry }
            draw -= weight
        }
        return pool.last
    }

    /// Positions, moves and games in the book, and its metadata.
    public func stats() throws(BookError) -> BookStats {
        var stats = BookStats()
        let totals = try database.prepare("SELECT count(DISTINCT position), count(*) FROM book_moves")
        if try totals.step() {
            stats.positions = totals.int(0)
            stats.moves = totals.int(1)
        }
        let metadata = try Self.readMetadata(database)
        stats.games = Int(metadata["games"] ?? "") ?? 0
        stats.metadata = metadata.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        return stats
    }
}
