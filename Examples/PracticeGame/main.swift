// A practice game between two levels, written only against the public library API, as a phone
// app's offline practice mode would use it: the engine in-process with its built-in book and
// network (nothing to bundle or find), a clock per side, a hint for the weaker side before each of its moves, and the
// win/draw/loss chances after each move. Built by CI, and run there to a legal game end.
//   swift run -c release practice-game [BOOK_PATH|<built-in>] [MAX_PLIES]
// Prints each move in ICCS and Chinese notation with the mover's chances, and "result: ..."
// at the game's end.
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
    let decision = await engine.decide(MoveRequest(game: game, limits: limits), book: book)
    clocks[side]! += 1000 - started.millisecondsElapsed
    guard let move = decision.move else { break }
    let number = game.moves.count / 2 + 1
    let chances = decision.chances
    print("\(number)\(side == .red ? "." : "...") \(move.iccs) \(game.position.chinese(move))"
          + "  W/D/L \(chances.win)/\(chances.draw)/\(chances.loss)\(decision.book != nil ? "  (book)" : "")")
    try game.play(move)
    status = game.status()
}
print(status == .ongoing ? "stopped after \(game.moves.count) plies" : "result: \(status)")
