#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAtomicWords
import XiangqiCore

/// One transposition-table entry as read: a copy, so readers cannot change the table.
public struct TTEntry: Sendable, Equatable {
    /// The best move found there, or ``Move/none``.
    public var move: Move
    /// Score relative to the stored node (mates as distance from that node).
    public var score: Int
    /// Static evaluation of the node, or ``Score/none``.
    public var eval: Int
    /// The depth the score was searched to.
    public var depth: Int
    /// Whether the score is exact or a bound.
    public var bound: Bound
    /// The search (modulo 64) that wrote the entry.
    public var generation: Int

    /// Packs the entry in 64 bits: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6.
    @inlinable
    public var packed: UInt64 {
        UInt64(move.rawValue)
            | UInt64(UInt16(bitPattern: Int16(clamping: score))) << 16
            | UInt64(UInt16(bitPattern: Int16(clamping: eval))) << 32
            | UInt64(UInt8(clamping: depth + 8)) << 48
            | UInt64(bound.rawValue & 3) << 56
            | UInt64(generation & 63) << 58
    }

    /// Unpacks ``packed``.
    @inlinable
    public init(packed data: UInt64) {
        move = Move(rawValue: UInt16(truncatingIfNeeded: data))
        score = Int(Int16(bitPattern: UInt16(truncatingIfNeeded: data >> 16)))
        eval = Int(Int16(bitPattern: UInt16(truncatingIfNeeded: data >> 32)))
        depth = Int(UInt8(truncatingIfNeeded: data >> 48)) - 8
        bound = Bound(rawValue: UInt8(truncatingIfNeeded: data >> 56) & 3) ?? .none
        generation = Int(data >> 58)
    }

    @inlinable
    /// An entry with these fields.
    public init(move: Move, score: Int, eval: Int, depth: Int, bound: Bound, generation: Int) {
        self.move = move
        self.score = score
        self.eval = eval
        self.depth = depth
        self.bound = bound
        self.generation = generation
    }
}

extension TTEntry {
    /// The stored score (made relative to the root at `ply`) when its bound settles the
    /// window `alpha...beta`, else `nil`.
    @inline(__always)
    func cutoff(ply: Int, alpha: Int, beta: Int) -> Int? {
        let s = Score.fromTable(score, ply: ply)
        return bound == .exact || (bound == .lower && s >= beta) || (bound == .upper && s <= alpha) ? s : nil
    }
}

/// The transposition table: one allocation of 64-byte buckets, each holding four entries of
/// two words (`key ^ data`, `data`).
///
/// Concurrency: search threads share the table without locks. Every word is read and written
/// with relaxed atomic operations (plain moves on x86-64 and arm64, so they cost nothing, and
/// the thread sanitizer sees no data race), but an entry is two words, and another thread may
/// write between the two: storing the key XORed with the data makes such a torn entry fail
/// its key check and read as a miss. That is cheaper than 128-bit atomics or a lock per
/// bucket, and a stale-but-whole entry is harmless since the search checks the table move for
/// legality before playing it. Hence `@unchecked Sendable`.
public final class TranspositionTable: @unchecked Sendable {
    static let entriesPerBucket = 4
    static let bytesPerBucket = 64

    private(set) var words: UnsafeMutablePointer<UInt64>
    private(set) var bucketCount: Int
    /// The whole mapping `words` lies in (its start may be aligned inside it).
    private var mapping: Mapping
    /// Incremented at each new search; old entries are replaced first.
    private(set) var generation = 0

    /// A table of `megabytes` MB (at least 1).
    public init(megabytes: Int) {
        bucketCount = Self.buckets(forMegabytes: megabytes)
        mapping = Mapping(bytes: bucketCount * Self.bytesPerBucket)
        words = mapping.words
    }

    deinit { mapping.release() }

    /// Zeroed memory mapped straight from the kernel (an anonymous private mapping): its pages
    /// cost no time and no resident memory until the search touches them, and unmapping gives
    /// them all back. (`calloc` did so only while glibc served such blocks by `mmap`; once it
    /// raised its threshold, a cleared table's old block stayed in the heap.) On Linux a table
    /// of 2 MB or more starts on a 2 MB boundary and asks for transparent huge pages
    /// (`MADV_HUGEPAGE`), so that the search's random probes miss the TLB less and a fresh
    /// table faults in 2 MB at a time; the kernel may decline.
    struct Mapping {
        let base: UnsafeMutableRawPointer
        let length: Int
        let words: UnsafeMutablePointer<UInt64>

        init(bytes: Int) {
            var length = bytes
            #if canImport(Glibc)
            let huge = 2 << 20
            if bytes >= huge { length += huge }
            #endif
            let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) else {
                fatalError("cannot allocate a \(bytes / (1 << 20)) MB hash table")
            }
            var start = raw
            #if canImport(Glibc)
            if bytes >= huge {
                start = raw + ((huge - Int(bitPattern: raw) % huge) % huge)
                _ = madvise(start, bytes, MADV_HUGEPAGE)
            }
            #endif
            base = raw
            self.length = length
            words = start.bindMemory(to: UInt64.self, capacity: bytes / MemoryLayout<UInt64>.stride)
        }

