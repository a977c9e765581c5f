/// Why a FEN string was rejected. Each case names the first problem found. Only what no
/// rule can play from is refused: composed problems place advisors, elephants and soldiers
/// where no game could bring them, and each such piece moves by the rules of where it stands.
public enum FENError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case wrongRankCount(Int)
    case wrongRankLength(rank: Int, length: Int)
    case unknownPieceLetter(Character)
    case invalidSideToMove(String)
    case invalidCounter(String)
    case missingKing(Color)
    case tooManyPieces(Color, PieceKind, count: Int)
    case kingOutsidePalace(Square)
    case sideNotToMoveInCheck

    public var description: String {
        switch self {
        case .empty: "empty FEN"
        case .wrongRankCount(let n): "expected 10 ranks separated by '/', found \(n)"
        case .wrongRankLength(let rank, let length):
            "rank \(rank) describes \(length) files instead of 9"
        case .unknownPieceLetter(let c): "unknown piece letter '\(c)'"
        case .invalidSideToMove(let s): "side to move must be w, r or b, not '\(s)'"
        case .invalidCounter(let s): "move counter '\(s)' is not a number from 0 to \(Position.counterLimit)"
        case .missingKing(let c): "\(c) has no king"
        case .tooManyPieces(let c, let k, let n):
            "\(c) has \(n) \(k)s, at most \(k.maximumCount) allowed"
        case .kingOutsidePalace(let s): "king on \(s) is outside its palace"
        case .sideNotToMoveInCheck: "the side not to move is in check (or the kings face each other)"
        }
    }
}

extension Position {
    /// The largest move counter a FEN may give.
    public static let counterLimit = 1_000_000

    /// Reads a Xiangqi FEN. Fields after the board are optional; the side may be `w`/`r`
    /// (red) or `b` (black); `E`/`H` are read as `B`/`N`. The position must be playable:
    /// one king a side in its palace, no more pieces of a kind than a set holds, the side
    /// not to move not in check (see ``FENError``). Other pieces may stand anywhere.
    public init(fen: String) throws(FENError) {
        self.init()
        let fields = fen.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let placement = fields.first else { throw .empty }
        let ranks = placement.split(separator: "/", omittingEmptySubsequences: false)
        guard ranks.count == 10 else { throw .wrongRankCount(ranks.count) }
        for (row, text) in ranks.enumerated() {
            let rank = 9 - row
            var file = 0
            for c in text {
                if let digit = c.wholeNumberValue, c.isASCII {
                    guard digit >= 1 else { throw .unknownPieceLetter(c) }
                    file += digit
                } else {
                    guard let piece = Piece(fenLetter: c) else { throw .unknownPieceLetter(c) }
                    if file < 9 { put(piece, at: Square(unchecked: rank * 9 + file)) }
                    file += 1
                }
            }
            guard file == 9 else { throw .wrongRankLength(rank: rank, length: file) }
        }
        if fields.count > 1 {
            switch fields[1].lowercased() {
            case "w", "r": sideToMove = .red
            case "b": sideToMove = .black
            default: throw .invalidSideToMove(String(fields[1]))
            }
        }
        // Fields 3 and 4 are the chess castling/en-passant slots ("-"); UCCI GUIs sometimes
        // merge them ("--"), so the counters are taken as the last two numeric fields.
        let counters = fields.dropFirst(2).filter { $0 != "-" && $0 != "--" }
        if let clock = counters.first {
            // Bounded so that counting on from it can never overflow (the move limit is 120).
            guard let n = Int(clock), (0...Self.counterLimit).contains(n) else { throw .invalidCounter(String(clock)) }
            halfmoveClock = n
        }
        if counters.count > 1 {
            guard let n = Int(counters[counters.startIndex + 1]), (0...Self.counterLimit).contains(n) else {
                throw .invalidCounter(String(counters[counters.startIndex + 1]))
            }
            fullmoveNumber = max(1, n)
        }
        if sideToMove == .black { key ^= Zobrist.sideKey }
        try validatePieces()
        updateCheckInfo()
        let them = sideToMove.opponent
        if attackers(to: kings[them.index], by: sideToMove).isNotEmpty { throw .sideNotToMoveInCheck }
    }

