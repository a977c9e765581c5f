import XiangqiSearch

/// Which network evaluates, chosen by file: one `xiangqi train` wrote, or the built-in one.
/// A file that cannot be used leaves the network in use in place (the built-in one if none
/// was chosen yet): the engine never falls back to the handcrafted evaluation unasked.
public struct NetworkChoice: Sendable {
    /// The file of the network in use (`NetworkFile.builtInName` for the built-in one), or,
    /// before any is chosen, the name given at the start.
    public private(set) var file: String
    /// The network in use; `nil` until one is chosen.
    public private(set) var network: Network?

    /// No network chosen yet; `file` names the one to choose first.
    public init(file: String = "<empty>") {
        self.file = file
    }

    /// Whether `path` names the built-in network: nothing, `<empty>` or `<built-in>`.
    public static func namesBuiltIn(_ path: String) -> Bool {
        path.isEmpty || path == "<empty>" || path == NetworkFile.builtInName
    }

    /// Chooses the network `path` names. When the file cannot be used, keeps the network in
    /// use (or chooses the built-in one) and throws why.
    public mutating func choose(_ path: String) throws {
        if Self.namesBuiltIn(path) {
            file = NetworkFile.builtInName
            network = NetworkFile.builtIn
            return
        }
        do {
            network = try NetworkFile.network(atPath: path)
            file = path
        } catch {
            if network == nil {
                network = NetworkFile.builtIn
                file = NetworkFile.builtInName
            }
            throw error
        }
    }
}
