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
    /// Parses `h2e2` (0-9) or `h3e3` / `a10a9` (1-10), in either letter case; `nil` if the
    /// text is not two squares on the board.
    public static func parse<S: StringProtocol>(_ text: S, _ numbering: RankNumbering) -> Move? {
        let bytes = Array(text.utf8)
        var index = 0
        func square() -> Square? {
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
            guard digits > 0 else { return nil }
            return Square(file: file, rank: numbering == .oneBased ? rank - 1 : rank)
        }
        guard let from = square(), let to = square(), index == bytes.count, from != to else { return nil }
        return Move(from: from, to: to)
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
