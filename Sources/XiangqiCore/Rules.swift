/// How a game stands under the Asian rules as the project implements them (see
/// ``RuleJudge`` for the exact rules and their simplifications).
public enum GameStatus: Equatable, Sendable, CustomStringConvertible {
    case ongoing
    case win(Color, WinReason)
    case draw(DrawReason)

    /// How a game is won.
    public enum WinReason: String, Sendable {
        /// The loser is in check with no legal move.
        case checkmate
        /// The loser is not in check but has no legal move (a loss in Xiangqi).
        case stalemate
        /// The loser kept checking through a repetition.
        case perpetualCheck = "perpetual check"
        /// The loser kept chasing one piece through a repetition.
        case perpetualChase = "perpetual chase"
    }

    /// How a game is drawn.
    public enum DrawReason: String, Sendable {
        /// A position repeated with neither side (or both) forcing.
        case repetition
        /// The no-capture move limit was reached.
        case moveLimit = "move limit"
        /// Neither side has a piece that can ever give check.
        case insufficientMaterial = "insufficient material"
    }

    public var description: String {
        switch self {
        case .ongoing: "ongoing"
        case .win(let c, let r): "\(c) wins by \(r.rawValue)"
        case .draw(let r): "draw by \(r.rawValue)"
        }
    }
}

/// The verdict on a repetition cycle.
public enum RepetitionVerdict: Equatable, Sendable {
    /// Neither side (or both) forced the repetition.
    case draw
    /// `Color` forced it by perpetual check or chase and loses.
    case loss(Color, GameStatus.WinReason)
}

/// Rule adjudication, a pure function of the positions and moves of a game.
///
/// Implemented (Asian / AXF-style "computer rules", as summarised in the protocol reference):
/// - A repetition is decided by the moves inside the cycle, from the earlier occurrence of the
///   position to now. A side all of whose moves in the cycle give check, while the other's do
///   not, loses (perpetual check); both checking: draw.
/// - Otherwise a side all of whose moves chase one and the same enemy piece, while the other
///   side does not chase, loses (perpetual chase); both chasing: draw. Anything else: draw.
/// - A move chases a piece when, after it, a piece of the mover newly attacks it (the moved
///   piece, or one uncovered by the move), can legally take it, and either the target is worth more (chariot over horse or cannon over advisor or
///   elephant) or the target is not protected (no legal recapture). Not chases: attacks by
///   the king or a soldier, attacks on the king (checks) or on a soldier that has not crossed
///   the river, and attacks on a piece of the same kind that can take back.
/// - No-capture limit: after `moveLimit` moves by each side (2 * moveLimit plies) without a
///   capture the game is drawn; a side's checks beyond the tenth in a row are not counted.
/// - A side without a legal move loses; neither side having a chariot, horse, cannon or
///   soldier is a draw.
///
/// Simplifications: a check in a cycle is never also a chase; a chase of different pieces in
/// turn is not a perpetual chase; protection is judged by a direct legal recapture only.
public enum RuleJudge {
    /// The class used to compare values in chase rules: chariot 3, horse and cannon 2,
    /// advisor, elephant and soldier 1, king 4.
    static func valueClass(_ kind: PieceKind) -> Int {
        switch kind {
        case .king: 4
        case .chariot: 3
        case .horse, .cannon: 2
        case .advisor, .elephant, .soldier: 1
        }
    }

    /// Judges the cycle made of `moves`, where `positions[k]` is the position before
    /// `moves[k]` (and `positions.count == moves.count`); the cycle ends in the position after
    /// the last move, which repeats `positions[0]`.
    public static func judgeCycle(positions: [Position], moves: [Move]) -> RepetitionVerdict {
        guard !moves.isEmpty, positions.count == moves.count else { return .draw }
        // Piece identities: the square each piece stood on at the start of the cycle.
        var identity = [Int](repeating: -1, count: 90)
        for s in 0..<90 where !positions[0].piece(at: Square(unchecked: s)).isNone { identity[s] = s }
        var allChecks = [true, true], moved = [false, false]
        var chased: [Set<Int>?] = [nil, nil]
        for (k, move) in moves.enumerated() {
            let before = positions[k]
            var after = before
            _ = after.make(move)
            let side = before.sideToMove.index
            moved[side] = true
            if after.isInCheck {
                chased[side] = Set()
            } else {
                allChecks[side] = false
                let targets = chasedSquares(before: before, move: move, after: &after)
                let ids = Set(targets.map { identity[$0.index] })
                chased[side] = chased[side].map { $0.intersection(ids) } ?? ids
            }
            identity[move.to.index] = identity[move.from.index]
            identity[move.from.index] = -1
        }
        let checking = (0..<2).map { moved[$0] && allChecks[$0] }
        if checking[0] != checking[1] {
            return .loss(checking[0] ? .red : .black, .perpetualCheck)
        }
        if checking[0] { return .draw }
        let chasing = (0..<2).map { moved[$0] && !(chased[$0]?.isEmpty ?? true) }
        if chasing[0] != chasing[1] {
            return .loss(chasing[0] ? .red : .black, .perpetualChase)
        }
        return .draw
    }

    /// Enemy squares chased after `move` (see ``RuleJudge``): attacks that the move creates,
    /// by the moved piece or uncovered behind it; `after` is the position after the move (not
    /// in check).
    static func chasedSquares(before: Position, move: Move, after: inout Position) -> [Square] {
        let us = before.sideToMove, them = us.opponent
        // With the opponent passing, which captures could really be made?
        let pass = after.makeNull()
        defer { after.unmakeNull(pass) }
        var result: [Square] = []
        for square in after.pieces(of: us) {
            let piece = after.piece(at: square)
            let attacker = piece.kind
            if attacker == .king || attacker == .soldier { continue }
            let newTargets = after.pseudoTargets(of: piece, at: square) & after.pieces(of: them)
            let origin = square == move.to ? move.from : square
            let oldTargets = before.pseudoTargets(of: piece, at: origin)
            for target in newTargets where !oldTargets.contains(target) && !result.contains(target) {
                if chases(attacker: square, target: target, in: &after, pass: pass) { result.append(target) }
            }
        }
        return result
    }

