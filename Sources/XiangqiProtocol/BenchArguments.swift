import XiangqiCore
import XiangqiEngine

/// The arguments of `bench`, read as Stockfish reads them (so that scripts and GUIs written
/// for it work): `bench [hash] [threads] [limit] [positions] [limit type]`, where positions is
/// `default` (the bench positions), `current` (the session's position) or a file of FENs, one
/// per line, and the limit type `depth` (default), `nodes` or `movetime`. With no arguments:
/// 16 MB, one thread, depth 10, the bench positions: the signature.
public enum BenchArguments {
    /// The settings `words` ask for, or the reason they are refused. `currentFEN` answers
    /// `current` (`nil`: no position, refused).
    public static func parse(_ words: [String], currentFEN: String? = nil) -> Result<BenchSettings, BenchArgumentError> {
        guard words.count <= 5 else {
            return .failure(BenchArgumentError("bench takes at most 5 arguments: [hash] [threads] [limit] [positions] [depth|nodes|movetime]"))
        }
        func number(_ index: Int, _ name: String, _ range: ClosedRange<Int>, _ fallback: Int) -> Result<Int, BenchArgumentError> {
            guard index < words.count else { return .success(fallback) }
            guard let value = Int(words[index]), range.contains(value) else {
                return .failure(BenchArgumentError("bench: \(name) '\(words[index])' is not a whole number in \(range.lowerBound)-\(range.upperBound)"))
            }
            return .success(value)
        }
        var settings = BenchSettings()
        do {
            settings.hashMegabytes = try number(0, "hash (MB)", 1...4096, 16).get()
            settings.threads = try number(1, "threads", 1...256, 1).get()
            let type = words.count > 4 ? words[4].lowercased() : "depth"
            switch type {
            case "depth": settings.limit = .depth(try number(2, "depth", 1...30, 10).get())
            case "nodes": settings.limit = .nodes(UInt64(try number(2, "nodes", 1...Int(Int32.max), 1_000_000).get()))
            case "movetime": settings.limit = .moveTime(try number(2, "movetime (ms)", 1...3_600_000, 1000).get())
            default: return .failure(BenchArgumentError("bench: limit type '\(words[4])' is not depth, nodes or movetime"))
            }
            let source = words.count > 3 ? words[3] : "default"
            switch source {
            case "default": break
            case "current":
                guard let currentFEN else { return .failure(BenchArgumentError("bench: no current position")) }
                settings.positions = [currentFEN]
            default: settings.positions = try positions(inFile: source).get()
            }
        } catch {
            return .failure(error)
        }
        return .success(settings)
    }

    /// The FENs of a positions file: one per line; empty lines and `#` comments skipped; an
    /// EPD's operations after the FEN's fields (`bm ...;`) ignored.
    static func positions(inFile path: String) -> Result<[String], BenchArgumentError> {
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path, limit: 16 << 20) } catch {
            return .failure(BenchArgumentError("bench: cannot read positions file \(path): \(error.description)"))
        }
        var fens: [String] = []
        // Lines split on bytes: "\r\n" is one Character in a Swift string.
        for (number, line) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 }
            let text = String(decoding: line.drop(while: blank).reversed().drop(while: blank).reversed(), as: UTF8.self)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = text.split(separator: " ")
            var fen: String?
            for count in stride(from: min(6, fields.count), through: 2, by: -1) {
                let candidate = fields.prefix(count).joined(separator: " ")
                if (try? Position(fen: candidate)) != nil {
                    fen = candidate
                    break
                }
            }
            guard let fen else {
                return .failure(BenchArgumentError("bench: \(path) line \(number + 1) is not a FEN: \(String(text.prefix(80)))"))
            }
            fens.append(fen)
        }
        guard !fens.isEmpty else { return .failure(BenchArgumentError("bench: \(path) holds no position")) }
        return .success(fens)
    }
}

/// Why `bench`'s arguments were refused, in words for a message.
public struct BenchArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
