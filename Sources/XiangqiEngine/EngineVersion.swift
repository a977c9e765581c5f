import XiangqiBook
import XiangqiSearch

/// The engine's release and what is built into it, for `id name`, `--version` and records.
public enum EngineVersion {
    /// The release number (CHANGELOG.md), in semantic versioning.
    public static let number = "2.0.0"

    /// The release's name: `Xiangqi 2.0.0`.
    public static let name = "Xiangqi \(number)"

    /// The name a build announces: the release and, when known, what it was built from
    /// (`Xiangqi 2.0.0 (85f6e4f, 2026-11-27)`: commit and its date).
    public static func name(build: String?) -> String {
        guard let build, !build.isEmpty else { return name }
        return "\(name) (\(build))"
    }

    /// The lines of `xiangqi --version`: release and build, built-in network (hash, size),
    /// built-in book (positions, moves, size). Opens the book (a few milliseconds).
    public static func report(build: String?) -> [String] {
        var lines = [name(build: build)]
        let network = NetworkFile.builtInBytes
        lines.append("network: \(hex16(NetworkFile.builtInHash)) (built in, \(network.count) bytes)")
        let bookBytes = OpeningBook.builtInBytes.count
        if let book = try? OpeningBook.builtIn(), let stats = try? book.stats() {
            lines.append("book: \(stats.positions) positions, \(stats.moves) moves (built in, \(bookBytes) bytes)")
        } else {
            lines.append("book: unreadable (built in, \(bookBytes) bytes)")
        }
        return lines
    }

    /// `value` as 16 hexadecimal digits.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
