import XiangqiCore

// The text of the two protocols for what an engine says (`info`, `bestmove`) and for moves,
// in one place: the protocol session writes it and the client library reads it back, so
// that the two cannot drift apart (a round trip is tested).

/// The two protocols.
public enum EngineDialect: String, Sendable {
    case ucci, uci
}

/// How an engine numbers ranks in move text: ICCS 0-9 (UCCI, Pikafish, ours) or 1-10
/// (Fairy-Stockfish in plain UCI once `UCI_Variant` is xiangqi, Sjaak II).
public enum RankNumbering: String, Sendable {
    case zeroBased = "iccs"
    case oneBased = "uci10"
}

/// Move text in either rank numbering.
public enum MoveText {
    /// Parses `h2e2` (0-9) or `h3e3` / `a10a9` (1-10), in either letter case, with or without
    /// a `-` between the squares; `nil` if the text is not two distinct squares on the board.
    public static func parse<S: StringProtocol>(_ text: S, _ numbering: RankNumbering) -> Move? {
        guard let (fromFile, fromRank, toFile, toRank) = coordinates(text) else { return nil }
        let shift = numbering == .oneBased ? 1 : 0
        guard let from = Square(file: fromFile, rank: fromRank - shift),
              let to = Square(file: toFile, rank: toRank - shift), from != to else { return nil }
        return Move(from: from, to: to)
    }

    /// Whether `text` has the shape of a coordinate move (a file letter and a one- or
    /// two-digit rank, twice) in some numbering, whatever its ranks: such text is read only
    /// as coordinates, never as WXF or Chinese notation.
    public static func isCoordinates<S: StringProtocol>(_ text: S) -> Bool { coordinates(text) != nil }

    /// The files (0-8) and the ranks as written of a coordinate move.
    private static func coordinates<S: StringProtocol>(_ text: S) -> (Int, Int, Int, Int)? {
        var bytes = Array(text.utf8)
        if let dash = bytes.firstIndex(of: UInt8(ascii: "-")), dash > 0 { bytes.remove(at: dash) }
        var index = 0
        func square() -> (file: Int, rank: Int)? {
            guard index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "i")).contains(bytes[index] | 0x20) else {
                return nil
            }
            let file = Int((bytes[index] | 0x20) - UInt8(ascii: "a"))
            index += 1
            var rank = 0, digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 2 {
                rank = rank * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits > 0 ? (file, rank) : nil
        }
        guard let from = square(), let to = square(), index == bytes.count else { return nil }
        return (from.file, from.rank, to.file, to.rank)
    }

    /// `move` as `h2e2` (0-9) or `h3e3` (1-10).
    public static func format(_ move: Move, _ numbering: RankNumbering) -> String {
        guard numbering == .oneBased else { return move.iccs }
        func name(_ s: Square) -> String {
            String(UnicodeScalar(UInt8(ascii: "a") + UInt8(s.file))) + "\(s.rank + 1)"
        }
        return name(move.from) + name(move.to)
    }
}

/// A list of moves that a GUI sends (`position ... moves`, `searchmoves`, `banmoves`) read in
/// one rank numbering for the whole list, never move by move: a GUI that writes ranks 1-10
/// writes them in every move, and a move that reads legally both ways (`h3e3` and `h2e2` may
/// both be legal) must not switch the numbering in the middle of a game.
///
/// Coordinate moves are read in the numbering that reads the whole list (or, when none does,
/// the longer part of it); WXF and Chinese notation read the same in both.
public struct MoveListReading: Sendable, Equatable {
    /// The moves read, in order: for a game up to the first that could not be read, for a
    /// set of root moves all those that could.
    public var moves: [Move]
    /// The indices of the tokens that could not be read (for a game, at most the first).
    public var unread: [Int]
    /// The numbering the list was read in; `nil` when it has no coordinate move.
    public var numbering: RankNumbering?
    /// Whether the list itself shows its numbering (only that one reads it, or reads more of
    /// it) rather than it being taken from earlier commands.
    public var numberingIsShown: Bool

    /// How a list was read, or why it could not be.
    public enum Outcome: Sendable, Equatable {
        case read(MoveListReading)
        /// Both numberings read the list equally far, to different moves, and no earlier
        /// command told which the GUI uses.
        case undecidable
    }

    /// Reads `tokens` as the moves of a game played from `start`, each on the position the
    /// previous one left; `known` is the numbering the session's earlier commands showed.
    public static func game(_ tokens: [String], from start: Position, known: RankNumbering?) -> Outcome {
        decide(read(tokens, .zeroBased, start, sequential: true), read(tokens, .oneBased, start, sequential: true),
               known: known)
    }

    /// Reads `tokens` as a set of moves in `position` (`searchmoves`, `banmoves`).
    public static func choices(_ tokens: [String], in position: Position, known: RankNumbering?) -> Outcome {
        decide(read(tokens, .zeroBased, position, sequential: false), read(tokens, .oneBased, position, sequential: false),
               known: known)
    }

    private static func read(_ tokens: [String], _ numbering: RankNumbering, _ start: Position,
                             sequential: Bool) -> MoveListReading {
        var position = start
        var reading = MoveListReading(moves: [], unread: [], numbering: nil, numberingIsShown: false)
        for (index, token) in tokens.enumerated() {
            let move: Move?
            if MoveText.isCoordinates(token) {
                reading.numbering = numbering
                move = MoveText.parse(token, numbering).flatMap { position.isLegal($0) ? $0 : nil }
            } else {
                move = position.parseMove(token)
            }
            guard let move else {
                reading.unread.append(index)
                if sequential { break } else { continue }
            }
            reading.moves.append(move)
            if sequential { _ = position.make(move) }
        }
        return reading
    }

    private static func decide(_ zeroBased: MoveListReading, _ oneBased: MoveListReading,
                               known: RankNumbering?) -> Outcome {
        if zeroBased.moves == oneBased.moves && zeroBased.unread == oneBased.unread {
            // No coordinate move, or none that either numbering can read: nothing to tell.
            var same = zeroBased
            same.numbering = nil
            return .read(same)
        }
        var chosen: MoveListReading
        if zeroBased.moves.count != oneBased.moves.count {
            chosen = zeroBased.moves.count > oneBased.moves.count ? zeroBased : oneBased
            chosen.numberingIsShown = true
        } else if let known {
            chosen = known == .zeroBased ? zeroBased : oneBased
        } else {
            return .undecidable
        }
        return .read(chosen)
    }
}
