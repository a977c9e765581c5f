extension Position {
    /// The number of leaf nodes of the legal move tree `depth` plies deep (1 at depth 0).
    /// The last ply is counted without making its moves.
    public mutating func perft(_ depth: Int) -> UInt64 {
        if depth <= 0 { return 1 }
        if depth == 1 { return UInt64(legalMoveCount) }
        var list = MoveList()
        generateLegal(into: &list)
        var nodes: UInt64 = 0
        for i in 0..<list.count {
            let move = list[i]
            let undo = make(move)
            nodes &+= perft(depth &- 1)
            unmake(move, undo)
        }
        return nodes
    }

    /// Perft split by root move: each legal move with the leaf count below it, in
    /// generation order.
    public mutating func divide(_ depth: Int) -> [(move: Move, nodes: UInt64)] {
        var result: [(move: Move, nodes: UInt64)] = []
        for move in legalMoves {
            let undo = make(move)
            result.append((move, perft(depth - 1)))
            unmake(move, undo)
        }
        return result
    }
}