    /// Checks what every rule needs: piece counts, one king a side, each in its palace.
    private func validatePieces() throws(FENError) {
        for color in Color.allCases {
            for kind in PieceKind.allCases {
                let n = pieces(of: color, kind).count
                if n > kind.maximumCount { throw .tooManyPieces(color, kind, count: n) }
            }
            if pieces(of: color, .king).isEmpty { throw .missingKing(color) }
            for s in pieces(of: color, .king) where !Bitboard.palace(color).contains(s) {
                throw .kingOutsidePalace(s)
            }
        }
    }

    /// The FEN of this position, with `w`/`b` and the standard letters.
    public var fen: String {
        var text = ""
        for rank in stride(from: 9, through: 0, by: -1) {
            var empty = 0
            for file in 0..<9 {
                let p = board[rank * 9 + file]
                if p.isNone {
                    empty += 1
                } else {
                    if empty > 0 { text += String(empty) }
                    empty = 0
                    text.append(p.fenLetter)
                }
            }
            if empty > 0 { text += String(empty) }
            if rank > 0 { text += "/" }
        }
        text += sideToMove == .red ? " w" : " b"
        text += " - - \(halfmoveClock) \(fullmoveNumber)"
        return text
    }

    /// The position reflected left-right (same side to move, same counters).
    public var mirroredFiles: Position {
        var p = Position()
        for s in 0..<90 where !board[s].isNone {
            p.put(board[s], at: Square(unchecked: s).mirroredFiles)
        }
        p.sideToMove = sideToMove
        if sideToMove == .black { p.key ^= Zobrist.sideKey }
        p.halfmoveClock = halfmoveClock
        p.fullmoveNumber = fullmoveNumber
        p.updateCheckInfo()
        return p
    }

    /// The key of ``mirroredFiles``, computed without building that position (books store
    /// a position and its mirror image under one key).
    public var mirroredFilesKey: UInt64 {
        var key = sideToMove == .black ? Zobrist.sideKey : 0
        for s in 0..<90 where !board[s].isNone {
            key ^= Zobrist.key(board[s], Square(unchecked: s).mirroredFiles)
        }
        return key
    }

    /// The position with colours swapped and the board turned (red's pieces become black's
    /// on the mirrored ranks), the other side to move: the same game seen from the other side.
    public var colorFlipped: Position {
        var p = Position()
        for s in 0..<90 where !board[s].isNone {
            let piece = board[s]
            p.put(Piece(piece.color.opponent, piece.kind), at: Square(unchecked: s).mirroredRanks)
        }
        p.sideToMove = sideToMove.opponent
        if p.sideToMove == .black { p.key ^= Zobrist.sideKey }
        p.halfmoveClock = halfmoveClock
        p.fullmoveNumber = fullmoveNumber
        p.updateCheckInfo()
        return p
    }

    /// Checks that every derived field agrees with the board; returns a description of the
    /// first disagreement, or `nil` when consistent.
    public func consistencyError() -> String? {
        var copy = self
        var pieceSetsFound = [Bitboard](repeating: .empty, count: 14)
        var files = [UInt16](repeating: 0, count: 9)
        for s in 0..<90 where !board[s].isNone {
            pieceSetsFound[board[s].index].insert(Square(unchecked: s))
            files[s % 9] |= 1 << UInt16(s / 9)
        }
        for i in 0..<14 where pieceSetsFound[i] != pieceSets[i] { return "piece set \(i) disagrees with board" }
        for f in 0..<9 where files[f] != fileOccupancy[f] || UInt32(files[f]) != occupied.fileBits(f) {
            return "file occupancy \(f) disagrees"
        }
        var red = Bitboard.empty, black = Bitboard.empty
        for i in 0..<7 { red |= pieceSets[i]; black |= pieceSets[7 + i] }
        if red != colorSets[0] || black != colorSets[1] { return "colour sets disagree" }
        if !board[90].isNone { return "sentinel square occupied" }
        for c in Color.allCases where pieces(of: c, .king).first != kings[c.index] { return "\(c) king square" }
        if computeKey() != key { return "key disagrees with a fresh computation" }
        copy.updateCheckInfo()
        if copy.checkers != checkers || copy.blockers != blockers || copy.screens != screens {
            return "check information is stale"
        }
        if checkers != attackers(to: kings[sideToMove.index], by: sideToMove.opponent) {
            return "checkers disagree with attackers"
        }
        return nil
    }
}
