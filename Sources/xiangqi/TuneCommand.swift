import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore
import XiangqiSearch
import XiangqiTraining

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Fit the evaluation weights to game results (Texel method); prints the new weights.",
        discussion: """
            Reads one game per line: 'RESULT<TAB>ICCS moves' (1-0, 0-1, 1/2-1/2). Every tenth game is held \
            out to check the fit.

            Example: xiangqi tune games.tsv
            """
    )

    @Argument(help: "Game files.")
    var files: [String]

    @Option(help: "Adam steps over all samples.")
    var epochs = 300

    @Option(help: "Use every N-th position of a game (from ply 10).")
    var stride = 3

    @Flag(help: "Keep the material weights: master games rarely show an imbalance, so results fit them poorly.")
    var keepMaterial = false

    @Flag(help: "Fit the piece-square tables too (left-right symmetric, middlegame and endgame for each piece).")
    var tables = false

    @Option(help: "With --tables: keep the entries of squares that fewer than this share of the positions use.")
    var rareShare = 0.01

    @Option(help: "With --tables: write the fitted tables as Swift source to this file (Sources/XiangqiSearch/PieceSquareTables.swift).")
    var writeTables: String?

    func run() throws {
        var tuner = Tuner(tunesTables: tables)
        var games = 0, skipped = 0
        var holdout: [Tuner.Sample] = []
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CommandFailure("cannot read \(file)")
            }
            for (n, line) in text.split(separator: "\n").enumerated() {
                let fields = line.split(separator: "\t")
                let result: Double
                switch fields.first {
                case "1-0": result = 1
                case "0-1": result = 0
                case "1/2-1/2": result = 0.5
                default: skipped += 1; continue
                }
                guard fields.count == 2 else { skipped += 1; continue }
                let moves = fields[1].split(separator: " ").map(String.init)
                if n % 10 == 9 {
                    var side = Tuner(tunesTables: tables)
                    if side.addGame(moves: moves, result: result, stride: stride) { holdout += side.samples }
                } else if tuner.addGame(moves: moves, result: result, stride: stride) {
                    games += 1
                } else {
                    skipped += 1
                }
            }
        }
        let training = 0..<tuner.samples.count
        print("games \(games) (skipped \(skipped)), training positions \(tuner.samples.count), held out \(holdout.count)")
        tuner.fitScale(training)
        func heldOutLoss() -> Double { tuner.loss(of: holdout) }
        print("scale K = \(tuner.scale); loss before: training \(tuner.loss(training)), held out \(heldOutLoss())")
        // The material weights come first, two per piece kind (advisor to soldier).
        let rare = tuner.rareTableEntries(share: rareShare)
        if tables { print("piece-square entries fitted: \(tuner.weights.count - EvalParameter.allCases.count - rare.count), kept: \(rare.count)") }
        let frozen: Set<Int> = (keepMaterial ? Set(0..<12) : []).union(rare)
        tuner.optimize(training, epochs: epochs, frozen: frozen) { epoch, loss in
            if epoch % 50 == 0 { print("epoch \(epoch): training loss \(loss)") }
        }
        print("loss after: training \(tuner.loss(training)), held out \(heldOutLoss())")
        for p in EvalParameter.allCases {
            print("\(p): \(EvalParameter.defaults[p.rawValue]) -> \(Int(tuner.weights[p.rawValue].rounded()))")
        }
        if let fitted = tuner.tables {
            let source = Self.tableSource(fitted, command: CommandLine.arguments.dropFirst().joined(separator: " "))
            if let writeTables {
                guard let file = fopen(writeTables, "w") else { throw CommandFailure("cannot write \(writeTables)") }
                fputs(source, file)
                fclose(file)
                print("tables written to \(writeTables)")
            } else {
                print(source)
            }
        }
    }

    /// The Swift source of ``PieceSquareTables`` holding `tables`.
    static func tableSource(_ tables: (middlegame: [[Int]], endgame: [[Int]]), command: String) -> String {
        func rows(_ table: [Int]) -> String {
            (0..<10).map { r in
                "            " + (0..<9).map { f in
                    let v = String(table[r * 9 + f])
                    return String(repeating: " ", count: max(0, 4 - v.count)) + v + ","
                }.joined(separator: " ")
            }.joined(separator: "\n")
        }
        func list(_ name: String, _ all: [[Int]]) -> String {
            "    public static let \(name): [[Int]] = [\n" + PieceKind.allCases.map { kind in
                "        // \(kind)\n        [\n" + rows(all[kind.index]) + "\n        ],"
            }.joined(separator: "\n") + "\n    ]\n"
        }
        return """
        // Generated by `xiangqi \(command)` (see bench/tuning.md); do not edit by hand.
        import XiangqiCore

        /// Piece-square bonuses in centipawns, fitted to master-game results with the evaluation
        /// weights. Drawn from red's side with rank 9 (black's back rank) as the first row; black
        /// reads them through the rank mirror. Squares a piece never stands on keep their
        /// earlier values.
        public enum PieceSquareTables {
            /// Middlegame tables by ``PieceKind`` index.
        \(list("middlegame", tables.middlegame))
            /// Endgame tables by ``PieceKind`` index.
        \(list("endgame", tables.endgame))
            /// Squares of one half of the board (files a-e of each rank): the tuner's table size.
            public static let halfSquares = 50

            /// The row-major index into the tables for a piece of `color` on `square`.
            @inline(__always)
            public static func index(_ color: Color, _ square: Square) -> Int {
                let s = color == .red ? square : square.mirroredRanks
                return (9 - s.rank) * 9 + s.file
            }
        }

        """
    }
}
