import XiangqiCore

/// The evaluation's tunable weights, each applied to one feature of the position in either
/// the middlegame or the endgame half of the tapered score.
///
/// The evaluation is linear in these weights (plus fixed piece-square tables), so a tuner
/// can extract each position's feature counts once and fit the weights to game results
/// (see `bench/tuning.md`).
public enum EvalParameter: Int, CaseIterable, Sendable {
    case advisorMiddlegame, advisorEndgame
    case elephantMiddlegame, elephantEndgame
    case horseMiddlegame, horseEndgame
    case chariotMiddlegame, chariotEndgame
    case cannonMiddlegame, cannonEndgame
    case soldierMiddlegame, soldierEndgame
    /// Per square a chariot, horse or cannon can move to.
    case chariotMobilityMiddlegame, chariotMobilityEndgame
    case horseMobilityMiddlegame, horseMobilityEndgame
    case cannonMobilityMiddlegame, cannonMobilityEndgame
    /// A horse with at most one move.
    case trappedHorse
    /// Per missing advisor, times the enemy's chariots and horses.
    case missingAdvisorAgainstAttackers
    /// Per missing elephant, times the enemy's cannons.
    case missingElephantAgainstCannons
    /// A cannon on the enemy king's file with nothing between ("empty cannon").
    case emptyCentralCannon
    /// A cannon on the enemy king's file with exactly two pieces between (ready to fire).
    case centralCannonBehindScreens
    /// A cannon on the enemy's back rank aimed along it at the king ("bottom cannon").
    case bottomCannon
    /// Both advisors present and guarding each other.
    case connectedAdvisors
    /// Both elephants present and guarding each other.
    case connectedElephants
    /// A soldier across the river, next to the enemy palace's files (endgame pressure).
    case soldierNearPalace
    /// A chariot on a file with no own soldier ahead of it that reaches the enemy half.
    case chariotOnOpenFile
    /// The side to move's bonus.
    case tempo
    /// An enemy chariot attacked by a horse, cannon, soldier, advisor or elephant.
    case chariotThreatenedByLesser
    /// An enemy horse or cannon attacked by a soldier, advisor or elephant.
    case minorThreatenedBySoldier
    /// An enemy chariot, horse or cannon attacked and not defended.
    case hangingMajor
    /// An enemy soldier, advisor or elephant attacked and not defended.
    case hangingMinor
    /// Per square from which a chariot, horse or cannon could check the enemy king, that it
    /// can reach and the enemy does not attack.
    case safeChariotCheck
    case safeHorseCheck
    case safeCannonCheck
    /// Per enemy palace square attacked, by each chariot, horse, cannon and soldier.
    case palaceAttacks
    /// The square of the number of chariots, horses, cannons and soldiers attacking the enemy palace.
    case palaceAttackersSquared

    /// Whether the weight belongs to the endgame half of the tapered score (otherwise middlegame).
    public var isEndgame: Bool {
        switch self {
        case .advisorEndgame, .elephantEndgame, .horseEndgame, .chariotEndgame, .cannonEndgame,
             .soldierEndgame, .chariotMobilityEndgame, .horseMobilityEndgame, .cannonMobilityEndgame,
             .soldierNearPalace:
            true
        default:
            false
        }
    }

