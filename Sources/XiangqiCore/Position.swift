/// A Xiangqi position: board, side to move, counters, Zobrist key and check information.
///
/// `Position` is a plain value (no references), so copies are cheap and independent. It is
/// changed in place by ``make(_:)`` / ``unmake(_:_:)``; every stored field, the key included,
/// is kept up to date incrementally and restored exactly by `unmake`.
@frozen
public struct Position: Sendable {
    /// The piece placement: board, piece and colour bitboards, file occupancy and king
    /// squares, in one block of memory (see ``PositionStorage``) shared by copies until one of
    /// them changes (copy on write, checked once per ``make(_:)``/``unmake(_:_:)``).
    @usableFromInline var storage: PositionStorage
    /// `storage.memory`, kept here so that a read is one load.
    @usableFromInline nonisolated(unsafe) var memory: UnsafeMutableRawPointer

    /// Pieces by square; index 90 is an always-empty sentinel used by off-board neighbours.
    @inlinable var board: PositionStorage.Board { PositionStorage.Board(memory: memory) }
    /// Squares of each piece, by ``Piece/index``.
    @inlinable var pieceSets: PositionStorage.Bitboards {
        PositionStorage.Bitboards(memory: memory + PositionStorage.pieceSetsOffset)
    }
    /// Squares of each colour's pieces.
    @inlinable var colorSets: PositionStorage.Bitboards {
        PositionStorage.Bitboards(memory: memory + PositionStorage.colorSetsOffset)
    }
    /// Bit `rank` of element `file` is set when that square is occupied.
    @inlinable var fileOccupancy: PositionStorage.FileOccupancy { PositionStorage.FileOccupancy(memory: memory) }
    /// Each side's king square.
    @inlinable var kings: PositionStorage.Kings { PositionStorage.Kings(memory: memory) }

    /// The side to move.
    public internal(set) var sideToMove: Color
    /// The Zobrist key of pieces and side to move (see ``Zobrist``).
    public internal(set) var key: UInt64
    /// Plies since the last capture (the FEN half-move clock).
    public internal(set) var halfmoveClock: Int
    /// The move number, starting at 1 and increasing after each black move.
    public internal(set) var fullmoveNumber: Int

    /// Enemy pieces giving check to the side to move.
    public internal(set) var checkers: Bitboard
    /// Pieces of the side to move whose departure may expose their own king (pinned by a
    /// chariot or flying general, one of two screens of a cannon, or a horse-leg blocker).
    public internal(set) var blockers: Bitboard
    /// Empty squares where a piece of the side to move would become a screen for an enemy
    /// cannon aimed at its own king.
    public internal(set) var screens: Bitboard

    /// An empty board, red to move (not a legal position until kings are placed).
    init() {
        storage = PositionStorage()
        memory = storage.memory
        sideToMove = .red
        key = 0
        halfmoveClock = 0
        fullmoveNumber = 1
        checkers = .empty
        blockers = .empty
        screens = .empty
    }

    /// The standard start position.
    public static let startFEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

    /// The standard start position, red to move.
    public static var start: Position {
        // The start FEN is a constant known to be valid.
        guard let p = try? Position(fen: startFEN) else { preconditionFailure("start FEN rejected") }
        return p
    }

    // MARK: Queries

    /// The piece on `square` (``Piece/none`` when empty).
    @inlinable @inline(__always)
    public func piece(at square: Square) -> Piece { board[square.index] }

    /// All occupied squares.
    @inlinable @inline(__always)
    public var occupied: Bitboard { colorSets[0] | colorSets[1] }

    /// Squares of `color`'s pieces.
    @inlinable @inline(__always)
    public func pieces(of color: Color) -> Bitboard { colorSets[color.index] }

    /// Squares of `color`'s pieces of `kind`.
    @inlinable @inline(__always)
    public func pieces(of color: Color, _ kind: PieceKind) -> Bitboard {
        pieceSets[Piece(color, kind).index]
    }

    /// The square of `color`'s king.
    @inlinable @inline(__always)
    public func kingSquare(of color: Color) -> Square { kings[color.index] }

    /// Whether the side to move is in check.
    @inlinable @inline(__always)
    public var isInCheck: Bool { checkers.isNotEmpty }

    // MARK: Editing (set-up only)

    /// Puts `piece` on the empty `square`, updating every derived field but the check info.
    mutating func put(_ piece: Piece, at square: Square) {
        makeStorageUnique()
        board[square.index] = piece
        pieceSets[piece.index].insert(square)
        colorSets[piece.color.index].insert(square)
        fileOccupancy[square.file] |= 1 << UInt16(square.rank)
        key ^= AttackTables.shared.zobrist[piece.index * 90 + square.index]
        if piece.kind == .king { kings[piece.color.index] = square }
    }

    /// Gives this position a storage of its own before it changes the placement.
    @inlinable @inline(__always)
    mutating func makeStorageUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = PositionStorage(copying: storage)
            memory = storage.memory
        }
    }

    /// Recomputes the key from scratch (used to check the incremental key).
    public func computeKey() -> UInt64 {
        var k: UInt64 = sideToMove == .black ? Zobrist.sideKey : 0
        for s in 0..<90 where !board[s].isNone {
            k ^= Zobrist.key(board[s], Square(unchecked: s))
        }
        return k
    }
}

/// What ``Position/make(_:)`` saves so that ``Position/unmake(_:_:)`` can restore the position.
@frozen
public struct Undo: Sendable, BitwiseCopyable {
    @usableFromInline let captured: Piece
    @usableFromInline let halfmoveClock: Int32
    @usableFromInline let checkers: Bitboard
    @usableFromInline let blockers: Bitboard
    @usableFromInline let screens: Bitboard

    /// The piece the move captured, or ``Piece/none``.
    @inlinable public var capturedPiece: Piece { captured }

    /// Whether the side that made the move was in check before it (the move before gave check).
    @inlinable public var moverWasInCheck: Bool { checkers.isNotEmpty }
}
