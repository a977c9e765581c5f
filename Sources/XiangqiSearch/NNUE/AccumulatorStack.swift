import XiangqiCore

/// Both sides' accumulators for each ply of a search line, computed lazily: a move only
/// records what it changed (``record(ply:move:moved:captured:)``), and an evaluation brings
/// its ply up to date from the nearest computed ply below it by adding and removing the rows
/// of the pieces that moved. Moves that are pruned right after being made cost nothing. A side
/// whose king moved to another mirror or bucket since that ply is recomputed from the position.
/// One stack per search thread; nothing is allocated after init.
///
/// A side whose king changed orientation is not summed from scratch: the stack keeps, per
/// side and orientation, the accumulator of the last position refreshed in it and that
/// position's pieces, and brings it to the current pieces by adding and removing the rows of
/// those that differ (a refresh cache; Stockfish's "Finny tables"). The sums are the same
/// as from scratch: 16-bit wrapping additions, in any order.
public final class AccumulatorStack: @unchecked Sendable {
    // Used by one search thread at a time (each thread owns its stack).
    /// The network whose accumulators the stack holds.
    public let network: Network
    /// Plies the stack can hold.
    public let plies: Int
    private let storage: UnsafeMutablePointer<Int16>
    /// Per ply: whether the accumulators match the current line, and the move that led to it.
    private let computed: UnsafeMutablePointer<Bool>
    private let moves: UnsafeMutablePointer<Move>
    private let movedPieces: UnsafeMutablePointer<Piece>
    private let capturedPieces: UnsafeMutablePointer<Piece>
    /// Per computed ply and side: the orientation its accumulator was computed in (mirror
    /// flag × 8 + bucket).
    private let orientations: UnsafeMutablePointer<UInt8>
    /// The refresh cache, per side and orientation code (``orientationCodes`` of them each):
    /// an accumulator and the pieces it sums (``pieceKinds`` bitboards, by ``Piece/index``).
    /// Each starts as the empty board's: the bias, no pieces.
    private let cachedAccumulators: UnsafeMutablePointer<Int16>
    private let cachedPieces: UnsafeMutablePointer<Bitboard>
    private static let orientationCodes = 16
    private static let pieceKinds = 14

    /// A stack for lines of up to `plies` plies below the root.
    public init(network: Network, plies: Int) {
        self.network = network
        self.plies = plies
        let slots = plies + 1
        storage = .allocate(capacity: slots * 2 * network.hidden)
        storage.initialize(repeating: 0, count: slots * 2 * network.hidden)
        computed = .allocate(capacity: slots)
        computed.initialize(repeating: false, count: slots)
        moves = .allocate(capacity: slots)
        moves.initialize(repeating: .none, count: slots)
        movedPieces = .allocate(capacity: slots)
        movedPieces.initialize(repeating: .none, count: slots)
        capturedPieces = .allocate(capacity: slots)
        capturedPieces.initialize(repeating: .none, count: slots)
        orientations = .allocate(capacity: slots * 2)
        orientations.initialize(repeating: 0, count: slots * 2)
        let entries = 2 * Self.orientationCodes
        cachedAccumulators = .allocate(capacity: entries * network.hidden)
        for entry in 0..<entries {
            (cachedAccumulators + entry * network.hidden).initialize(from: network.featureBias, count: network.hidden)
        }
        cachedPieces = .allocate(capacity: entries * Self.pieceKinds)
        cachedPieces.initialize(repeating: Bitboard(lo: 0, hi: 0), count: entries * Self.pieceKinds)
    }

    deinit {
        storage.deallocate()
        computed.deallocate()
        moves.deallocate()
        movedPieces.deallocate()
        capturedPieces.deallocate()
        orientations.deallocate()
        cachedAccumulators.deallocate()
        cachedPieces.deallocate()
    }

    @inline(__always)
    func slot(_ ply: Int, _ perspective: Color) -> UnsafeMutablePointer<Int16> {
        storage + (ply * 2 + perspective.index) * network.hidden
    }

    @inline(__always)
    private func code(_ o: (mirrored: Bool, bucket: Int)) -> UInt8 { UInt8((o.mirrored ? 8 : 0) + o.bucket) }