    /// The weights in use (centipawns), the result of the tuning described in `bench/tuning.md`.
    public static let defaults: [Int] = {
        var w = [Int](repeating: 0, count: allCases.count)
        func set(_ p: EvalParameter, _ v: Int) { w[p.rawValue] = v }
        set(.advisorMiddlegame, 53); set(.advisorEndgame, 63)
        set(.elephantMiddlegame, 206); set(.elephantEndgame, 98)
        set(.horseMiddlegame, 219); set(.horseEndgame, 369)
        set(.chariotMiddlegame, 613); set(.chariotEndgame, 1135)
        set(.cannonMiddlegame, 354); set(.cannonEndgame, 495)
        set(.soldierMiddlegame, 49); set(.soldierEndgame, 136)
        set(.chariotMobilityMiddlegame, 4); set(.chariotMobilityEndgame, 4)
        set(.horseMobilityMiddlegame, 9); set(.horseMobilityEndgame, 19)
        set(.cannonMobilityMiddlegame, 3); set(.cannonMobilityEndgame, 3)
        set(.trappedHorse, -1)
        set(.missingAdvisorAgainstAttackers, -39)
        set(.missingElephantAgainstCannons, 0)
        set(.emptyCentralCannon, 17)
        set(.centralCannonBehindScreens, 28)
        set(.bottomCannon, 25)
        set(.connectedAdvisors, -8)
        set(.connectedElephants, 9)
        set(.soldierNearPalace, 123)
        set(.chariotOnOpenFile, 5)
        set(.tempo, 22)
        set(.chariotThreatenedByLesser, 16)
        set(.minorThreatenedBySoldier, 32)
        set(.hangingMajor, 43)
        set(.hangingMinor, 16)
        set(.safeChariotCheck, 42)
        set(.safeHorseCheck, 49)
        set(.safeCannonCheck, 22)
        set(.palaceAttacks, -4)
        set(.palaceAttackersSquared, 9)
        return w
    }()
}

/// Receives feature counts from the evaluation walk.
protocol EvalSink {
    /// `count` occurrences of `parameter` for `color`.
    mutating func add(_ parameter: EvalParameter, _ color: Color, _ count: Int)
    /// A fixed (untuned) piece-square bonus for `color`.
    mutating func addTable(_ color: Color, middlegame: Int, endgame: Int)
}

/// Static evaluation of a position in centipawns from the side to move's point of view.
public struct Evaluator: Sendable {
    /// How much of the evaluation is used (UCCI `knowledge`).
    public enum Knowledge: Int, Sendable {
        /// Material only.
        case material
        /// Material and piece-square tables.
        case tables
        /// Everything.
        case full
    }

    /// Weights by ``EvalParameter`` raw value.
    public let weights: [Int]
    /// Which terms are evaluated.
    public var knowledge = Knowledge.full
    /// Half-width in centipawns of a pseudo-random offset added to every evaluation (0: none).
    /// The offset is a hash of the position key and ``noiseSeed``, so it is the same each
    /// time a position is met and the search stays consistent.
    public var noiseAmplitude = 0
    /// Seed of the evaluation noise.
    public var noiseSeed: UInt64 = 0
    /// The network that evaluates instead of the handcrafted terms when set (and
    /// ``knowledge`` is full); searches update its accumulators move by move.
    public var network: Network?

    /// An evaluator with these handcrafted weights (indexed by ``EvalParameter``) and no network.
    public init(weights: [Int] = EvalParameter.defaults) {
        precondition(weights.count == EvalParameter.allCases.count)
        self.weights = weights
    }

    /// The full middlegame phase: chariots count 4, horses and cannons 2 each.
    public static let fullPhase = 32

    /// The game phase, 0 (bare endgame) to ``fullPhase``.
    public static func phase(_ p: Position) -> Int {
        let minors = p.pieces(of: .red, .horse).count + p.pieces(of: .black, .horse).count
            + p.pieces(of: .red, .cannon).count + p.pieces(of: .black, .cannon).count
        let chariots = p.pieces(of: .red, .chariot).count + p.pieces(of: .black, .chariot).count
        return min(2 * minors + 4 * chariots, fullPhase)
    }

    /// The network that evaluates, if any (``network`` with full knowledge).
    public var activeNetwork: Network? { knowledge == .full ? network : nil }

