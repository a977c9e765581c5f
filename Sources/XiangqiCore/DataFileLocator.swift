#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the engine's data files (the default book, the default network) without
/// configuration, wherever the engine is started from.
public enum DataFileLocator {
    /// `$environment` if set, else the first readable file among `D/folder/name` and
    /// `D/share/xiangqi/name` for `D` the executable's directory and its parents up to four
    /// levels (so the source tree's folders are found from `.build/<triple>/release`, and
    /// `PREFIX/share/xiangqi/` from `PREFIX/bin`). The working directory plays no part: GUIs
    /// start engines from anywhere.
    public static func find(_ name: String, folder: String, environment: String,
                            executable: String? = executablePath()) -> String? {
        if let env = getenv(environment) { return String(cString: env) }
        guard var directory = executable.map(parent) else { return nil }
        for _ in 0...4 {
            for candidate in ["\(directory)/\(folder)/\(name)", "\(directory)/share/xiangqi/\(name)"]
            where access(candidate, R_OK) == 0 {
                return candidate
            }
            let up = parent(directory)
            if up == directory { break }
            directory = up
        }
        return nil
    }

    /// The running executable's absolute path (symbolic links resolved), if the system says.
    public static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return CommandLine.arguments.first.flatMap { realpath($0, nil) }.map { p in
            defer { free(p) }
            return String(cString: p)
        }
        #endif
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
