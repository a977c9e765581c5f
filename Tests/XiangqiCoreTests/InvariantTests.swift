import Testing
import XiangqiCore
import XiangqiTestSupport

/// Properties checked over seeded random playouts (fixed seeds: the same positions each run).
@Suite struct InvariantTests {
    static let positions = randomPositions(games: 60, plies: 120, seed: 20261121)

    @Test func playoutsProduceManyPositions() {
        #expect(Self.positions.count > 3000)
    }

    @Test func makeUnmakeRestoresPositionAndKey() {
        for p in Self.positions {
            var q = p
            for move in p.legalMoves {
                let undo = q.make(move)
                #expect(q.consistencyError() == nil, "after \(move) in \(p.fen)")
                #expect(q.key == q.computeKey())
                #expect(p.key(after: move) == q.key, "key(after: \(move)) in \(p.fen)")
                q.unmake(move, undo)
                #expect(q.fen == p.fen && q.key == p.key && q.checkers == p.checkers
                        && q.blockers == p.blockers && q.screens == p.screens, "unmake \(move) in \(p.fen)")
            }
        }
    }

    /// `givesCheck` answers, without making the move, what `isInCheck` says after it, for
    /// every legal move of the playouts: checks by the moved piece, checks it discovers by
    /// leaving a line, and cannon checks it makes by landing between cannon and king.
    @Test func givesCheckAgreesWithMakingTheMove() {
        var direct = 0, discovered = 0, screen = 0, quiet = 0
        for p in Self.positions {
            var q = p
            for move in p.legalMoves {
                let undo = q.make(move)
                let checks = q.isInCheck
                #expect(p.givesCheck(move) == checks, "\(move.iccs) in \(p.fen)")
                if !checks {
                    quiet += 1
                } else if q.checkers.contains(move.to) {
                    direct += 1
                } else if q.checkers.contains(where: { Self.lies(move.to, between: $0, and: q.kingSquare(of: q.sideToMove)) }) {
                    screen += 1
                } else {
                    discovered += 1
                }
                q.unmake(move, undo)
            }
        }
        #expect(direct > 1000 && discovered > 50 && screen > 100 && quiet > 100_000,
                "direct \(direct), discovered \(discovered), screen \(screen), no check \(quiet)")
    }

    /// Whether `square` is strictly between `a` and `b` on one rank or file.
    static func lies(_ square: Square, between a: Square, and b: Square) -> Bool {
        if a.rank == b.rank && square.rank == a.rank {
            return min(a.file, b.file) < square.file && square.file < max(a.file, b.file)
        }
        if a.file == b.file && square.file == a.file {
            return min(a.rank, b.rank) < square.rank && square.rank < max(a.rank, b.rank)
        }
        return false
    }

    /// The point sets an app may draw from (`Bitboard.advisorPoints` and the others) have the
    /// board's counts, and every advisor, elephant and soldier of the playouts (moved there by
    /// the generator) stands inside its side's set.
    @Test func piecesStandOnTheirPoints() {
        for color in [Color.red, .black] {
            #expect(Bitboard.advisorPoints(color).count == 5 && Bitboard.elephantPoints(color).count == 7)
            #expect(Bitboard.soldierPoints(color).count == 10 + 45)
            #expect((Bitboard.advisorPoints(color) & ~Bitboard.palace(color)).isEmpty)
            #expect((Bitboard.elephantPoints(color) & ~Bitboard.ownHalf(color)).isEmpty)
        }
        for p in Self.positions {
            for color in [Color.red, .black] {
                #expect((p.pieces(of: color, .advisor) & ~Bitboard.advisorPoints(color)).isEmpty, "\(p.fen)")
                #expect((p.pieces(of: color, .elephant) & ~Bitboard.elephantPoints(color)).isEmpty, "\(p.fen)")
                #expect((p.pieces(of: color, .soldier) & ~Bitboard.soldierPoints(color)).isEmpty, "\(p.fen)")
            }
        }
    }

    @Test func fenRoundTrips() throws {
        for p in Self.positions {
            let q = try Position(fen: p.fen)
            #expect(q.fen == p.fen)
            #expect(q.key == p.key)
            #expect(q.consistencyError() == nil)
        }
    }

    @Test func generatorAgreesWithReference() {
        // Every third playout position (the reference generator is slow in debug builds).
        for p in Self.positions.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            let mine = Set(p.legalMoves.map(\.iccs))
            let reference = ReferenceBoard(p).legalMoves()
            #expect(mine == reference, "\(p.fen): extra \(mine.subtracting(reference)), missing \(reference.subtracting(mine))")
            #expect(p.legalMoveCount == mine.count)
        }
    }

    @Test func pseudoLegalPlusSafetyEqualsLegal() {
        for p in Self.positions.prefix(1500) {
            var captures = MoveList(), quiets = MoveList()
            p.generatePseudoLegal(.captures, into: &captures)
            p.generatePseudoLegal(.quiets, into: &quiets)
            let filtered = Set((Array(captures) + Array(quiets)).filter { p.isPseudoLegalMoveSafe($0) })
            #expect(filtered == Set(p.legalMoves))
            #expect(captures.allSatisfy { !p.piece(at: $0.to).isNone })
            #expect(quiets.allSatisfy { p.piece(at: $0.to).isNone })
            var legalCaptures = MoveList()
            p.generateLegal(.captures, into: &legalCaptures)
            #expect(Set(legalCaptures) == Set(captures.filter { p.isPseudoLegalMoveSafe($0) }))
        }
    }

    @Test func isLegalAgreesWithGenerator() {
        for p in Self.positions.prefix(400) {
            let legal = Set(p.legalMoves)
            for from in 0..<90 {
                for to in 0..<90 {
                    let move = Move(from: Square(from)!, to: Square(to)!)
                    #expect(p.isLegal(move) == legal.contains(move))
                }
            }
        }
    }

    @Test func mirrorHasEqualPerft() {
        for p in Self.positions.enumerated().filter({ $0.offset % 25 == 0 }).map(\.element) {
            var a = p, b = p.mirroredFiles
            #expect(a.perft(3) == b.perft(3), "\(p.fen)")
        }
    }

    @Test func colorFlipHasEqualPerft() {
        for p in Self.positions.enumerated().filter({ $0.offset % 25 == 0 }).map(\.element) {
            var a = p, b = p.colorFlipped
            #expect(a.perft(3) == b.perft(3), "\(p.fen)")
        }
    }

    @Test func startKeyIsFrozen() {
        // Opening books store these keys: this value must never change.
        #expect(Position.start.key == 0xBF6147B605BC2C1E)
        #expect(Zobrist.schemeVersion == 1)
    }
}

@Suite struct ExchangeTests {
    @Test func allAttackersAgreesWithReference() {
        for p in InvariantTests.positions.enumerated().filter({ $0.offset % 40 == 0 }).map(\.element) {
            let board = ReferenceBoard(p)
            for s in 0..<90 {
                let square = Square(s)!
                var expected = Bitboard.empty
                for q in 0..<90 where q != s {
                    guard let piece = board.squares[q] else { continue }
                    // Put an enemy of this piece on the target so that it may be captured.
                    var copy = board
                    copy.squares[s] = (piece.color.opponent, .soldier)
                    if copy.destinations(q % 9, q / 9).contains(where: { $0 == (s % 9, s / 9) }) {
                        expected.insert(Square(q)!)
                    }
                }
                #expect(p.allAttackers(to: square, occupied: p.occupied) == expected, "\(square) in \(p.fen)")
            }
        }
    }
}