    /// The evaluation for the side to move.
    public func evaluate(_ p: Position) -> Int {
        if let network = activeNetwork { return withNoise(network.evaluate(p), p) }
        var sink = ScoreSink(weights: weights)
        walk(p, into: &sink)
        let phase = Self.phase(p)
        let red = (sink.middlegame * phase + sink.endgame * (Self.fullPhase - phase)) / Self.fullPhase
        return withNoise(p.sideToMove == .red ? red : -red, p)
    }

    /// `score` plus the noise of ``noiseAmplitude`` for `p`.
    @inline(__always)
    func withNoise(_ score: Int, _ p: Position) -> Int {
        guard noiseAmplitude > 0 else { return score }
        var z = p.key ^ noiseSeed
        z = (z ^ (z >> 31)) &* 0x7FB5_D329_728E_A185
        z = (z ^ (z >> 27)) &* 0x81DA_DEF4_BC2D_D44D
        z ^= z >> 33
        return score + Int(z % UInt64(2 * noiseAmplitude + 1)) - noiseAmplitude
    }

    /// The evaluation split by term, red's and black's part in middlegame and endgame units,
    /// for the `eval` debug command.
    public func breakdown(_ p: Position) -> [EvalTerm] {
        var sink = TraceSink(weights: weights)
        walk(p, into: &sink)
        return sink.terms
    }

    /// Feature counts (red minus black, already weighted by phase) per parameter, plus the
    /// fixed part; the evaluation from red's view is `fixed + Σ features[i] * weights[i]`.
    public static func features(_ p: Position) -> (features: [Double], fixed: Double) {
        var sink = FeatureSink()
        Evaluator().walk(p, into: &sink)
        let phase = Double(Self.phase(p)) / Double(fullPhase)
        var result = [Double](repeating: 0, count: EvalParameter.allCases.count)
        for parameter in EvalParameter.allCases {
            let share = parameter.isEndgame ? 1 - phase : parameter.isShared ? 1 : phase
            result[parameter.rawValue] = Double(sink.counts[parameter.rawValue]) * share
        }
        let fixed = Double(sink.tableMiddlegame) * phase + Double(sink.tableEndgame) * (1 - phase)
        return (result, fixed)
    }

    // MARK: - The walk

    /// What one side attacks, for threats and king safety.
    struct AttackMaps {
        /// Every square any piece attacks (defends, for own pieces).
        var all = Bitboard.empty
        /// Squares attacked by soldiers, advisors and elephants.
        var byDefenders = Bitboard.empty
        /// Squares attacked by horses and cannons.
        var byMinors = Bitboard.empty
        /// Squares the chariots, horses and cannons can move to.
        var chariotReach = Bitboard.empty, horseReach = Bitboard.empty, cannonReach = Bitboard.empty
        /// Attacks on enemy palace squares (one per piece and square), and how many pieces make them.
        var palaceAttacks = 0, palaceAttackers = 0
        /// Moves of all chariots, horses and cannons (mobility), and horses with at most one move.
        var chariotMoves = 0, horseMoves = 0, cannonMoves = 0, trappedHorses = 0

        /// No attacks (evaluations without the full knowledge skip the maps).
        static let none = AttackMaps()

        private init() {}

