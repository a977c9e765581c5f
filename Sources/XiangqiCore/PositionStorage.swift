/// The memory behind a ``Position``'s piece placement, owned by a reference so that positions
/// can share it until one changes (copy on write).
///
/// Why not fields of the position: the systems the libraries support (iOS 15, macOS 12)
/// predate `InlineArray`, and a tuple read with a computed index is copied whole first (Swift
/// cannot take a borrowed value's address). Memory read through a pointer costs one load, as
/// `InlineArray` did. Layout, in bytes: board (91 pieces, 0-95), piece bitboards (14 × 16,
/// 96-319), colour bitboards (2 × 16, 320-351), file occupancy (9 × UInt16, 352-369), king
/// squares (2 bytes, 370-371).
///
/// A block is changed only through a position that holds the only reference to it, so
/// sharing one between threads is safe.
@usableFromInline
final class PositionStorage: @unchecked Sendable {
    @usableFromInline static let pieceSetsOffset = 96
    @usableFromInline static let colorSetsOffset = 320
    @usableFromInline static let fileOccupancyOffset = 352
    @usableFromInline static let kingsOffset = 370
    static let byteCount = 384

    @usableFromInline let memory: UnsafeMutableRawPointer

    /// An empty board: no pieces, no king squares (``Square/none``).
    init() {
        memory = .allocate(byteCount: Self.byteCount, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: Self.byteCount)
        Kings(memory: memory)[0] = .none
        Kings(memory: memory)[1] = .none
    }

    /// A copy of `other`'s placement.
    @usableFromInline
    init(copying other: PositionStorage) {
        memory = .allocate(byteCount: Self.byteCount, alignment: 16)
        memory.copyMemory(from: other.memory, byteCount: Self.byteCount)
    }

    deinit { memory.deallocate() }

    /// Pieces by square index (0-90).
    @frozen @usableFromInline
    struct Board {
        @usableFromInline let memory: UnsafeMutableRawPointer
        @inlinable @inline(__always) init(memory: UnsafeMutableRawPointer) { self.memory = memory }
        @inlinable
        subscript(index: Int) -> Piece {
            @inline(__always) get { Piece(rawValue: memory.load(fromByteOffset: index, as: UInt8.self)) }
            @inline(__always) nonmutating set { memory.storeBytes(of: newValue.rawValue, toByteOffset: index, as: UInt8.self) }
        }
    }

    /// Bitboards by index (pieces 0-13, or colours 0-1).
    @frozen @usableFromInline
    struct Bitboards {
        @usableFromInline let memory: UnsafeMutableRawPointer
        @inlinable @inline(__always) init(memory: UnsafeMutableRawPointer) { self.memory = memory }
        @inlinable
        subscript(index: Int) -> Bitboard {
            @inline(__always) get {
                Bitboard(lo: memory.load(fromByteOffset: index &* 16, as: UInt64.self),
                         hi: memory.load(fromByteOffset: index &* 16 &+ 8, as: UInt64.self))
            }
            @inline(__always) nonmutating set {
                memory.storeBytes(of: newValue.lo, toByteOffset: index &* 16, as: UInt64.self)
                memory.storeBytes(of: newValue.hi, toByteOffset: index &* 16 &+ 8, as: UInt64.self)
            }
        }
    }

    /// Occupied ranks (bits) by file (0-8).
    @frozen @usableFromInline
    struct FileOccupancy {
        @usableFromInline let memory: UnsafeMutableRawPointer
        @inlinable @inline(__always) init(memory: UnsafeMutableRawPointer) { self.memory = memory }
        @inlinable
        subscript(file: Int) -> UInt16 {
            @inline(__always) get {
                memory.load(fromByteOffset: PositionStorage.fileOccupancyOffset &+ file &* 2, as: UInt16.self)
            }
            @inline(__always) nonmutating set {
                memory.storeBytes(of: newValue, toByteOffset: PositionStorage.fileOccupancyOffset &+ file &* 2, as: UInt16.self)
            }
        }
    }

    /// King squares by colour index.
    @frozen @usableFromInline
    struct Kings {
        @usableFromInline let memory: UnsafeMutableRawPointer
        @inlinable @inline(__always) init(memory: UnsafeMutableRawPointer) { self.memory = memory }
        @inlinable
        subscript(color: Int) -> Square {
            @inline(__always) get {
                Square(unchecked: Int(memory.load(fromByteOffset: PositionStorage.kingsOffset &+ color, as: UInt8.self)))
            }
            @inline(__always) nonmutating set {
                memory.storeBytes(of: newValue.rawValue, toByteOffset: PositionStorage.kingsOffset &+ color, as: UInt8.self)
            }
        }
    }
}
