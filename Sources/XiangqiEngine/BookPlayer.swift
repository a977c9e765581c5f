import XiangqiBook
import XiangqiCore

/// Plays from opening books at the root: which files, whether they are used, how moves are
/// chosen. Books open on first use (start-up stays fast); a file that cannot be opened or
/// read is reported once and left out, and play goes on without it. When none of the books
/// asked for can be used, the built-in book is used instead (and the warning says so), so a
/// bad path never leaves the engine without a book. Owned by one thread.
public final class BookPlayer {
    /// Whether book moves are played.
    public var enabled = true
    /// Filters and variety of the choice.
    public var selection = BookSelection()
    /// The files, tried in order: the first with a qualifying move answers.
    /// `OpeningBook.builtInName` stands for the built-in book.
    public private(set) var paths: [String]
    private var books: [OpeningBook]?
    private var random: SeededGenerator
    /// 0: a fresh random seed per game; otherwise choices repeat game after game.
    public private(set) var seed: UInt64 = 0

    /// What a book answered: the move, its record and the file it came from.
    public struct Choice {
        /// The move and its record in the book.
        public let entry: BookMove
        /// The book it came from (a file, or `<built-in>`).
        public let path: String
        /// The most played reply, for `bestmove ... ponder`.
        public let reply: Move?
    }

    /// A player of the books `paths` names (default: the built-in book; empty: none).
    public init(paths: [String] = [OpeningBook.builtInName]) {
        self.paths = paths
        random = SeededGenerator(seed: UInt64.random(in: 1...UInt64.max))
    }

    /// Replaces the book files; returns warnings for files that cannot be used (the others
    /// are opened at once, so a GUI hears about a bad file when it sets it).
    public func setPaths(_ newPaths: [String]) -> [String] {
        paths = newPaths
        books = nil
        return open()
    }

    /// Uses books already opened (for instance from an app's bundled bytes, see
    /// `OpeningBook.init(bytes:name:)`) instead of files; ``paths`` become their names.
    public func setBooks(_ newBooks: [OpeningBook]) {
        paths = newBooks.map(\.path)
        books = newBooks
    }

    /// Sets the seed (0: random) and restarts the sequence of choices.
    public func setSeed(_ newSeed: UInt64) {
        seed = newSeed
        newGame()
    }

    /// Restarts the choice sequence: the same seed gives the same choices in every game.
    public func newGame() {
        random = SeededGenerator(seed: seed != 0 ? seed : UInt64.random(in: 1...UInt64.max))
    }

    /// Opens the files not yet opened; returns a warning per file left out.
    @discardableResult
    public func open() -> [String] {
        guard books == nil else { return [] }
        var opened: [OpeningBook] = []
        var warnings: [String] = []
        for path in paths {
            do { opened.append(try OpeningBook.open(path)) } catch {
                warnings.append("book not used: \(error.description)")
            }
        }
        if opened.isEmpty && !paths.isEmpty {
            if let builtIn = try? OpeningBook.builtIn() {
                opened.append(builtIn)
                warnings.append("no book asked for can be used: the built-in book stays in use")
            }
        }
        books = opened
        return warnings
    }

    /// A book move for `position` among `allowed` (all legal moves if empty), or `nil`; any
    /// problem reading a book is returned as a warning and that book is dropped.
    public func choose(for position: Position, allowed: [Move]) -> (choice: Choice?, warnings: [String]) {
        guard enabled else { return (nil, []) }
        var warnings = open()
        var failed: [Int] = []
        var choice: Choice?
        for (index, book) in (books ?? []).enumerated() {
            do {
                guard let entry = try book.choose(for: position, selection: selection, allowed: allowed,
                                                  using: &random) else { continue }
                var next = position
                _ = next.make(entry.move)
                choice = Choice(entry: entry, path: book.path, reply: try book.moves(for: next).first?.move)
                break
            } catch {
                warnings.append("book dropped: \(error.description)")
                failed.append(index)
            }
        }
        for index in failed.reversed() { books?.remove(at: index) }
        return (choice, warnings)
    }
}