        init(_ p: borrowing Position, _ color: Color) {
            let palace = color == .red ? Evaluator.blackPalace : Evaluator.redPalace
            @inline(__always) func palaceHits(_ a: Bitboard) {
                let n = (a & palace).count
                palaceAttacks &+= n
                if n > 0 { palaceAttackers &+= 1 }
            }
            all = p.attacks(of: Piece(color, .king), at: p.kingSquare(of: color))
            for square in p.pieces(of: color, .advisor) { byDefenders |= p.attacks(of: Piece(color, .advisor), at: square) }
            for square in p.pieces(of: color, .elephant) { byDefenders |= p.attacks(of: Piece(color, .elephant), at: square) }
            for square in p.pieces(of: color, .soldier) {
                let a = p.attacks(of: Piece(color, .soldier), at: square)
                byDefenders |= a
                palaceHits(a)
            }
            let own = p.pieces(of: color)
            for square in p.pieces(of: color, .horse) {
                let a = p.attacks(of: Piece(color, .horse), at: square)
                byMinors |= a
                let moves = a & ~own
                horseReach |= moves
                let n = moves.count
                horseMoves &+= n
                if n <= 1 { trappedHorses &+= 1 }
                palaceHits(a)
            }
            for square in p.pieces(of: color, .cannon) {
                let a = p.attacks(of: Piece(color, .cannon), at: square)
                byMinors |= a
                let moves = p.pseudoTargets(of: Piece(color, .cannon), at: square)
                cannonReach |= moves
                cannonMoves &+= moves.count
                palaceHits(a)
            }
            for square in p.pieces(of: color, .chariot) {
                let a = p.attacks(of: Piece(color, .chariot), at: square)
                all |= a
                let moves = a & ~own
                chariotReach |= moves
                chariotMoves &+= moves.count
                palaceHits(a)
            }
            all |= byDefenders | byMinors
        }
    }

    static let redPalace = Bitboard.palace(.red)
    static let blackPalace = Bitboard.palace(.black)