    /// Whether the piece on `attacker` chases the enemy piece on `target` in `after`, which has
    /// had a null move made (the attacker's side to move; `pass` undoes it).
    static func chases(attacker: Square, target: Square, in after: inout Position, pass: Undo) -> Bool {
        let attackerKind = after.piece(at: attacker).kind
        let victim = after.piece(at: target)
        let them = victim.color
        if victim.kind == .king { return false }
        if victim.kind == .soldier {
            let crossed = them == .red ? target.rank >= 5 : target.rank <= 4
            if !crossed { return false }
        }
        let capture = Move(from: attacker, to: target)
        guard after.isLegal(capture) else { return false }
        if victim.kind == attackerKind {
            // An exchange offer, unless the target cannot take back.
            var theirTurn = after
            theirTurn.unmakeNull(pass)
            if theirTurn.isLegal(Move(from: target, to: attacker)) { return false }
        }
        if valueClass(victim.kind) > valueClass(attackerKind) { return true }
        // Protected: after the capture, can the target's side take back on that square?
        var taken = after
        _ = taken.make(capture)
        return !taken.legalMoves.contains { $0.to == target }
    }

    /// Whether neither side has a piece that can ever give check.
    public static func isInsufficientMaterial(_ p: Position) -> Bool {
        for color in Color.allCases {
            for kind in [PieceKind.chariot, .horse, .cannon, .soldier] where p.pieces(of: color, kind).isNotEmpty {
                return false
            }
        }
        return true
    }
}

extension Game {
    /// Positions before each move (the start position first).
    public var positionsBeforeMoves: [Position] {
        var result: [Position] = []
        result.reserveCapacity(moves.count)
        var p = startPosition
        for move in moves {
            result.append(p)
            _ = p.make(move)
        }
        return result
    }

    /// The status of the game: decided by checkmate or stalemate, by a repetition (the
    /// current position occurring for the `repetitionFold`-th time, judged over the cycle
    /// since its first counted occurrence), by the no-capture limit of `moveLimit` moves per
    /// side, or by insufficient material.
    public func status(moveLimit: Int = 60, repetitionFold: Int = 3) -> GameStatus {
        let p = position
        if !p.hasLegalMove {
            return .win(p.sideToMove.opponent, p.isInCheck ? .checkmate : .stalemate)
        }
        // Only the moves since the last capture matter (the clock counts them; before them,
        // the capture at `tailStart` ends the no-capture count): the positions of that tail.
        let n = moves.count
        let tailStart = n - min(p.halfmoveClock + 1, n)
        let tail = positionsBeforeMoves(from: tailStart)
        // Repetition (an earlier occurrence lies within the clock's reach, so in the tail).
        let occurrences = earlierOccurrences
        if occurrences.count >= max(1, repetitionFold - 1) {
            let first = occurrences[max(1, repetitionFold - 1) - 1]
            switch RuleJudge.judgeCycle(positions: Array(tail[(first - tailStart)...]), moves: Array(moves[first..<n])) {
            case .loss(let loser, let reason): return .win(loser.opponent, reason)
            case .draw: return .draw(.repetition)
            }
        }
        // No-capture limit, with checks beyond the tenth in a row not counted.
        var count = NoCaptureCount()
        var k = n - 1
        while k >= tailStart && count.plies < 2 * moveLimit {
            let before = tail[k - tailStart]
            if !before.piece(at: moves[k].to).isNone { break }
            let after = k + 1 < n ? tail[k + 1 - tailStart] : p
            count.countEarlierMove(by: before.sideToMove, givingCheck: after.isInCheck)
            k -= 1
        }
        // Plies before the start position (its half-move clock) count too.
        if k < 0 { count.countEarlierPlies(startPosition.halfmoveClock) }
        if count.plies >= 2 * moveLimit { return .draw(.moveLimit) }
        if RuleJudge.isInsufficientMaterial(p) { return .draw(.insufficientMaterial) }
        return .ongoing
    }
}

/// The plies that count toward the no-capture limit, counted back from the latest move:
/// every ply since the last capture except a side's checks beyond the tenth in a row.
/// ``Game/status(moveLimit:repetitionFold:)`` and the search both count with it.
public struct NoCaptureCount: Sendable {
    /// How many checks in a row by one side count.
    public static let countedChecksInARow = 10
    /// The plies counted so far.
    public private(set) var plies = 0
    private var redChecksInARow = 0
    private var blackChecksInARow = 0

    /// No ply counted yet.
    public init() {}

    /// Counts the move before those already counted, made by `mover` (no capture).
    public mutating func countEarlierMove(by mover: Color, givingCheck: Bool) {
        if mover == .red {
            redChecksInARow = givingCheck ? redChecksInARow + 1 : 0
            if redChecksInARow <= Self.countedChecksInARow { plies += 1 }
        } else {
            blackChecksInARow = givingCheck ? blackChecksInARow + 1 : 0
            if blackChecksInARow <= Self.countedChecksInARow { plies += 1 }
        }
    }

    /// Counts `count` plies before those already counted of which only the number is known
    /// (a start position's half-move clock): all of them.
    public mutating func countEarlierPlies(_ count: Int) {
        plies += max(0, count)
    }
}
