// A practice game between two levels, written only against the public library API, as a phone
// app's offline practice mode would use it: the engine in-process with its built-in book and
// network (nothing to bundle or find), a clock per side, a hint for the weaker side before each
// of its moves, an evaluation bar that a companion engine computes while the engine thinks, the
// win/draw/loss chances after each move, and a review of the game at the end (the match
// history's replay screen). Everything through the async API. Built by CI, and run there to a
// legal game end.
//   swift run -c release practice-game [BOOK_PATH|<built-in>] [MAX_PLIES]
// Prints each move in ICCS and Chinese notation with the mover's chances and the bar, "result:
// ..." at the game's end, then the review's accuracy and marked moves.
import XiangqiBook
import XiangqiCore
import XiangqiEngine
import XiangqiSearch

let arguments = CommandLine.arguments.dropFirst()
let bookName = arguments.first ?? OpeningBook.builtInName
let maxPlies = arguments.dropFirst().first.flatMap { Int($0) } ?? 2000

// Red plays at level 12, Black at level 6; each has its own engine (own table, own level).
let red = Engine(hashMegabytes: 8), black = Engine(hashMegabytes: 8)
red.skill = SkillLevel(12)
black.skill = SkillLevel(StrengthLadder.level(forElo: 1300))
red.setSeed(1)
black.setSeed(2)
// The hint searches at full strength, with the built-in network (the levels below 20 judge
// with the handcrafted evaluation their ladder was measured with, whatever is set here).
black.setNetwork(NetworkFile.builtIn)
let book = BookPlayer(paths: [bookName])
for warning in book.open() { print(warning) }
book.setSeed(7)

/// The async hint (searched on the engine's thread, cancellable with its task), as an app
/// asks for it from the main actor.
func hintForBlack(_ game: Game) async -> MoveDecision {
    await black.hint(for: game, limits: SearchLimits(depth: 6))
}

// The evaluation bar and the review run on a companion: it shares the network's weights with
// Black's engine and has its own small table, so it works while either engine thinks.
let analyst = black.companion(hashMegabytes: 4)

// Two minutes per side plus one second per move.
var clocks: [Color: Int] = [.red: 120_000, .black: 120_000]
var game = Game()
var status = game.status()
while status == .ongoing && game.moves.count < maxPlies {
    let side = game.position.sideToMove
    let engine = side == .red ? red : black
    if side == .black {
        let hint = await hintForBlack(game)
        print("  hint for Black: \(hint.move.map { game.position.chinese($0) } ?? "none")")
    }
    var limits = SearchLimits()
    limits.clock = SearchLimits.Clock(timeLeft: clocks[side]!, increment: 1000)
    let started = MonotonicInstant.now
    // The bar is computed while the engine decides, as a UI would update it during the move.
    async let bar = analyst.evaluation(of: game, limits: SearchLimits(depth: 6))
    let decision = await engine.decide(MoveRequest(game: game, limits: limits), book: book)
    clocks[side]! += 1000 - started.millisecondsElapsed
    let redBar = await bar
    guard let move = decision.move else { break }
    let number = game.moves.count / 2 + 1
    let chances = decision.chances
    print("\(number)\(side == .red ? "." : "...") \(move.iccs) \(game.position.chinese(move))"
          + "  W/D/L \(chances.win)/\(chances.draw)/\(chances.loss)\(decision.book != nil ? "  (book)" : "")"
          + "  bar \(redBar.redChances.win)/\(redBar.redChances.draw)/\(redBar.redChances.loss)")
    try game.play(move)
    status = game.status()
}
print(status == .ongoing ? "stopped after \(game.moves.count) plies" : "result: \(status)")

/// The review for the match history: each move against the best one, an accuracy per side
/// (async, on the companion's thread; an app shows `progress` as a bar).
func reviewGame(_ game: Game) async -> GameReview {
    await analyst.review(game, limits: SearchLimits(nodes: 20_000)) { progress in
        if progress.judged == progress.total { print("reviewed \(progress.total) moves") }
    }
}
let review = await reviewGame(game)
for side in [Color.red, .black] {
    let accuracy = review.accuracy(of: side).map { "\(Int($0.rounded()))" } ?? "-"
    print("\(side == .red ? "Red (level 12)" : "Black (level 6)"): accuracy \(accuracy), "
          + "\(review.count(of: .inaccuracy, for: side)) inaccuracies, \(review.count(of: .mistake, for: side)) mistakes, "
          + "\(review.count(of: .blunder, for: side)) blunders")
}
for judgement in review.moves where judgement.moveClass >= .mistake {
    print("  ply \(judgement.ply + 1): \(judgement.move.iccs)\(judgement.moveClass.annotation ?? "") "
          + "(best \(judgement.bestMove?.iccs ?? "-"), loses \(Int((judgement.loss * 100).rounded())) points in 100)")
}