    func walk<Sink: EvalSink>(_ p: Position, into sink: inout Sink) {
        let maps = knowledge == .full ? (AttackMaps(p, .red), AttackMaps(p, .black)) : (AttackMaps.none, AttackMaps.none)
        for color in Color.allCases {
            let them = color.opponent
            // Material and piece-square tables.
            for kind in PieceKind.allCases {
                for square in p.pieces(of: color, kind) {
                    if kind != .king {
                        // Material: the two weights of each kind follow the kind order.
                        let middlegame = EvalParameter(rawValue: 2 * (kind.index - 1)).unsafelyUnwrapped
                        sink.add(middlegame, color, 1)
                        sink.add(EvalParameter(rawValue: middlegame.rawValue + 1).unsafelyUnwrapped, color, 1)
                    }
                    if knowledge == .material { continue }
                    let i = PieceSquareTables.index(color, square)
                    sink.addTable(color, middlegame: PieceSquareTables.middlegame[kind.index][i],
                                  endgame: PieceSquareTables.endgame[kind.index][i])
                }
            }
            if knowledge != .full { continue }

            // Mobility (counted with the attack maps).
            let ours = color == .red ? maps.0 : maps.1, theirs = color == .red ? maps.1 : maps.0
            sink.add(.chariotMobilityMiddlegame, color, ours.chariotMoves)
            sink.add(.chariotMobilityEndgame, color, ours.chariotMoves)
            sink.add(.horseMobilityMiddlegame, color, ours.horseMoves)
            sink.add(.horseMobilityEndgame, color, ours.horseMoves)
            sink.add(.trappedHorse, color, ours.trappedHorses)
            sink.add(.cannonMobilityMiddlegame, color, ours.cannonMoves)
            sink.add(.cannonMobilityEndgame, color, ours.cannonMoves)
            for square in p.pieces(of: color, .chariot) {
                // Open file: no own soldier ahead on this file.
                let ahead = p.pieces(of: color, .soldier).contains { s in
                    s.file == square.file && (color == .red ? s.rank > square.rank : s.rank < square.rank)
                }
                if !ahead { sink.add(.chariotOnOpenFile, color, 1) }
            }

            // King safety: defenders missing against the attackers that exploit them.
            let missingAdvisors = 2 - p.pieces(of: color, .advisor).count
            let missingElephants = 2 - p.pieces(of: color, .elephant).count
            let enemyAttackers = p.pieces(of: them, .chariot).count + p.pieces(of: them, .horse).count
            sink.add(.missingAdvisorAgainstAttackers, color, missingAdvisors * enemyAttackers)
            sink.add(.missingElephantAgainstCannons, color, missingElephants * p.pieces(of: them, .cannon).count)

            // Cannons aimed at the enemy king.
            let enemyKing = p.kingSquare(of: them)
            let occupied = p.occupied
            for square in p.pieces(of: color, .cannon) {
                if square.file == enemyKing.file {
                    let between = piecesBetween(square, enemyKing, occupied)
                    if between == 0 { sink.add(.emptyCentralCannon, color, 1) }
                    if between == 2 { sink.add(.centralCannonBehindScreens, color, 1) }
                }
                let backRank = color == .red ? 9 : 0
                if square.rank == backRank && enemyKing.rank == backRank && piecesBetween(square, enemyKing, occupied) == 1 {
                    sink.add(.bottomCannon, color, 1)
                }
            }

            // Connected defenders.
            // Two advisors guard each other when one stands on the palace centre.
            let advisors = p.pieces(of: color, .advisor)
            if advisors.count == 2 && advisors.contains(where: { $0.file == 4 }) {
                sink.add(.connectedAdvisors, color, 1)
            }
            // Two elephants guard each other when one step apart with the eye between free.
            let elephants = p.pieces(of: color, .elephant)
            if elephants.count == 2 {
                var rest = elephants
                let a = rest.popFirst(), b = rest.popFirst()
                if abs(a.file - b.file) == 2 && abs(a.rank - b.rank) == 2,
                   let eye = Square(file: (a.file + b.file) / 2, rank: (a.rank + b.rank) / 2),
                   !occupied.contains(eye) {
                    sink.add(.connectedElephants, color, 1)
                }
            }

            // Threats: enemy pieces attacked by lesser ones, or attacked and undefended.
            let theirChariots = p.pieces(of: them, .chariot)
            let theirMinors = p.pieces(of: them, .horse) | p.pieces(of: them, .cannon)
            let theirDefenders = p.pieces(of: them, .soldier) | p.pieces(of: them, .advisor) | p.pieces(of: them, .elephant)
            sink.add(.chariotThreatenedByLesser, color, (theirChariots & (ours.byDefenders | ours.byMinors)).count)
            sink.add(.minorThreatenedBySoldier, color, (theirMinors & ours.byDefenders).count)
            let undefended = ours.all & ~theirs.all
            sink.add(.hangingMajor, color, ((theirChariots | theirMinors) & undefended).count)
            sink.add(.hangingMinor, color, (theirDefenders & undefended).count)

            // King safety: safe checks and attacks on the enemy palace.
            let safe = ~theirs.all
            if ours.chariotReach.isNotEmpty {
                sink.add(.safeChariotCheck, color, (ours.chariotReach & safe & p.checkSquares(.chariot, against: them)).count)
            }
            if ours.horseReach.isNotEmpty {
                sink.add(.safeHorseCheck, color, (ours.horseReach & safe & p.checkSquares(.horse, against: them)).count)
            }
            if ours.cannonReach.isNotEmpty {
                sink.add(.safeCannonCheck, color, (ours.cannonReach & safe & p.checkSquares(.cannon, against: them)).count)
            }
            sink.add(.palaceAttacks, color, ours.palaceAttacks)
            sink.add(.palaceAttackersSquared, color, ours.palaceAttackers * ours.palaceAttackers)

            // Soldiers close to the enemy palace.
            for square in p.pieces(of: color, .soldier) {
                let crossed = color == .red ? square.rank >= 5 : square.rank <= 4
                let deep = color == .red ? square.rank >= 6 : square.rank <= 3
                if crossed && deep && (2...6).contains(square.file) { sink.add(.soldierNearPalace, color, 1) }
            }
        }
        if knowledge == .full { sink.add(.tempo, p.sideToMove, 1) }
    }

