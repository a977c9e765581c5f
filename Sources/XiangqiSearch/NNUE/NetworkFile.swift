import CEmbeddedData
import XiangqiCore

/// The network file: a little-endian header (40 bytes in version 1, 48 in version 2), then
/// the weights.
///
/// | bytes | content |
/// |-------|---------|
/// | 0-3   | magic `XQNN` |
/// | 4-7   | format version: 1 (one output), 2 (output buckets) |
/// | 8-11  | feature set (1: mirrored piece-square with king buckets, see ``Network``) |
/// | 12-15 | king buckets (1 or 6) |
/// | 16-19 | accumulator width (a multiple of 16, at most 2048) |
/// | 20-23 | qa (1-255) · 24-27 qb (1-4096) · 28-31 scale (1-10000) |
/// | 32-39 | FNV-1a 64 of everything after the header |
/// | 40-43 | version 2 only: output buckets (8) |
/// | 44-47 | version 2 only: how the bucket is chosen (1: by material, ``Network/materialBucket(chariots:horsesAndCannons:)``) |
/// | then  | first layer Int16 `[feature][hidden]`, its bias Int16 `[hidden]`, output weights Int16 `[outputs][2 × hidden]`, output biases Int32 `[outputs]` |
///
/// A network with one output is written as version 1, so the files (and hashes) of networks
/// made before version 2 stay as they were. Reading checks every field, the exact length and
/// the hash, so a truncated, corrupted or foreign file is refused with the reason rather
/// than loaded.
public enum NetworkFile {
    /// The first four bytes of a network file.
    public static let magic: [UInt8] = Array("XQNN".utf8)
    /// The newest file format version this engine reads and writes (it reads 1 and 2).
    public static let version: UInt32 = 2
    /// The output-bucket scheme of version 2: by material.
    public static let materialBucketScheme: UInt32 = 1
    /// The input feature set (king-bucketed piece-square features).
    public static let featureSet: UInt32 = 1
    /// Bytes before the weights in version 1.
    public static let headerSize = 40
    /// Bytes before the weights in version 2.
    public static let headerSizeWithOutputBuckets = 48
    /// The widest accumulator a file may declare.
    public static let maximumHidden = 2048

    /// Why a network file was refused.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case notANetwork
        case unsupportedVersion(UInt32)
        case unsupportedFeatureSet(UInt32)
        case badShape(String)
        case wrongLength(expected: Int, actual: Int)
        case hashMismatch
        case unreadable(String)

