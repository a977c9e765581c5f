import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

/// The options both dialects offer, their announcements and how `setoption` changes them.
struct ProtocolOptions {
    var useMillisec = true
    var batch = false
    var debug = false
    var ponder = false
    var useHash = true
    var showWDL = false
    var moveOverhead = 10
    var idle = "none"
    var pruning = "large"
    var knowledge = "large"
    var randomness = "none"
    var style = "normal"
    var contempt = 0

    static let levels = ["none", "small", "medium", "large"]
    static let randomnessLevels = ["none", "tiny", "small", "medium", "large", "huge"]
    static let styles = ["solid", "normal", "risky"]
    static let maxHash = 4096
    static let maxMultiPV = 10
    var skillLevel = 20
    var limitStrength = false
    var elo = StrengthLadder.maximumElo

    /// The level in force: `UCI_Elo` through the ladder when strength is limited, else `Skill Level`.
    var effectiveLevel: Int { limitStrength ? StrengthLadder.level(forElo: elo) : skillLevel }

    /// The option lines sent in the handshake.
    static func announcements(_ dialect: Session.Dialect, bookFiles: [String]) -> [String] {
        let files = bookFiles.isEmpty ? "<empty>" : bookFiles.joined(separator: ";")
        let selection = BookSelection()
        if dialect == .ucci {
            return [
                "option usemillisec type check default true",
                "option batch type check default false",
                "option debug type check default false",
                "option ponder type check default false",
                "option usehash type check default true",
                "option hashsize type spin min 1 max \(maxHash) default \(Engine.defaultHashMegabytes)",
                "option threads type spin min 1 max \(Engine.maximumThreads) default 1",
                "option idle type combo var none var small var medium var large default none",
                "option promotion type check default false",
                "option pruning type combo var none var small var medium var large default large",
                "option knowledge type combo var none var small var medium var large default large",
                "option randomness type combo var none var tiny var small var medium var large var huge default none",
                "option style type combo var solid var normal var risky default normal",
                "option contempt type spin min -100 max 100 default 0",
                "option usebook type check default true",
                "option bookfiles type string default \(files)",
                "option bookvariety type spin min 0 max 100 default \(selection.variety)",
                "option bookdepth type spin min 0 max 200 default \(selection.maxPly)",
                "option bookmingames type spin min 1 max 1000000 default \(selection.minGames)",
                "option seed type spin min 0 max 2147483647 default 0",
                "option skill type spin min 0 max 20 default 20",
                "option limitstrength type check default false",
                "option elo type spin min \(StrengthLadder.minimumElo) max \(StrengthLadder.maximumElo) default \(StrengthLadder.maximumElo)",
                "option showwdl type check default false",
                "option newgame type button",
            ]
        }
        return [
            "option name Hash type spin default \(Engine.defaultHashMegabytes) min 1 max \(maxHash)",
            "option name Threads type spin default 1 min 1 max \(Engine.maximumThreads)",
            "option name MultiPV type spin default 1 min 1 max \(maxMultiPV)",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default \(StrengthLadder.maximumElo) min \(StrengthLadder.minimumElo) max \(StrengthLadder.maximumElo)",
            "option name Ponder type check default false",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name Clear Hash type button",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_Variant type combo default xiangqi var xiangqi",
            "option name Contempt type spin default 0 min -100 max 100",
            "option name OwnBook type check default true",
            "option name BookFile type string default \(files)",
            "option name BookVariety type spin default \(selection.variety) min 0 max 100",
            "option name BookDepth type spin default \(selection.maxPly) min 0 max 200",
            "option name BookMinGames type spin default \(selection.minGames) min 1 max 1000000",
            "option name Seed type spin default 0 min 0 max 2147483647",
        ]
    }

