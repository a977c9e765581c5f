/// Positions searched by `bench`: 36 middlegame and endgame positions reached in master games
/// of the CCPD collection (CC BY 4.0), after 10 to 90 plies. Changing this list changes the signature.
public let benchPositions: [String] = [
    "2bakab1r/r8/nc1c2n2/p1p1p3p/6p2/P8/2P1P1P1P/NC4N1C/9/R1BAKABR1 w - - 10 6",
    "2rakab2/3n4r/1c2b1nc1/p3p3p/2p6/2P2R3/P3P3P/1CNNB2C1/R8/2BAKA3 w - - 5 11",
    "2bak4/4a4/2n1b2c1/p1N1p3p/2c2rpn1/4C4/P3P1P1P/2C1B1N2/1R7/3AKAB2 w - - 1 16",
    "2b1kar2/4a4/4b4/p3C3p/3n5/2pnP4/P4R2P/2C3N1B/7c1/1NBAKA3 w - - 1 21",
    "4kab2/1N2a4/4b4/C4P2p/1n2C4/7c1/8P/4B1c2/4A4/4KAB2 w - - 8 36",
    "2b1ka3/4a4/4b3c/9/p4r3/4RN3/P3P4/2N1B4/9/3AKAB2 w - - 6 46",
    "r2akabr1/9/1cn1bcn2/p1p1p1p1p/9/6P2/P1P1P3P/N1C1C1N2/9/R1BAKAB1R w - - 10 6",
    "1r2kabr1/4a4/2n1b2c1/p1p1p3p/1c3n3/1RP3pR1/P3P1P1P/N1C1C1N2/9/2BAKAB2 w - - 20 11",
    "1r1ak1b2/4a4/2n1bcn2/pCp3p1p/c3p4/3R2P2/1RP1Nr2P/2N1C4/4A4/2B1KAB2 w - - 0 16",
    "2baka3/9/n3b1Cc1/N1p1p3p/9/P8/5RP1r/6C2/6c2/2BAKAB2 w - - 8 21",
    "2b1kab2/4a4/2n4c1/2CR3N1/4p4/p1P1c3P/7r1/2N6/9/2BAKAB2 b - - 13 28",
    "2b1kab2/4a4/n1C6/p6rp/2p6/P2R1p3/2R1P3P/2C1BA2B/4A4/4K1rc1 w - - 32 36",
    "r1bakabr1/9/2n3nc1/p1p1p3p/6p2/2P6/Pc2P1P1P/NC2C1N2/9/R1BAKABR1 w - - 10 6",
    "r2akabr1/9/2n1b2c1/pc2p3p/5n3/2p3R2/P3P3P/1CN1C1N2/R8/2BAKAB2 w - - 0 11",
    "2bakab2/8c/4c1n2/p1p5p/5rNn1/6P2/P1P1P3P/1CN1BC3/4A4/1R2KAB2 w - - 5 16",
    "1r2kab2/4a4/2Ncb1c2/p5n2/9/2R5C/P3P3P/N3B4/4Ar3/3RKAB2 w - - 8 21",
    "3ak1b2/4a4/4b3n/p5pc1/8p/5NP2/P3P3P/3CB2C1/3RA4/2rAK4 b - - 0 28",
    "3k1ab2/3C5/3ab4/4cN3/1P6p/2Pp3n1/C7P/9/4A4/2B1K4 w - - 1 36",
    "rnbakabr1/9/2c1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1B1NC1/9/R1BAKA1R1 w - - 10 6",
    "1n2kabr1/4a4/c3b1n1c/p1p1p3p/6p2/P6R1/2P1P1P1P/N1C1C1N2/9/2BAKAB2 w - - 4 11",
    "4kab2/4a4/2n1b2Rc/p1pr4p/1c2pn3/2P2NC2/P3P3P/2N2C3/9/2BAKAB2 w - - 7 16",
    "2baka3/9/n1c1b1n2/4p1C1p/p1r6/9/P3PN2P/6N2/3r3cR/CRBAKAB2 w - - 9 21",
    "2bak1b2/4a4/3c5/pr6p/4P1p2/9/P1N3P1P/6N2/1Rn1A4/2BK1AB2 b - - 6 28",
    "3rka3/1R2a4/6R2/p5r1p/2bN1Pb2/9/P7P/2p6/4A4/4K4 w - - 0 36",
    "r1bakabr1/9/1cn4c1/p1p1p2Rp/5np2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 w - - 10 6",
    "1r1akab2/9/1cn1bc3/p1p1p3r/6p1p/2PN5/P3P1P1n/4CC2N/7R1/1RBAKAB2 w - - 4 11",
    "2b1kab2/4a4/n2cc1n2/2p1p3p/C5p2/P1PR2P2/4P1rrP/2N1B2C1/4A2R1/2BAKN3 w - - 7 16",
    "3akaR2/9/b8/r7p/3R5/5p3/P1r5P/4B4/4A4/4KAB2 b - - 2 28",
    "2bk3r1/4a1N2/3abn3/7N1/8p/2P6/4P1R1P/4BA3/9/2BAK3c w - - 5 36",
    "r1bakabr1/9/1cn3n1c/p1p1p2Rp/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 w - - 10 6",
    "1rbak1br1/4a4/n3c1n2/pCp1p2Cp/6p2/2P6/P2cP1P1P/2N3N2/4A4/1RB1KABR1 w - - 20 11",
    "1nbakab2/9/r8/p1p5p/4p1Nr1/2P6/P3n3P/1C7/6R2/R1BAKAB2 w - - 3 16",
    "3akab2/3r5/4b1n2/pR2n1p1p/2c1P4/6P2/PN5CP/2C1B1c2/9/3AKAB2 w - - 0 21",
    "4ka3/5nN2/3a5/p7p/2p6/9/PrP3P1P/4B2C1/c3A4/3RKAB2 b - - 14 28",
    "8C/3ka4/3a5/8p/n1r6/1p3N3/8P/4B4/9/3AKAB2 w - - 0 46",
    "rnbakab2/8r/1c7/p1p1p3p/5npc1/2P6/P3P1P1P/C1N3NC1/8R/R1BAKAB2 w - - 10 6",
]

/// What `bench` searches: with the defaults (16 MB, one thread, depth 10, the bench
/// positions) its node count is the signature that CI checks.
public struct BenchSettings: Sendable, Equatable {
    /// How far each position is searched.
    public enum Limit: Sendable, Equatable {
        case depth(Int)
        case nodes(UInt64)
        case moveTime(Int)
    }

    /// The transposition table in MB (`bench`'s first argument).
    public var hashMegabytes = 16
    /// Search threads (`bench`'s second argument).
    public var threads = 1
    /// How far each position is searched (default: depth 10, the signature's).
    public var limit = Limit.depth(10)
    /// FENs, searched in order.
    public var positions = benchPositions

    /// The settings of `bench` with no arguments unless given.
    public init(hashMegabytes: Int = 16, threads: Int = 1, limit: Limit = .depth(10), positions: [String] = benchPositions) {
        self.hashMegabytes = hashMegabytes
        self.threads = threads
        self.limit = limit
        self.positions = positions
    }
}
