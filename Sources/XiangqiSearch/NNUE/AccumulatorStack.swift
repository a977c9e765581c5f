import XiangqiCore

/// Both sides' accumulators for each ply of a search line, computed lazily: a move only
/// records what it changed (``record(ply:move:moved:captured:)``), and an evaluation brings
/// its ply up to date from the nearest computed ply below it by adding and removing the rows
/// of the pieces that moved. Moves that are pruned right after being made cost nothing. A side
/// whose king moved to another mirror or bucket since that ply is recomputed from the position.
/// One stack per search thread; nothing is allocated after init.
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
    }

    deinit {
        storage.deallocate()
        computed.deallocate()
        moves.deallocate()
        movedPieces.deallocate()
        capturedPieces.deallocate()
        orientations.deallocate()
    }

    @inline(__always)
    func slot(_ ply: Int, _ perspective: Color) -> UnsafeMutablePointer<Int16> {
        storage + (ply * 2 + perspective.index) * network.hidden
    }

    @inline(__always)
    private func code(_ o: (mirrored: Bool, bucket: Int)) -> UInt8 { UInt8((o.mirrored ? 8 : 0) + o.bucket) }

    /// Computes ply `ply`'s accumulators for `position` from scratch (the root of a search).
    public func refresh(_ position: Position, ply: Int) {
        for side in 0..<2 {
            let perspective: Color = side == 0 ? .red : .black
            network.refresh(slot(ply, perspective), position, for: perspective)
            orientations[ply * 2 + side] = code(network.orientation(of: perspective, kingSquare: position.kingSquare(of: perspective)))
        }
        computed[ply] = true
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
                network.refresh(destination, position, for: perspective)
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
