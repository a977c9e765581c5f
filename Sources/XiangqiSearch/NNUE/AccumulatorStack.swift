import XiangqiCore

/// Both sides' accumulators for each ply of a search line: a move's child is computed from its
/// parent by adding and removing the rows of the two or three features that changed, and only
/// a king move that changes its side's mirror or bucket recomputes that side from scratch.
/// One stack per search thread; nothing is allocated after init.
public final class AccumulatorStack: @unchecked Sendable {
    // Used by one search thread at a time (each thread owns its stack).
    public let network: Network
    public let plies: Int
    private let storage: UnsafeMutablePointer<Int16>

    /// A stack for lines of up to `plies` plies below the root.
    public init(network: Network, plies: Int) {
        self.network = network
        self.plies = plies
        storage = .allocate(capacity: (plies + 1) * 2 * network.hidden)
        storage.initialize(repeating: 0, count: (plies + 1) * 2 * network.hidden)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    func slot(_ ply: Int, _ perspective: Color) -> UnsafeMutablePointer<Int16> {
        storage + (ply * 2 + perspective.index) * network.hidden
    }

    /// Computes ply `ply`'s accumulators for `position` from scratch.
    public func refresh(_ position: Position, ply: Int) {
        network.refresh(slot(ply, .red), position, for: .red)
        network.refresh(slot(ply, .black), position, for: .black)
    }

    /// Computes ply `ply + 1` from ply `ply` for `move`, which moved `moved` and captured
    /// `captured` (or ``Piece/none``), giving `after`.
    public func push(ply: Int, move: Move, moved: Piece, captured: Piece, after: Position) {
        for side in 0..<2 {
            let perspective: Color = side == 0 ? .red : .black
            let parent = slot(ply, perspective), child = slot(ply + 1, perspective)
            let king = after.kingSquare(of: perspective)
            let o = network.orientation(of: perspective, kingSquare: king)
            if moved.kind == .king && moved.color == perspective {
                let before = network.orientation(of: perspective, kingSquare: move.from)
                if before != o {
                    network.refresh(child, after, for: perspective)
                    continue
                }
            }
            let removedMoved = network.feature(moved, on: move.from, for: perspective, o)
            let added = network.feature(moved, on: move.to, for: perspective, o)
            if captured.isNone {
                network.update(child, from: parent, adding: (added, -1), removing: (removedMoved, -1), removedCount: 1)
            } else {
                let removedCaptured = network.feature(captured, on: move.to, for: perspective, o)
                network.update(child, from: parent, adding: (added, -1), removing: (removedMoved, removedCaptured),
                               removedCount: 2)
            }
        }
    }

    /// Ply `ply + 1` as a copy of ply `ply` (a null move: the same pieces).
    public func pushNullMove(ply: Int) {
        (slot(ply + 1, .red)).update(from: slot(ply, .red), count: 2 * network.hidden)
    }

    /// The evaluation at ply `ply` with `sideToMove` to move, in centipawns for it.
    public func evaluate(ply: Int, sideToMove: Color) -> Int {
        network.evaluate(us: slot(ply, sideToMove), them: slot(ply, sideToMove.opponent))
    }
}
