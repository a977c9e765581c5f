import XiangqiCore

/// A slow, obviously-correct move generator written straight from the rules with loops over
/// directions on a plain array, sharing nothing with the engine's generator but `Position`'s
/// piece lookup. Tests compare the two.
struct ReferenceBoard {
    /// 90 squares, `rank * 9 + file`; nil when empty.
    var squares: [(color: Color, kind: PieceKind)?]
    var side: Color

    init(_ p: Position) {
        squares = (0..<90).map { i in
            let piece = p.piece(at: Square(i)!)
            return piece.isNone ? nil : (piece.color, piece.kind)
        }
        side = p.sideToMove
    }

    static func inPalace(_ f: Int, _ r: Int, _ c: Color) -> Bool {
        (3...5).contains(f) && (c == .red ? (0...2).contains(r) : (7...9).contains(r))
    }

    static func onBoard(_ f: Int, _ r: Int) -> Bool { (0..<9).contains(f) && (0..<10).contains(r) }

    func at(_ f: Int, _ r: Int) -> (color: Color, kind: PieceKind)? { squares[r * 9 + f] }

    /// Destinations of the piece on (f, r) by the movement rules, own pieces excluded.
    func destinations(_ f: Int, _ r: Int) -> [(Int, Int)] {
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
    func kingAttacked(_ color: Color) -> Bool {
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
    func legalMoves() -> Set<String> {
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
}
