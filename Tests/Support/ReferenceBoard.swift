import XiangqiCore

/// A slow, obviously-correct move generator written straight from the rules with loops over
/// directions on a plain array, sharing nothing with the engine's generator but `Position`'s
/// piece lookup. Tests compare the two. It also plays moves and writes the board as FEN on
/// its own, so that what the engine's parsers and move making reach can be checked against it.
public struct ReferenceBoard: Sendable {
    /// 90 squares, `rank * 9 + file`; nil when empty.
    public var squares: [(color: Color, kind: PieceKind)?]
    public var side: Color

    public init(_ p: Position) {
        squares = (0..<90).map { i in
            let piece = p.piece(at: Square(i)!)
            return piece.isNone ? nil : (piece.color, piece.kind)
        }
        side = p.sideToMove
    }

    public static func inPalace(_ f: Int, _ r: Int, _ c: Color) -> Bool {
        (3...5).contains(f) && (c == .red ? (0...2).contains(r) : (7...9).contains(r))
    }

    public static func onBoard(_ f: Int, _ r: Int) -> Bool { (0..<9).contains(f) && (0..<10).contains(r) }

    public func at(_ f: Int, _ r: Int) -> (color: Color, kind: PieceKind)? { squares[r * 9 + f] }

    /// Destinations of the piece on (f, r) by the movement rules, own pieces excluded.
    public func destinations(_ f: Int, _ r: Int) -> [(Int, Int)] {
        guard let piece = at(f, r) else { return [] }
        var result: [(Int, Int)] = []
        let c = piece.color
        func add(_ tf: Int, _ tr: Int) {
            guard ReferenceBoard.onBoard(tf, tr) else { return }
            if let other = at(tf, tr), other.color == c { return }
            result.append((tf, tr))
        }
        let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        switch piece.kind {
        case .king:
            for (df, dr) in orthogonal where ReferenceBoard.inPalace(f + df, r + dr, c) { add(f + df, r + dr) }
        case .advisor:
            for df in [-1, 1] { for dr in [-1, 1] where ReferenceBoard.inPalace(f + df, r + dr, c) { add(f + df, r + dr) } }
        case .elephant:
            for df in [-1, 1] {
                for dr in [-1, 1] {
                    let tf = f + 2 * df, tr = r + 2 * dr
                    guard ReferenceBoard.onBoard(tf, tr) else { continue }
                    let ownSide = c == .red ? tr <= 4 : tr >= 5
                    if ownSide && at(f + df, r + dr) == nil { add(tf, tr) }
                }
            }
        case .horse:
            for (df, dr) in orthogonal {
                guard ReferenceBoard.onBoard(f + df, r + dr), at(f + df, r + dr) == nil else { continue }
                if df == 0 {
                    add(f + 1, r + 2 * dr); add(f - 1, r + 2 * dr)
                } else {
                    add(f + 2 * df, r + 1); add(f + 2 * df, r - 1)
                }
            }
        case .chariot, .cannon:
            for (df, dr) in orthogonal {
                var tf = f + df, tr = r + dr
                var screened = false
                while ReferenceBoard.onBoard(tf, tr) {
                    if let other = at(tf, tr) {
                        if piece.kind == .chariot {
                            if other.color != c { result.append((tf, tr)) }
                            break
                        }
                        if screened {
                            if other.color != c { result.append((tf, tr)) }
                            break
                        }
                        screened = true
                    } else if !screened {
                        result.append((tf, tr))
                    }
                    tf += df; tr += dr
                }
            }
        case .soldier:
            let forward = c == .red ? 1 : -1
            add(f, r + forward)
            let crossed = c == .red ? r >= 5 : r <= 4
            if crossed { add(f + 1, r); add(f - 1, r) }
        }
        return result
    }

    /// Whether `color`'s king is attacked by any enemy piece or faces the enemy king.
    public func kingAttacked(_ color: Color) -> Bool {
        guard let k = squares.firstIndex(where: { $0?.color == color && $0?.kind == .king }) else { return true }
        let kf = k % 9, kr = k / 9
        for i in 0..<90 {
            guard let p = squares[i], p.color != color else { continue }
            if p.kind == .king {
                // Flying general: same file, nothing between.
                if i % 9 == kf {
                    let lo = min(i / 9, kr), hi = max(i / 9, kr)
                    if (lo + 1..<hi).allSatisfy({ at(kf, $0) == nil }) { return true }
                }
                continue
            }
            if destinations(i % 9, i / 9).contains(where: { $0 == (kf, kr) }) { return true }
        }
        return false
    }

    /// Legal moves as ICCS strings.
    public func legalMoves() -> Set<String> {
        var result = Set<String>()
        for i in 0..<90 {
            guard let p = squares[i], p.color == side else { continue }
            for (tf, tr) in destinations(i % 9, i / 9) {
                var next = self
                next.squares[tr * 9 + tf] = p
                next.squares[i] = nil
                if !next.kingAttacked(side) {
                    result.insert(Square(i)!.name + Square(file: tf, rank: tr)!.name)
                }
            }
        }
        return result
    }

    /// Plays `iccs` (one of ``legalMoves()``, ranks 0-9) without checking it.
    public mutating func play(_ iccs: String) {
        let bytes = Array(iccs.utf8)
        func index(_ at: Int) -> Int {
            Int(bytes[at + 1] - UInt8(ascii: "0")) * 9 + Int(bytes[at] - UInt8(ascii: "a"))
        }
        let from = index(0), to = index(2)
        squares[to] = squares[from]
        squares[from] = nil
        side = side == .red ? .black : .red
    }

    /// The first two FEN fields, board and side to move (`w`/`b`), rank 9 first; red in
    /// upper case, with the letters K A B N R C P.
    public var boardAndSide: String {
        var ranks: [String] = []
        for rank in stride(from: 9, through: 0, by: -1) {
            var text = "", empty = 0
            for file in 0..<9 {
                guard let piece = at(file, rank) else {
                    empty += 1
                    continue
                }
                if empty > 0 { text += String(empty) }
                empty = 0
                let letter: Character = switch piece.kind {
                case .king: "k"
                case .advisor: "a"
                case .elephant: "b"
                case .horse: "n"
                case .chariot: "r"
                case .cannon: "c"
                case .soldier: "p"
                }
                text.append(piece.color == .red ? Character(letter.uppercased()) : letter)
            }
            if empty > 0 { text += String(empty) }
            ranks.append(text)
        }
        return ranks.joined(separator: "/") + (side == .red ? " w" : " b")
    }
}
