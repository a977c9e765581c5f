import XiangqiBook
import XiangqiCodec
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// The protocol's settings that are not the engine's (timing units, batch mode, output).
struct ProtocolOptions {
    var useMillisec = true
    var batch = false
    var debug = false
    var ponder = false
    var useHash = true
    var showWDL = false
    /// `UCI_AnalyseMode`: the GUI analyses, so the book does not answer `go`.
    var analyseMode = false
    var moveOverhead = SearchLimits.defaultMoveOverhead
    var idle = "none"
    var pruning = "large"
    var knowledge = "large"
    var randomness = "none"
    var style = "normal"
    var contempt = 0
    var skillLevel = 20
    var limitStrength = false
    var elo = StrengthLadder.maximumElo
    /// The network `EvalFile` chose (the engine's choice, with its fallback), and whether it
    /// evaluates (`Use NNUE`).
    var networks = NetworkChoice()
    var useNetwork = true
    /// `EvalFile` as announced: the file of the network in use, or `<built-in>`.
    var evalFile: String { networks.file }
    /// The network in use (`nil`: none loaded yet).
    var network: Network? { networks.network }
    /// Set while the default network (found at start) waits to be loaded: at the first
    /// `isready`, `go` or `eval`, so that start-up to `uciok` stays quick.
    var networkPending = false

    static let levels = EffortLevel.allCases.map(\.rawValue)
    static let randomnessLevels = Randomness.allCases.map(\.rawValue)
    static let styles = PlayingStyle.allCases.map(\.rawValue)
    static let maxHash = 4096
    /// As Stockfish and Pikafish allow (a position rarely has more legal moves).
    static let maxMultiPV = 128

    /// The level in force: `UCI_Elo` through the ladder when strength is limited, else `Skill Level`.
    var effectiveLevel: Int { limitStrength ? StrengthLadder.level(forElo: elo) : skillLevel }

    /// The option lines sent in the handshake, from ``OptionSpec/table``.
    static func announcements(_ dialect: Session.Dialect, bookFiles: [String], evalFile: String) -> [String] {
        OptionSpec.table.compactMap { $0.announcement(dialect, bookFiles: bookFiles, evalFile: evalFile) }
    }

    /// Loads the network `path` names (`<built-in>`, `<empty>` or nothing: the built-in one)
    /// and gives it to the engine if `Use NNUE` is on; returns the messages for the GUI. A
    /// file that cannot be used (missing, truncated, corrupt, another version, not a regular
    /// file) leaves the network in use in place (``NetworkChoice``).
    mutating func loadNetwork(_ path: String, engine: Engine) -> [String] {
        var messages: [String] = []
        networkPending = false
        do {
            try networks.choose(path)
            if let network {
                messages.append("network \(evalFile): accumulator \(network.hidden), \(network.buckets) king bucket(s), "
                                + (network.outputBuckets > 1 ? "\(network.outputBuckets) output buckets, " : "")
                                + "hash \(network.hashText)")
            }
        } catch {
            messages.append("cannot use EvalFile \(path): \(error); network \(network?.hashText ?? "none") stays in use")
        }
        engine.setNetwork(useNetwork ? network : nil)
        return messages
    }

    /// Applies `setoption`; returns messages for the GUI (bad values, clamping, unknown names).
    mutating func set(name: String, value: String, on targets: OptionTargets) -> [String] {
        let key = OptionSpec.normalised(name)
        guard let spec = OptionSpec.table.first(where: { $0.keys.contains(key) }) else {
            return ["unknown option '\(name)' ignored"]
        }
        var messages: [String] = []
        let reader = OptionValue(name: name, text: value)
        spec.apply(&self, targets, reader, &messages)
        return messages
    }
}

/// What options set: the engine (search, evaluation, strength, table, threads) and the
/// opening books. The table's closures see these, not the protocol session.
struct OptionTargets {
    let engine: Engine
    let book: BookPlayer
    let debugLog: DebugLog
}

/// A `setoption` value being read: conversions that say what they did with a bad value.
struct OptionValue {
    let name: String
    let text: String

    func flag(_ current: Bool, _ messages: inout [String]) -> Bool {
        switch text.lowercased() {
        case "true", "on": return true
        case "false", "off": return false
        default:
            messages.append("option \(name): '\(text)' is not true or false; kept \(current)")
            return current
        }
    }

    func spin(_ current: Int, _ range: ClosedRange<Int>, _ messages: inout [String]) -> Int {
        switch ProtocolNumber.read(text, in: range) {
        case .value(let n):
            return n
        case .clamped(let n):
            messages.append("option \(name): \(text) is out of range \(range.lowerBound)-\(range.upperBound); using \(n)")
            return n
        case .invalid:
            messages.append("option \(name): '\(text)' is not a number; kept \(current)")
            return current
        }
    }

