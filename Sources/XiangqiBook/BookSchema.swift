import XiangqiCore

/// The book file format, versioned by `PRAGMA user_version`.
///
/// Version 1:
/// - `book_moves(position, move, games, red_wins, draws, black_wins, weight)`, primary key
///   `(position, move)` (a clustered index: one probe is one B-tree range scan). `position` is
///   the canonical Zobrist key as a signed 64-bit integer (the bit pattern of the `UInt64`):
///   the smaller of the position's key and its left-right mirror image's key, so that a
///   position and its mirror share entries. `move` is ICCS text in the canonical orientation.
///   `weight` is 2 x wins + draws from the mover's point of view.
/// - `metadata(key, value)`: schema_version, key_scheme, start_key, sources, build_date,
///   max_ply, min_games, positions, moves, games.
/// - `positions` view: one row per position with its move and game counts.
public enum BookSchema {
    /// The version this engine writes and reads.
    public static let version = 1

    /// Names the key scheme; a book built with other keys is refused.
    public static let keyScheme = "zobrist-splitmix64-v\(Zobrist.schemeVersion), canonical = min(key, mirrored key)"

    /// The start position's key in hexadecimal, stored and checked as a second guard.
    public static var startKey: String { hex(Position.start.key) }

    static func hex(_ key: UInt64) -> String {
        let digits = String(key, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The statements that take a file from each version to the next: entry `k` upgrades
    /// version `k` to `k + 1`. Version 0 is an empty file.
    static let migrations: [String] = [
        """
        CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE book_moves(
            position INTEGER NOT NULL,
            move TEXT NOT NULL,
            games INTEGER NOT NULL,
            red_wins INTEGER NOT NULL,
            draws INTEGER NOT NULL,
            black_wins INTEGER NOT NULL,
            weight INTEGER NOT NULL,
            PRIMARY KEY (position, move)
        ) WITHOUT ROWID;
        CREATE VIEW positions AS
            SELECT position, printf('0x%016X', position) AS key_hex, count(*) AS moves, sum(games) AS games
            FROM book_moves GROUP BY position;
        PRAGMA user_version = 1;
        """,
    ]

    /// Brings a writable database up to ``version``.
    static func migrate(_ database: SQLiteDatabase) throws(BookError) {
        var current = try database.userVersion()
        guard current <= version else {
            throw BookError("\(database.path): book schema version \(current) is newer than this engine reads (\(version))")
        }
        while current < version {
            try database.execute(migrations[current])
            current += 1
        }
    }
}
