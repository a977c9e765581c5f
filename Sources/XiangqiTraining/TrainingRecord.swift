import XiangqiCore

/// One position for training an evaluation, with the search's score and the game's result,
/// in a fixed 32-byte little-endian record (files are plain concatenations of records):
///
/// | bytes  | content |
/// |--------|---------|
/// | 0-11   | occupancy: bit `i` (byte `i / 8`, bit `i % 8`) set when square `i` (`rank * 9 + file`) holds a piece; bit 90 set when Black is to move |
/// | 12-27  | the pieces of the occupied squares in square order, a nibble each (low nibble first): `1 + color * 7 + kind` (red 0, black 1; king 0, advisor 1, elephant 2, horse 3, chariot 4, cannon 5, soldier 6); at most 32 |
/// | 28-29  | the score, Int16, centipawns from the side to move's view |
/// | 30     | the result for Red, Int8: 1 win, 0 draw, −1 loss |
/// | 31     | the ply of the game (saturated at 255) |
///
/// A legal xiangqi position has at most 32 pieces, so every legal position fits.
public struct TrainingRecord: Sendable, Equatable {
    public static let byteCount = 32

    /// The piece on each square (index `rank * 9 + file`).
    public var board: [Piece]
    public var sideToMove: Color
    /// Centipawns from the side to move's view.
    public var score: Int
    /// Red's result: 1 win, 0 draw, −1 loss.
    public var redResult: Int
    public var ply: Int

    public init(position: Position, score: Int, redResult: Int, ply: Int) {
        board = (0..<Square.count).map { position.piece(at: Square(unchecked: $0)) }
        sideToMove = position.sideToMove
        self.score = score
        self.redResult = redResult
        self.ply = ply
    }

    /// Why a record cannot be read.
    public enum DecodingError: Error, Equatable, CustomStringConvertible {
        case wrongSize(Int)
        case tooManyPieces(Int)
        case badPiece(square: Int)
        case badResult(Int)

        public var description: String {
            switch self {
            case .wrongSize(let n): "a record has \(TrainingRecord.byteCount) bytes, not \(n)"
            case .tooManyPieces(let n): "\(n) occupied squares (at most 32)"
            case .badPiece(let square): "no piece code on occupied square \(square)"
            case .badResult(let r): "result \(r) is not 1, 0 or -1"
            }
        }
    }

    /// Reads a record from its 32 bytes.
    public init<Bytes: RandomAccessCollection>(bytes: Bytes) throws(DecodingError) where Bytes.Element == UInt8 {
        let b = Array(bytes)
        guard b.count == Self.byteCount else { throw .wrongSize(b.count) }
        func bit(_ i: Int) -> Bool { b[i >> 3] & (1 << UInt8(i & 7)) != 0 }
        let occupied = (0..<Square.count).filter(bit)
        guard occupied.count <= 32 else { throw .tooManyPieces(occupied.count) }
        var board = [Piece](repeating: .none, count: Square.count)
        for (n, square) in occupied.enumerated() {
            let code = Int(b[12 + n / 2] >> (n % 2 == 0 ? 0 : 4)) & 0xF
            guard (1...14).contains(code) else { throw .badPiece(square: square) }
            board[square] = Piece(code <= 7 ? .red : .black, PieceKind(rawValue: UInt8((code - 1) % 7))!)
        }
        self.board = board
        sideToMove = bit(90) ? .black : .red
        score = Int(Int16(bitPattern: UInt16(b[28]) | UInt16(b[29]) << 8))
        redResult = Int(Int8(bitPattern: b[30]))
        guard (-1...1).contains(redResult) else { throw .badResult(redResult) }
        ply = Int(b[31])
    }

    /// The 32 bytes (see the type's description); the score is clamped to Int16.
    public var bytes: [UInt8] {
        var b = [UInt8](repeating: 0, count: Self.byteCount)
        var n = 0
        for square in 0..<Square.count where !board[square].isNone && n < 32 {
            b[square >> 3] |= 1 << UInt8(square & 7)
            b[12 + n / 2] |= board[square].rawValue << (n % 2 == 0 ? 0 : 4)
            n += 1
        }
        if sideToMove == .black { b[90 >> 3] |= 1 << UInt8(90 & 7) }
        let clamped = UInt16(bitPattern: Int16(clamping: score))
        b[28] = UInt8(clamped & 0xFF)
        b[29] = UInt8(clamped >> 8)
        b[30] = UInt8(bitPattern: Int8(clamping: redResult))
        b[31] = UInt8(clamping: ply)
        return b
    }

    /// The position in FEN (no move counters beyond `0 1`).
    public var fen: String {
        var ranks: [String] = []
        for rank in stride(from: 9, through: 0, by: -1) {
            var text = "", empty = 0
            for file in 0..<9 {
                let piece = board[rank * 9 + file]
                if piece.isNone {
                    empty += 1
                    continue
                }
                if empty > 0 { text += "\(empty)" }
                empty = 0
                let letter = piece.kind.fenLetter
                text.append(piece.color == .red ? letter : Character(letter.lowercased()))
            }
            if empty > 0 { text += "\(empty)" }
            ranks.append(text)
        }
        return ranks.joined(separator: "/") + (sideToMove == .red ? " w" : " b") + " - - 0 1"
    }
}