    func combo(_ current: String, _ choices: [String], _ messages: inout [String]) -> String {
        let v = text.lowercased()
        guard choices.contains(v) else {
            messages.append("option \(name): '\(text)' is not one of \(choices.joined(separator: "/")); kept \(current)")
            return current
        }
        return v
    }
}

/// One option in both dialects: its names, its type with range and default (what the
/// handshakes announce), and what setting it changes. ``table`` is the only list of options.
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        case check(Bool)
        case spin(ClosedRange<Int>, Int)
        case combo([String], String)
        /// A string whose default is the book files in use.
        case bookFiles
        /// A string whose default is the network file in use.
        case evalFile
        /// A string with a fixed default (written `<empty>` when empty, as Stockfish does).
        case text(String)
        case button
        /// Accepted but not announced (old UCCI names, search experiments).
        case hidden
    }

    /// The UCI and UCCI names (`nil`: not offered in that dialect).
    let uci: String?
    let ucci: String?
    let kind: Kind
    /// Further accepted names.
    var aliases: [String] = []
    /// Reads the value and changes the setting; appends messages for the GUI.
    let apply: @Sendable (inout ProtocolOptions, OptionTargets, OptionValue, inout [String]) -> Void

    /// The names `setoption` accepts, normalised.
    var keys: [String] { ([uci, ucci].compactMap { $0 } + aliases).map(Self.normalised) }

    /// A name as `setoption` matches it: lowercase, without spaces and underscores.
    static func normalised(_ name: String) -> String {
        name.lowercased().filter { $0 != " " && $0 != "_" }
    }

    /// The handshake line for `dialect`, or `nil` when the option is not offered there.
    func announcement(_ dialect: Session.Dialect, bookFiles: [String], evalFile: String) -> String? {
        let files = bookFiles.isEmpty ? "<empty>" : bookFiles.joined(separator: ";")
        if dialect == .ucci {
            guard let name = ucci else { return nil }
            switch kind {
            case .check(let d): return "option \(name) type check default \(d)"
            case .spin(let r, let d): return "option \(name) type spin min \(r.lowerBound) max \(r.upperBound) default \(d)"
            case .combo(let vars, let d): return "option \(name) type combo \(vars.map { "var \($0)" }.joined(separator: " ")) default \(d)"
            case .bookFiles: return "option \(name) type string default \(files)"
            case .evalFile: return "option \(name) type string default \(evalFile)"
            case .text(let d): return "option \(name) type string default \(d.isEmpty ? "<empty>" : d)"
            case .button: return "option \(name) type button"
            case .hidden: return nil
            }
        }
        guard let name = uci else { return nil }
        switch kind {
        case .check(let d): return "option name \(name) type check default \(d)"
        case .spin(let r, let d): return "option name \(name) type spin default \(d) min \(r.lowerBound) max \(r.upperBound)"
        case .combo(let vars, let d): return "option name \(name) type combo default \(d) \(vars.map { "var \($0)" }.joined(separator: " "))"
        case .bookFiles: return "option name \(name) type string default \(files)"
        case .evalFile: return "option name \(name) type string default \(evalFile)"
        case .text(let d): return "option name \(name) type string default \(d.isEmpty ? "<empty>" : d)"
        case .button: return "option name \(name) type button"
        case .hidden: return nil
        }
    }

    /// A check option stored in the protocol settings.
    static func check(_ uci: String?, _ ucci: String?, _ setting: WritableKeyPath<ProtocolOptions, Bool> & Sendable,
                      default value: Bool) -> OptionSpec {
        OptionSpec(uci: uci, ucci: ucci, kind: .check(value)) { options, _, v, m in
            options[keyPath: setting] = v.flag(options[keyPath: setting], &m)
        }
    }

    /// A combo stored in the protocol settings, then `changed` with the new value.
    static func combo(_ ucci: String, _ setting: WritableKeyPath<ProtocolOptions, String> & Sendable, _ choices: [String],
                      default value: String,
                      changed: @escaping @Sendable (inout ProtocolOptions, OptionTargets) -> Void = { _, _ in }) -> OptionSpec {
        OptionSpec(uci: nil, ucci: ucci, kind: .combo(choices, value)) { options, targets, v, m in
            options[keyPath: setting] = v.combo(options[keyPath: setting], choices, &m)
            changed(&options, targets)
        }
    }

    /// A search experiment (not announced): one selective rule on or off, to measure it.
    static func searchRule(_ name: String, _ rule: WritableKeyPath<SearchOptions, Bool> & Sendable) -> OptionSpec {
        OptionSpec(uci: nil, ucci: nil, kind: .hidden, aliases: [name]) { _, targets, v, m in
            targets.engine.searchOptions[keyPath: rule] = v.flag(targets.engine.searchOptions[keyPath: rule], &m)
        }
    }

    /// A tunable search parameter (not announced): an integer in its range, clamped with a
    /// message outside it (``SearchParameters/table``; `xiangqi spsa` sets these).
    static func searchParameter(_ tunable: SearchParameters.Tunable) -> OptionSpec {
        OptionSpec(uci: nil, ucci: nil, kind: .hidden, aliases: [tunable.name]) { _, targets, v, m in
            let current = targets.engine.searchOptions.parameters[keyPath: tunable.keyPath]
            targets.engine.searchOptions.parameters[keyPath: tunable.keyPath] = v.spin(current, tunable.range, &m)
        }
    }

    /// Every option, in the order of the handshakes.
    static let table: [OptionSpec] = [
        OptionSpec(uci: "Hash", ucci: "hashsize", kind: .spin(1...ProtocolOptions.maxHash, Engine.defaultHashMegabytes)) {
            _, targets, v, m in
            let engine = targets.engine
            // 0 (some GUIs' "default") is the default size.
            let mb = v.text == "0" ? Engine.defaultHashMegabytes : v.spin(engine.hashMegabytes, 1...ProtocolOptions.maxHash, &m)
            engine.setHashSize(megabytes: mb)
        },
        OptionSpec(uci: "Threads", ucci: "threads", kind: .spin(1...Engine.maximumThreads, 1)) { _, targets, v, m in
            // 0 ("as many as you like" in some GUIs) is taken as 1.
            let engine = targets.engine
            engine.setThreadCount(v.text == "0" ? 1 : v.spin(engine.threadCount, 1...Engine.maximumThreads, &m))
        },
        OptionSpec(uci: "MultiPV", ucci: nil, kind: .spin(1...ProtocolOptions.maxMultiPV, 1)) { _, targets, v, m in
            targets.engine.searchOptions.multiPV = v.spin(targets.engine.searchOptions.multiPV, 1...ProtocolOptions.maxMultiPV, &m)
        },
        check(nil, "usemillisec", \.useMillisec, default: true),
        check(nil, "batch", \.batch, default: false),
        check(nil, "debug", \.debug, default: false),
        check("Ponder", "ponder", \.ponder, default: false),
        check(nil, "usehash", \.useHash, default: true),
        combo("idle", \.idle, ProtocolOptions.levels, default: "none"),  // Threads decides how many cores are used
        OptionSpec(uci: nil, ucci: "promotion", kind: .check(false)) { _, _, v, m in
            if v.flag(false, &m) { m.append("option promotion: the promotion variant is not supported; kept false") }
        },
        combo("pruning", \.pruning, ProtocolOptions.levels, default: "large") { options, targets in
            targets.engine.searchOptions.pruning = (EffortLevel(rawValue: options.pruning) ?? .large).prunes
        },
        combo("knowledge", \.knowledge, ProtocolOptions.levels, default: "large") { options, targets in
            targets.engine.evaluator.knowledge = (EffortLevel(rawValue: options.knowledge) ?? .large).knowledge
        },
        combo("randomness", \.randomness, ProtocolOptions.randomnessLevels, default: "none") { options, targets in
            targets.engine.setRandomness(Randomness(rawValue: options.randomness) ?? .none, seed: targets.book.seed)
        },
        combo("style", \.style, ProtocolOptions.styles, default: "normal") { options, targets in
            let style = PlayingStyle(rawValue: options.style) ?? .normal
            options.contempt = style.contempt
            targets.engine.setStyle(style)
        },
        OptionSpec(uci: "Contempt", ucci: "contempt", kind: .spin(-100...100, 0)) { options, targets, v, m in
            options.contempt = v.spin(options.contempt, -100...100, &m)
            targets.engine.searchOptions.contempt = options.contempt
        },
        OptionSpec(uci: "Skill Level", ucci: "skill", kind: .spin(0...20, 20)) { options, targets, v, m in
            options.skillLevel = v.spin(options.skillLevel, 0...20, &m)
            targets.engine.skill = SkillLevel(options.effectiveLevel)
        },
        OptionSpec(uci: "UCI_LimitStrength", ucci: "limitstrength", kind: .check(false)) { options, targets, v, m in
            options.limitStrength = v.flag(options.limitStrength, &m)
            targets.engine.skill = SkillLevel(options.effectiveLevel)
        },
        OptionSpec(uci: "UCI_Elo", ucci: "elo",
                   kind: .spin(StrengthLadder.minimumElo...StrengthLadder.maximumElo, StrengthLadder.maximumElo)) {
            options, targets, v, m in
            options.elo = v.spin(options.elo, StrengthLadder.minimumElo...StrengthLadder.maximumElo, &m)
            targets.engine.skill = SkillLevel(options.effectiveLevel)
        },
        OptionSpec(uci: "Move Overhead", ucci: nil, kind: .spin(0...5000, SearchLimits.defaultMoveOverhead)) { options, _, v, m in
            options.moveOverhead = v.spin(options.moveOverhead, 0...5000, &m)
        },
        OptionSpec(uci: "Clear Hash", ucci: nil, kind: .button) { _, targets, _, _ in targets.engine.newGame() },
        check("UCI_ShowWDL", "showwdl", \.showWDL, default: false),
        check("UCI_AnalyseMode", nil, \.analyseMode, default: false),
        OptionSpec(uci: "Debug Log File", ucci: nil, kind: .text("")) { _, targets, v, m in
            if let problem = targets.debugLog.open(v.text.trimmingCharacters(in: " ")) { m.append(problem) }
        },
        OptionSpec(uci: "UCI_Variant", ucci: nil, kind: .combo(["xiangqi"], "xiangqi")) { _, _, v, m in
            if v.text.lowercased() != "xiangqi" { m.append("option UCI_Variant: only xiangqi is played; kept xiangqi") }
        },
        OptionSpec(uci: "OwnBook", ucci: "usebook", kind: .check(true)) { _, targets, v, m in
            targets.book.enabled = v.flag(targets.book.enabled, &m)
        },
        OptionSpec(uci: "BookFile", ucci: "bookfiles", kind: .bookFiles) { _, targets, v, m in
            // Several files separated by ';' (UCCI's bookfiles); "<empty>" or nothing: no book.
            let trimmed = v.text.trimmingCharacters(in: " ")
            let files = trimmed == "<empty>" ? [] : trimmed.split(separator: ";").map {
                String($0).trimmingCharacters(in: " ")
            }.filter { !$0.isEmpty }
            m += targets.book.setPaths(files)
        },
        OptionSpec(uci: "BookVariety", ucci: "bookvariety", kind: .spin(0...100, BookSelection().variety)) { _, targets, v, m in
            targets.book.selection.variety = v.spin(targets.book.selection.variety, 0...100, &m)
        },
        OptionSpec(uci: "BookDepth", ucci: "bookdepth", kind: .spin(0...200, BookSelection().maxPly)) { _, targets, v, m in
            targets.book.selection.maxPly = v.spin(targets.book.selection.maxPly, 0...200, &m)
        },
        OptionSpec(uci: "BookMinGames", ucci: "bookmingames", kind: .spin(1...1_000_000, BookSelection().minGames)) {
            _, targets, v, m in
            targets.book.selection.minGames = v.spin(targets.book.selection.minGames, 1...1_000_000, &m)
        },
        OptionSpec(uci: "EvalFile", ucci: "evalfile", kind: .evalFile) { options, targets, v, m in
            // A network file (xiangqi train); "<built-in>", "<empty>" or nothing: the built-in one.
            m += options.loadNetwork(v.text.trimmingCharacters(in: " "), engine: targets.engine)
        },
        OptionSpec(uci: "Use NNUE", ucci: "usennue", kind: .check(true)) { options, targets, v, m in
            options.useNetwork = v.flag(options.useNetwork, &m)
            if options.networkPending {
                m += options.loadNetwork(options.evalFile, engine: targets.engine)
            } else {
                targets.engine.setNetwork(options.useNetwork ? options.network : nil)
            }
        },
        OptionSpec(uci: "Seed", ucci: "seed", kind: .spin(0...Int(Int32.max), 0)) { _, targets, v, m in
            let seed = UInt64(v.spin(Int(targets.book.seed), 0...Int(Int32.max), &m))
            targets.book.setSeed(seed)
            targets.engine.setSeed(seed)
            targets.engine.evaluator.noiseSeed = Engine.noiseSeed(for: seed)
        },
        OptionSpec(uci: nil, ucci: "newgame", kind: .button) { _, targets, _, _ in
            targets.engine.newGame()
            targets.book.newGame()
        },
        searchRule("nullmove", \.nullMove),
        searchRule("latemovereductions", \.lateMoveReductions),
        searchRule("futility", \.futility),
        searchRule("reversefutility", \.reverseFutility),
    ] + SearchParameters.table.map(searchParameter) + [
        // Old UCCI names, accepted and ignored as the specification advises.
        OptionSpec(uci: nil, ucci: nil, kind: .hidden, aliases: ["loadbook", "repetition", "drawmoves", "selectivity"]) {
            _, _, _, _ in
        },
    ]
}

extension String {
    /// Without leading and trailing copies of `character`.
    func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self).drop { $0 == character }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
