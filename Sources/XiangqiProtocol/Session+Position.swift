import XiangqiCodec
import XiangqiCore

/// `position`, `banmoves` and the moves of `searchmoves`: the game the next `go` plays, read
/// in the GUI's rank numbering.
extension Session {
    func setPosition(_ args: [String]) {
        lock.withLock { searchedThisPosition = false }
        bannedMoves = []
        switch parsePosition(args) {
        case .unchanged: break
        case .invalid: game = nil
        case .game(let parsed): game = parsed
        }
    }

    enum ParsedPosition {
        /// Nothing usable was given: keep the current position.
        case unchanged
        /// A bad FEN: no valid position.
        case invalid
        case game(Game)
    }

    /// Reads `startpos|fen <FEN> [moves ...]` and reports problems. Moves are played up to
    /// the first illegal one.
    func parsePosition(_ args: [String]) -> ParsedPosition {
        var message: String?
        guard let command = PositionCommand(args, message: &message) else {
            if let message { inform(message) }
            return .unchanged
        }
        var start = Position.start
        if case .fen(let fen) = command.start {
            do {
                start = try Position(fen: fen)
            } catch {
                inform("invalid FEN (\(error)): '\(fen)'; no position is set")
                return .invalid
            }
        }
        let moveTokens = command.moveWords
        guard case .read(let reading) = MoveListReading.game(moveTokens, from: start, known: rankNumbering) else {
            inform("moves legal with ranks 0-9 and with ranks 1-10 alike, and no earlier command showed "
                + "which the GUI uses: no position is set (send the game from its start)")
            return .invalid
        }
        if reading.numberingIsShown { rankNumbering = reading.numbering }
        var result = Game(start)
        for move in reading.moves { try? result.play(move) }
        if let index = reading.unread.first {
            inform("illegal move '\(moveTokens[index])' (move \(index + 1) of the list) refused; "
                + "position kept after move \(index)")
        }
        return .game(result)
    }

    /// Reads the moves of `searchmoves` or `banmoves` (named `command` in messages) in
    /// `position`: all in one numbering, the session's when the list reads both ways;
    /// unreadable ones are reported and left out. `nil` when the numbering cannot be told.
    func readChoices(_ tokens: [String], in position: Position, command: String) -> [Move]? {
        guard case .read(let reading) = MoveListReading.choices(tokens, in: position, known: rankNumbering) else {
            inform("\(command): moves legal with ranks 0-9 and with ranks 1-10 alike, and no earlier command "
                + "showed which the GUI uses: \(command) ignored")
            return nil
        }
        if reading.numberingIsShown { rankNumbering = reading.numbering }
        for index in reading.unread { inform("\(command): '\(tokens[index])' is not a legal move here, ignored") }
        return reading.moves
    }

    /// A move as the GUI expects to read it.
    func text(_ move: Move) -> String { MoveText.format(move, numbering) }

    /// The rank numbering of the replies: the GUI's, 0-9 until its moves show one.
    var numbering: RankNumbering { rankNumbering ?? .zeroBased }

    func banMoves(_ args: [String]) {
        guard let position = game?.position else {
            inform("no valid position to ban moves in")
            return
        }
        bannedMoves = readChoices(args, in: position, command: "banmoves") ?? []
    }
}