    /// Computes ply `ply`'s accumulators for `position` without a line to update them along
    /// (the root of a search).
    public func refresh(_ position: Position, ply: Int) {
        for side in 0..<2 {
            let perspective: Color = side == 0 ? .red : .black
            let o = network.orientation(of: perspective, kingSquare: position.kingSquare(of: perspective))
            refresh(slot(ply, perspective), position, for: perspective, o)
            orientations[ply * 2 + side] = code(o)
        }
        computed[ply] = true
    }

    /// Writes `perspective`'s accumulator for `position`, seen in orientation `o`, into
    /// `destination`, through the refresh cache: the cached accumulator of that side and
    /// orientation takes the rows of the pieces that left and came since it was last used.
    private func refresh(_ destination: UnsafeMutablePointer<Int16>, _ position: Position, for perspective: Color,
                         _ o: (mirrored: Bool, bucket: Int)) {
        let entry = perspective.index * Self.orientationCodes + Int(code(o))
        let accumulator = cachedAccumulators + entry * network.hidden
        let pieces = cachedPieces + entry * Self.pieceKinds
        for side in 0..<2 {
            let color: Color = side == 0 ? .red : .black
            for kind in 0..<7 {
                let kind = PieceKind(rawValue: UInt8(kind)).unsafelyUnwrapped
                let piece = Piece(color, kind)
                let now = position.pieces(of: color, kind), before = pieces[piece.index]
                guard now != before else { continue }
                for square in before & ~now {
                    network.subtract(network.feature(piece, on: square, for: perspective, o), from: accumulator)
                }
                for square in now & ~before {
                    network.add(network.feature(piece, on: square, for: perspective, o), to: accumulator)
                }
                pieces[piece.index] = now
            }
        }
        destination.update(from: accumulator, count: network.hidden)
    }

    /// Notes that the position at `ply` came from the one at `ply − 1` by `move`, which moved
    /// `moved` and captured `captured` (or ``Piece/none``).
    @inline(__always)
    public func record(ply: Int, move: Move, moved: Piece, captured: Piece) {
        computed[ply] = false
        moves[ply] = move
        movedPieces[ply] = moved
        capturedPieces[ply] = captured
    }

    /// Notes a null move into `ply` (the same pieces, the other side to move).
    @inline(__always)
    public func recordNullMove(ply: Int) {
        computed[ply] = false
        moves[ply] = .none
        movedPieces[ply] = .none
    }

    /// The evaluation of `position`, the current line's position at `ply`, in centipawns for
    /// its side to move.
    @inline(__always)
    public func evaluate(ply: Int, position: Position) -> Int {
        if !computed[ply] { catchUp(ply, position) }
        return network.evaluate(us: slot(ply, position.sideToMove), them: slot(ply, position.sideToMove.opponent),
                                bucket: network.outputBucket(of: position))
    }

    /// Brings ply `ply` up to date from the nearest computed ply below it.
    private func catchUp(_ ply: Int, _ position: Position) {
        var base = ply - 1
        while base > 0 && !computed[base] { base -= 1 }
        guard base >= 0, computed[base] else {
            refresh(position, ply: ply)
            return
        }
        for side in 0..<2 {
            let perspective: Color = side == 0 ? .red : .black
            let o = network.orientation(of: perspective, kingSquare: position.kingSquare(of: perspective))
            let destination = slot(ply, perspective)
            orientations[ply * 2 + side] = code(o)
            guard orientations[base * 2 + side] == code(o) else {
                refresh(destination, position, for: perspective, o)
                continue
            }
            // With one orientation at both ends, the moves' feature changes in it take the
            // base's pieces to the current ones, whatever orientations lay between.
            var source = UnsafePointer(slot(base, perspective))
            for j in (base + 1)...ply {
                let moved = movedPieces[j]
                if moved.isNone {
                    if source != UnsafePointer(destination) { destination.update(from: source, count: network.hidden) }
                } else {
                    let move = moves[j], captured = capturedPieces[j]
                    let removed = network.feature(moved, on: move.from, for: perspective, o)
                    let added = network.feature(moved, on: move.to, for: perspective, o)
                    let removedCaptured = captured.isNone ? -1 : network.feature(captured, on: move.to, for: perspective, o)
                    network.update(destination, from: source, adding: (added, -1), removing: (removed, removedCaptured),
                                   removedCount: captured.isNone ? 1 : 2)
                }
                source = UnsafePointer(destination)
            }
        }
        computed[ply] = true
    }
}
