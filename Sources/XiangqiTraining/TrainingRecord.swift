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
        if let problem = b.withUnsafeBytes({ Self.problem(in: $0) }) { throw problem }
        var board = [Piece](repeating: .none, count: Square.count)
        b.withUnsafeBytes { raw in Self.forEachPiece(of: raw.baseAddress!) { square, piece in board[square] = piece } }
        self.board = board
        sideToMove = b.withUnsafeBytes { Self.sideToMove(of: $0.baseAddress!) }
        score = Int(Int16(bitPattern: UInt16(b[28]) | UInt16(b[29]) << 8))
        redResult = Int(Int8(bitPattern: b[30]))
        ply = Int(b[31])
    }

    /// Why the record in `b` cannot be read, or `nil` when it can (no allocation: a trainer
    /// checks tens of millions).
    static func problem(in b: UnsafeRawBufferPointer) -> DecodingError? {
        guard b.count == byteCount else { return .wrongSize(b.count) }
        // Squares 0-89 are bits 0-89: all of bytes 0-10 and the two low bits of byte 11.
        var occupied = (b[11] & 0x03).nonzeroBitCount
        for i in 0..<11 { occupied += b[i].nonzeroBitCount }
        guard occupied <= 32 else { return .tooManyPieces(occupied) }
        var n = 0
        for square in 0..<Square.count where b[square >> 3] & (1 << UInt8(square & 7)) != 0 {
            let code = (b[12 + n >> 1] >> (n & 1 == 0 ? 0 : 4)) & 0xF
            guard (1...14).contains(code) else { return .badPiece(square: square) }
            n += 1
        }
        let result = Int8(bitPattern: b[30])
        guard (-1...1).contains(result) else { return .badResult(Int(result)) }
        return nil
    }

    /// The side to move of the record at `r` (bit 90).
    @inline(__always)
    static func sideToMove(of r: UnsafeRawPointer) -> Color {
        r.load(fromByteOffset: 90 >> 3, as: UInt8.self) & (1 << UInt8(90 & 7)) != 0 ? .black : .red
    }

    /// Calls `body(square, piece)` for each piece of the readable record at `r`, in square order.
    @inline(__always)
    static func forEachPiece(of r: UnsafeRawPointer, _ body: (Int, Piece) -> Void) {
        var n = 0
        for square in 0..<Square.count where r.load(fromByteOffset: square >> 3, as: UInt8.self) & (1 << UInt8(square & 7)) != 0 {
            let code = Int(r.load(fromByteOffset: 12 + n >> 1, as: UInt8.self) >> (n & 1 == 0 ? 0 : 4)) & 0xF
            body(square, Piece(code <= 7 ? .red : .black, PieceKind(rawValue: UInt8((code - 1) % 7))!))
            n += 1
        }
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

/// Readable training records kept as their 32-byte encodings, one after another: 32 bytes a
/// position where a decoded ``TrainingRecord`` takes about 170, so that the tens of millions a
/// network trains on fit in memory. Reading one decodes it.
public struct TrainingRecords: RandomAccessCollection, Sendable {
    /// The records' bytes, `TrainingRecord.byteCount` each, every one readable.
    private(set) var bytes: [UInt8] = []

    public init() {}

    public init(_ records: some Sequence<TrainingRecord>) {
        for record in records { bytes += record.bytes }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { bytes.count / TrainingRecord.byteCount }

    public subscript(index: Int) -> TrainingRecord {
        let start = index * TrainingRecord.byteCount
        // Only readable records are kept.
        return try! TrainingRecord(bytes: bytes[start..<(start + TrainingRecord.byteCount)])
    }

    /// Appends the readable records of `file` (whole records; trailing bytes are left) and
    /// returns how many records it skipped as unreadable.
    @discardableResult
    public mutating func append(readableRecordsOf file: [UInt8]) -> Int {
        var unreadable = 0
        file.withUnsafeBytes { raw in
            for start in stride(from: 0, through: raw.count - TrainingRecord.byteCount, by: TrainingRecord.byteCount) {
                let record = UnsafeRawBufferPointer(rebasing: raw[start..<(start + TrainingRecord.byteCount)])
                if TrainingRecord.problem(in: record) == nil {
                    bytes.append(contentsOf: record)
                } else {
                    unreadable += 1
                }
            }
        }
        return unreadable
    }

    /// The ply of record `index`, without decoding it.
    func ply(at index: Int) -> Int { Int(bytes[index * TrainingRecord.byteCount + 31]) }
}