    /// Pieces strictly between two squares on one file or rank.
    func piecesBetween(_ a: Square, _ b: Square, _ occupied: Bitboard) -> Int {
        var n = 0
        if a.file == b.file {
            for r in (min(a.rank, b.rank) + 1)..<max(a.rank, b.rank) where occupied.contains(Square(file: a.file, rank: r)!) { n += 1 }
        } else if a.rank == b.rank {
            for f in (min(a.file, b.file) + 1)..<max(a.file, b.file) where occupied.contains(Square(file: f, rank: a.rank)!) { n += 1 }
        }
        return n
    }
}

/// One line of ``Evaluator/breakdown(_:)``.
public struct EvalTerm: Sendable {
    /// The term's name, as `eval` prints it.
    public var name: String
    /// Centipawns for each side in the middlegame and the endgame, before phase blending.
    public var redMiddlegame = 0, redEndgame = 0, blackMiddlegame = 0, blackEndgame = 0
}

struct ScoreSink: EvalSink {
    let weights: [Int]
    var middlegame = 0, endgame = 0
    @inline(__always)
    mutating func add(_ parameter: EvalParameter, _ color: Color, _ count: Int) {
        let v = weights[parameter.rawValue] * (color == .red ? count : -count)
        if parameter.isEndgame { endgame += v } else {
            middlegame += v
            if parameter.isShared { endgame += v }
        }
    }
    @inline(__always)
    mutating func addTable(_ color: Color, middlegame mg: Int, endgame eg: Int) {
        middlegame += color == .red ? mg : -mg
        endgame += color == .red ? eg : -eg
    }
}

extension EvalParameter {
    /// Weights that apply to both halves of the tapered score (counted once in each).
    var isShared: Bool {
        switch self {
        case .trappedHorse, .missingAdvisorAgainstAttackers, .missingElephantAgainstCannons, .emptyCentralCannon,
             .centralCannonBehindScreens, .bottomCannon, .connectedAdvisors, .connectedElephants,
             .chariotOnOpenFile, .tempo, .chariotThreatenedByLesser, .minorThreatenedBySoldier, .hangingMajor,
             .hangingMinor, .safeChariotCheck, .safeHorseCheck, .safeCannonCheck, .palaceAttacks,
             .palaceAttackersSquared:
            true
        default:
            false
        }
    }
}

struct TraceSink: EvalSink {
    let weights: [Int]
    var terms: [EvalTerm] = []
    var index: [String: Int] = [:]

    mutating func term(_ name: String) -> Int {
        if let i = index[name] { return i }
        terms.append(EvalTerm(name: name))
        index[name] = terms.count - 1
        return terms.count - 1
    }

    mutating func add(_ parameter: EvalParameter, _ color: Color, _ count: Int) {
        var name = "\(parameter)"
        for suffix in ["Middlegame", "Endgame"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        let i = term(name)
        let v = weights[parameter.rawValue] * count
        let mg = parameter.isEndgame ? 0 : v
        let eg = parameter.isEndgame || parameter.isShared ? v : 0
        if color == .red {
            terms[i].redMiddlegame += mg; terms[i].redEndgame += eg
        } else {
            terms[i].blackMiddlegame += mg; terms[i].blackEndgame += eg
        }
    }

    mutating func addTable(_ color: Color, middlegame mg: Int, endgame eg: Int) {
        let i = term("pieceSquare")
        if color == .red {
            terms[i].redMiddlegame += mg; terms[i].redEndgame += eg
        } else {
            terms[i].blackMiddlegame += mg; terms[i].blackEndgame += eg
        }
    }
}

struct FeatureSink: EvalSink {
    var counts = [Int](repeating: 0, count: EvalParameter.allCases.count)
    var tableMiddlegame = 0, tableEndgame = 0
    mutating func add(_ parameter: EvalParameter, _ color: Color, _ count: Int) {
        counts[parameter.rawValue] += color == .red ? count : -count
    }
    mutating func addTable(_ color: Color, middlegame mg: Int, endgame eg: Int) {
        tableMiddlegame += color == .red ? mg : -mg
        tableEndgame += color == .red ? eg : -eg
    }
}