    /// Applies `setoption`; returns messages for the GUI (bad values, clamping, unknown names).
    /// The evaluation-noise seed (UCCI `randomness`): derived from `Seed`, so that a seeded
    /// game replays with its noise; with `Seed` 0, a random one.
    static func noiseSeed(for seed: UInt64) -> UInt64 {
        seed == 0 ? UInt64.random(in: 1...UInt64.max) : (seed &+ 0x5DEE_CE66) &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    mutating func set(name: String, value: String, session: Session) -> [String] {
        let key = name.lowercased().filter { $0 != " " && $0 != "_" }
        var messages: [String] = []
        func flag(_ current: Bool) -> Bool {
            switch value.lowercased() {
            case "true", "on": return true
            case "false", "off": return false
            default:
                messages.append("option \(name): '\(value)' is not true or false; kept \(current)")
                return current
            }
        }
        func spin(_ current: Int, _ range: ClosedRange<Int>) -> Int {
            switch ProtocolNumber.read(value, in: range) {
            case .value(let n):
                return n
            case .clamped(let n):
                messages.append("option \(name): \(value) is out of range \(range.lowerBound)-\(range.upperBound); using \(n)")
                return n
            case .invalid:
                messages.append("option \(name): '\(value)' is not a number; kept \(current)")
                return current
            }
        }
        func combo(_ current: String, _ choices: [String]) -> String {
            let v = value.lowercased()
            guard choices.contains(v) else {
                messages.append("option \(name): '\(value)' is not one of \(choices.joined(separator: "/")); kept \(current)")
                return current
            }
            return v
        }
        let engine = session.engine
        switch key {
        case "hash", "hashsize":
            let mb = value == "0" ? Engine.defaultHashMegabytes : spin(engine.hashMegabytes, 1...Self.maxHash)
            engine.setHashSize(megabytes: mb)
        case "threads":
            // 0 ("as many as you like" in some GUIs) is taken as 1.
            engine.setThreadCount(value == "0" ? 1 : spin(engine.threadCount, 1...Engine.maximumThreads))
        case "multipv":
            engine.searchOptions.multiPV = spin(engine.searchOptions.multiPV, 1...Self.maxMultiPV)
        case "skilllevel", "skill":
            skillLevel = spin(skillLevel, 0...20)
            engine.skill = SkillLevel(effectiveLevel)
        case "ucilimitstrength", "limitstrength":
            limitStrength = flag(limitStrength)
            engine.skill = SkillLevel(effectiveLevel)
        case "ucielo", "elo":
            elo = spin(elo, StrengthLadder.minimumElo...StrengthLadder.maximumElo)
            engine.skill = SkillLevel(effectiveLevel)
        case "clearhash":
            engine.newGame()
        case "newgame":
            engine.newGame()
            session.book.newGame()
        case "ponder": ponder = flag(ponder)
        case "moveoverhead": moveOverhead = spin(moveOverhead, 0...5000)
        case "ucishowwdl", "showwdl": showWDL = flag(showWDL)
        case "ucivariant":
            if value.lowercased() != "xiangqi" { messages.append("option UCI_Variant: only xiangqi is played; kept xiangqi") }
        case "usemillisec": useMillisec = flag(useMillisec)
        case "batch": batch = flag(batch)
        case "debug": debug = flag(debug)
        case "usehash": useHash = flag(useHash)
        case "idle": idle = combo(idle, Self.levels)  // the Threads option decides how many cores are used
        case "promotion":
            if flag(false) { messages.append("option promotion: the promotion variant is not supported; kept false") }
        case "pruning":
            pruning = combo(pruning, Self.levels)
            engine.searchOptions.pruning = pruning != "none"
        case "knowledge":
            knowledge = combo(knowledge, Self.levels)
            engine.evaluator.knowledge = knowledge == "none" ? .material : knowledge == "small" ? .tables : .full
        case "randomness":
            randomness = combo(randomness, Self.randomnessLevels)
            let amplitudes = ["none": 0, "tiny": 5, "small": 10, "medium": 20, "large": 40, "huge": 80]
            engine.evaluator.noiseAmplitude = amplitudes[randomness] ?? 0
            engine.evaluator.noiseSeed = Self.noiseSeed(for: session.book.seed)
        case "style":
            style = combo(style, Self.styles)
            contempt = style == "solid" ? -15 : style == "risky" ? 25 : 0
            engine.searchOptions.contempt = contempt
        case "contempt":
            contempt = spin(contempt, -100...100)
            engine.searchOptions.contempt = contempt
        // Search experiments (not announced): switch one selective rule off to measure it.
        case "nullmove": engine.searchOptions.nullMove = flag(engine.searchOptions.nullMove)
        case "latemovereductions": engine.searchOptions.lateMoveReductions = flag(engine.searchOptions.lateMoveReductions)
        case "futility": engine.searchOptions.futility = flag(engine.searchOptions.futility)
        case "reversefutility": engine.searchOptions.reverseFutility = flag(engine.searchOptions.reverseFutility)
        case "loadbook", "repetition", "drawmoves", "selectivity":
            break  // old UCCI names, accepted and ignored as the specification advises
        case "usebook", "ownbook": session.book.enabled = flag(session.book.enabled)
        case "bookfiles", "bookfile":
            // Several files separated by ';' (UCCI's bookfiles); "<empty>" or nothing: no book.
            let trimmed = value.trimmingCharacters(in: " ")
            let files = trimmed == "<empty>" ? [] : trimmed.split(separator: ";").map {
                String($0).trimmingCharacters(in: " ")
            }.filter { !$0.isEmpty }
            messages += session.book.setPaths(files)
        case "bookvariety": session.book.selection.variety = spin(session.book.selection.variety, 0...100)
        case "bookdepth": session.book.selection.maxPly = spin(session.book.selection.maxPly, 0...200)
        case "bookmingames": session.book.selection.minGames = spin(session.book.selection.minGames, 1...1_000_000)
        case "seed":
            let seed = spin(Int(session.book.seed), 0...Int(Int32.max))
            session.book.setSeed(UInt64(seed))
            engine.setSeed(UInt64(seed))
            engine.evaluator.noiseSeed = Self.noiseSeed(for: UInt64(seed))
        default:
            messages.append("unknown option '\(name)' ignored")
        }
        return messages
    }
}

extension String {
    /// Without leading and trailing copies of `character`.
    func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self).drop { $0 == character }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
