#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read, in words fit for a message.
public struct FileReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The bytes of the regular file at `path`, at most `limit` of them. A FIFO, a device or a
/// directory is refused before it is opened (opening or reading one could block forever).
public func readFileBytes(_ path: String, limit: Int = Int.max) throws(FileReadError) -> [UInt8] {
    // S_IFMT and S_IFREG as literals: their imported types differ between Glibc and Darwin.
    var status = stat()
    guard stat(path, &status) == 0 else { throw FileReadError("cannot open: \(String(cString: strerror(errno)))") }
    guard status.st_mode & 0o170000 == 0o100000 else { throw FileReadError("not a regular file") }
    guard let file = fopen(path, "rb") else { throw FileReadError("cannot open: \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    // The size known, the bytes are read into one buffer (a network file is megabytes).
    bytes.reserveCapacity(Int(clamping: min(Int64(status.st_size), Int64(limit))) + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n > 0 { bytes += chunk[0..<n] }
        guard bytes.count <= limit else { throw FileReadError("larger than \(limit) bytes") }
        if n < chunk.count { break }
    }
    if ferror(file) != 0 { throw FileReadError("read error") }
    return bytes
}
