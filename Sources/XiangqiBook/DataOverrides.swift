#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the default book and network come from: built into the binary, unless an
/// environment variable names a file (`XIANGQI_BOOK`, `XIANGQI_EVALFILE`), for a GUI or a
/// server that cannot set options. An app passes books and networks through the API instead.
public enum DataOverrides {
    /// The book file `$XIANGQI_BOOK` names, if set and not empty.
    public static var bookFile: String? { value(of: "XIANGQI_BOOK") }

    /// The network file `$XIANGQI_EVALFILE` names, if set and not empty.
    public static var networkFile: String? { value(of: "XIANGQI_EVALFILE") }

    static func value(of variable: String) -> String? {
        guard let raw = getenv(variable) else { return nil }
        let text = String(cString: raw)
        return text.isEmpty ? nil : text
    }
}