        func release() { munmap(base, length) }
    }

    static func buckets(forMegabytes mb: Int) -> Int {
        max(1, mb) * 1024 * 1024 / bytesPerBucket
    }

    /// Size in MB.
    public var megabytes: Int { bucketCount * Self.bytesPerBucket / (1024 * 1024) }

    /// Reallocates to `megabytes` MB, emptying the table.
    public func resize(megabytes: Int) {
        let count = Self.buckets(forMegabytes: megabytes)
        guard count != bucketCount else { return clear() }
        mapping.release()
        bucketCount = count
        mapping = Mapping(bytes: count * Self.bytesPerBucket)
        words = mapping.words
        generation = 0
    }

    /// Empties every entry by replacing the memory with fresh, untouched zeroed pages: the
    /// old pages go back to the system at once, so a cleared table holds no resident memory.
    public func clear() {
        mapping.release()
        mapping = Mapping(bytes: bucketCount * Self.bytesPerBucket)
        words = mapping.words
        generation = 0
    }

    /// Marks the start of a new search.
    public func newSearch() { generation = (generation + 1) & 63 }

    /// A view for the search loop: plain pointers, no reference counting per access.
    var view: TTView { TTView(words: words, bucketCount: bucketCount, generation: generation) }

    /// Per-mille of the first thousand buckets' entries used in the current search.
    public var hashfull: Int { view.hashfull }

    /// Looks `key` up.
    public func probe(_ key: UInt64) -> TTEntry? { view.probe(key) }
}

/// The table as the search sees it (see ``TranspositionTable``).
struct TTView {
    let words: UnsafeMutablePointer<UInt64>
    let bucketCount: Int
    let generation: Int

    @inline(__always)
    func bucket(_ key: UInt64) -> UnsafeMutablePointer<UInt64> {
        let index = key.multipliedFullWidth(by: UInt64(bucketCount)).high
        return words + Int(index) &* 8
    }

    /// Starts loading `key`'s bucket into the cache (no effect on any result).
    @inline(__always)
    func prefetch(_ key: UInt64) {
        xiangqi_prefetch(UnsafeRawPointer(bucket(key)))
    }

    @inline(__always)
    func read(_ word: UnsafeMutablePointer<UInt64>, _ i: Int) -> UInt64 {
        xiangqi_load_relaxed(word + i)
    }

    /// Writes one entry: the data word, then the key word (`key ^ data`).
    @inline(__always)
    func write(_ b: UnsafeMutablePointer<UInt64>, entry i: Int, key: UInt64, data: UInt64) {
        xiangqi_store_relaxed(b + (2 &* i &+ 1), data)
        xiangqi_store_relaxed(b + 2 &* i, key ^ data)
    }

    @inline(__always)
    func probe(_ key: UInt64) -> TTEntry? {
        let b = bucket(key)
        for i in 0..<TranspositionTable.entriesPerBucket {
            let data = read(b, 2 &* i &+ 1)
            if read(b, 2 &* i) ^ data == key && data != 0 { return TTEntry(packed: data) }
        }
        return nil
    }

    /// Stores an entry, replacing the same key, else the least valuable entry (shallow and old).
    @inline(__always)
    func store(_ key: UInt64, move: Move, score: Int, eval: Int, depth: Int, bound: Bound) {
        let b = bucket(key)
        var victim = 0
        var victimValue = Int.max
        for i in 0..<TranspositionTable.entriesPerBucket {
            let data = read(b, 2 &* i &+ 1)
            if read(b, 2 &* i) ^ data == key || data == 0 {
                victim = i
                if data != 0 && move == .none {
                    // Keep the old move when the new result has none.
                    let old = TTEntry(packed: data)
                    if old.bound == .exact && bound != .exact && old.depth > depth + 2 { return }
                    let entry = TTEntry(move: old.move, score: score, eval: eval, depth: depth,
                                        bound: bound, generation: generation)
                    write(b, entry: i, key: key, data: entry.packed)
                    return
                }
                victimValue = Int.min
                break
            }
            let entry = TTEntry(packed: data)
            let age = (generation &- entry.generation) & 63
            let value = entry.depth &- 8 &* age
            if value < victimValue {
                victimValue = value
                victim = i
            }
        }
        let entry = TTEntry(move: move, score: score, eval: eval, depth: depth, bound: bound, generation: generation)
        write(b, entry: victim, key: key, data: entry.packed)
    }

    var hashfull: Int {
        var used = 0
        let sample = min(1000, bucketCount)
        for bucket in 0..<sample {
            for i in 0..<TranspositionTable.entriesPerBucket {
                let data = read(words, bucket * 8 + 2 * i + 1)
                if data != 0 && TTEntry(packed: data).generation == generation { used += 1 }
            }
        }
        return used * 1000 / (sample * TranspositionTable.entriesPerBucket)
    }
}