        public var description: String {
            switch self {
            case .notANetwork: "not a network file (no XQNN header)"
            case .unsupportedVersion(let v): "network format version \(v) is not supported (this engine reads 1 to \(NetworkFile.version))"
            case .unsupportedFeatureSet(let f): "feature set \(f) is not supported (this engine has \(NetworkFile.featureSet))"
            case .badShape(let why): "bad network shape: \(why)"
            case .wrongLength(let expected, let actual): "truncated or padded: \(actual) bytes where the header says \(expected)"
            case .hashMismatch: "content hash mismatch (corrupted file)"
            case .unreadable(let why): why
            }
        }
    }

    /// FNV-1a, 64 bits.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    static func payload(featureWeights: [Int16], featureBias: [Int16], outputWeights: [Int16], outputBiases: [Int32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 * (featureWeights.count + featureBias.count + outputWeights.count) + 4 * outputBiases.count)
        for array in [featureWeights, featureBias, outputWeights] {
            for v in array {
                let u = UInt16(bitPattern: v)
                out.append(UInt8(u & 0xFF))
                out.append(UInt8(u >> 8))
            }
        }
        for bias in outputBiases {
            let b = UInt32(bitPattern: bias)
            for k in 0..<4 { out.append(UInt8((b >> (8 * UInt32(k))) & 0xFF)) }
        }
        return out
    }

    /// The file's bytes for `network`.
    public static func bytes(of network: Network) -> [UInt8] {
        let n = network.featureCount * network.hidden, outputs = network.outputBuckets
        let payload = payload(featureWeights: Array(UnsafeBufferPointer(start: network.featureWeights, count: n)),
                              featureBias: Array(UnsafeBufferPointer(start: network.featureBias, count: network.hidden)),
                              outputWeights: Array(UnsafeBufferPointer(start: network.outputWeights, count: outputs * 2 * network.hidden)),
                              outputBiases: Array(UnsafeBufferPointer(start: network.outputBiases, count: outputs)))
        var out = magic
        func append(_ v: UInt32) {
            for k in 0..<4 { out.append(UInt8((v >> (8 * UInt32(k))) & 0xFF)) }
        }
        for v in [outputs == 1 ? 1 : version, featureSet, UInt32(network.buckets), UInt32(network.hidden),
                  UInt32(network.qa), UInt32(network.qb), UInt32(network.scale)] {
            append(v)
        }
        let h = hash(payload)
        for k in 0..<8 { out.append(UInt8((h >> (8 * UInt64(k))) & 0xFF)) }
        if outputs > 1 {
            append(UInt32(outputs))
            append(materialBucketScheme)
        }
        return out + payload
    }

    /// The name that stands for the built-in network (`EvalFile`'s default).
    public static let builtInName = "<built-in>"

    /// The bytes of the built-in network (`networks/xiangqi.nnue` of the source tree, part of
    /// the binary and of every app that links the libraries).
    public static var builtInBytes: UnsafeRawBufferPointer {
        var size = 0
        let start = xiangqi_builtin_network(&size)
        return UnsafeRawBufferPointer(start: start, count: size)
    }

    /// The built-in network, read and checked once (about 15 ms) on first use.
    public static let builtIn: Network = {
        do { return try network(from: builtInBytes) } catch {
            preconditionFailure("the built-in network is unreadable (\(error)): the build embedded a bad file")
        }
    }()

    /// The built-in network's content hash, read from its header without loading it.
    public static var builtInHash: UInt64 {
        let bytes = builtInBytes
        guard bytes.count >= headerSize else { return 0 }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[32 + $1]) << (8 * UInt64($1)) }
    }

    /// The largest file read (a network of the largest shape is under 40 MB).
    public static let maximumFileSize = 64 << 20

    /// Reads the network file at `path`.
    public static func network(atPath path: String) throws(ReadError) -> Network {
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path, limit: maximumFileSize) } catch { throw .unreadable(error.description) }
        return try network(from: bytes)
    }

    /// Reads a network from a file's bytes.
    public static func network(from bytes: [UInt8]) throws(ReadError) -> Network {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ReadError) -> Network in try network(from: raw) } }
        return try result.get()
    }

    /// Reads a network from a file's bytes.
    public static func network(from bytes: UnsafeRawBufferPointer) throws(ReadError) -> Network {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { throw .notANetwork }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
        let fileVersion = u32(4)
        guard fileVersion == 1 || fileVersion == 2 else { throw .unsupportedVersion(fileVersion) }
        guard u32(8) == featureSet else { throw .unsupportedFeatureSet(u32(8)) }
        let header = fileVersion == 1 ? headerSize : headerSizeWithOutputBuckets
        guard bytes.count >= header else { throw .wrongLength(expected: header, actual: bytes.count) }
        var outputs = 1
        if fileVersion == 2 {
            outputs = Int(u32(40))
            guard outputs == Network.materialBuckets else {
                throw .badShape("\(outputs) output buckets (\(Network.materialBuckets))")
            }
            guard u32(44) == materialBucketScheme else { throw .badShape("output bucket scheme \(u32(44)) (1: by material)") }
        }
        let buckets = Int(u32(12)), hidden = Int(u32(16)), qa = Int(u32(20)), qb = Int(u32(24)), scale = Int(u32(28))
        guard buckets == 1 || buckets == Network.maximumBuckets else { throw .badShape("\(buckets) king buckets (1 or 6)") }
        guard hidden > 0, hidden <= maximumHidden, hidden % Network.hiddenMultiple == 0 else {
            throw .badShape("accumulator width \(hidden) (a multiple of 16 up to \(maximumHidden))")
        }
        guard (1...255).contains(qa), (1...4096).contains(qb), (1...10_000).contains(scale) else {
            throw .badShape("quantization qa \(qa), qb \(qb), scale \(scale)")
        }
        let features = buckets * Network.featuresPerBucket
        let expected = header + 2 * (features * hidden + hidden + outputs * 2 * hidden) + 4 * outputs
        guard bytes.count == expected else { throw .wrongLength(expected: expected, actual: bytes.count) }
        let storedHash = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[32 + $1]) << (8 * UInt64($1)) }
        // The payload is read in place (no copy): a load is on the clock of the first move
        // when a GUI sends no isready first.
        let payloadHash = hash(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[header...]))
        guard payloadHash == storedHash else { throw .hashMismatch }
        // Little-endian 16-bit words of the payload.
        func int16s(_ start: Int, _ count: Int) -> [Int16] {
            [Int16](unsafeUninitializedCapacity: count) { words, initialized in
                for i in 0..<count {
                    words[i] = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: header + start + 2 * i,
                                                                       as: Int16.self))
                }
                initialized = count
            }
        }
        let weights = int16s(0, features * hidden)
        let bias = int16s(2 * features * hidden, hidden)
        let output = int16s(2 * (features * hidden + hidden), outputs * 2 * hidden)
        let biases = (0..<outputs).map { o in
            let b = bytes.count - 4 * (outputs - o)
            return Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[b + $1]) << (8 * UInt32($1)) })
        }
        return Network(buckets: buckets, hidden: hidden, qa: qa, qb: qb, scale: scale, featureWeights: weights,
                       featureBias: bias, outputWeights: output, outputBiases: biases, verifiedHash: storedHash)
    }
}
