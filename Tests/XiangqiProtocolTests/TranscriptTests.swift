import Foundation
import Testing
import XiangqiCore
import XiangqiEngine
import XiangqiSearch
@testable import XiangqiProtocol

/// Runs a transcript: `> line` is sent to a fresh in-memory session; `< pattern` must match
/// the next output line; `<* pattern` matches any number of consecutive output lines (up to
/// the first line that matches the next single-line pattern). In a
/// pattern, `*` stands for one token and a trailing `...` for the rest of the line.
/// The runner waits for a search after each `go` that is neither `infinite`, `ponder` nor a
/// mate search without another bound, and after a `ponderhit` that ends a bounded ponder search.
/// `currmove` lines are left out of the output before matching: the engine writes them once a
/// search has run for a second, which depends on the machine (a sanitized build takes that
/// long for depth 4).
func runTranscript(_ text: String) -> [String] {
    let sink = MemorySink()
    let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
    var expected: [(many: Bool, pattern: String)] = []
    var boundedPonder = false
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let line = String(raw)
        if line.hasPrefix("> ") || line == ">" {
            let input = line == ">" ? "" : String(line.dropFirst(2))
            session.handle(input)
            let words = input.lowercased().split(separator: " ")
            // A mate search with no other bound runs until stopped, as an infinite one does.
            let mateOnly = words.contains("mate")
                && !words.contains { ["depth", "nodes", "movetime", "time", "wtime", "btime"].contains($0) }
            if words.first == "go" && !words.contains("infinite") && !words.contains("ponder") && !mateOnly {
                session.waitForSearch()
            }
            // After a ponder hit a bounded ponder search ends by its own limits: wait for it,
            // so that the next line does not stop it.
            if words.first == "go" { boundedPonder = words.contains("ponder") && !words.contains("infinite") }
            if words.first == "ponderhit" && boundedPonder {
                boundedPonder = false
                session.waitForSearch()
            }
        } else if line.hasPrefix("<* ") {
            expected.append((true, String(line.dropFirst(3))))
        } else if line.hasPrefix("< ") || line == "<" {
            expected.append((false, line == "<" ? "" : String(line.dropFirst(2))))
        }
    }
    session.waitForSearch()
    return match(sink.lines.filter { !$0.contains(" currmove ") }, expected)
}

/// Returns the mismatches (empty when the output follows the patterns).
func match(_ output: [String], _ expected: [(many: Bool, pattern: String)]) -> [String] {
    var i = 0
    for (k, (many, pattern)) in expected.enumerated() {
        if many {
            // Lazy: stop as soon as the next single-line pattern matches.
            let next = expected[(k + 1)...].first(where: { !$0.many })?.pattern
            while i < output.count && lineMatches(output[i], pattern) {
                if let next, lineMatches(output[i], next) { break }
                i += 1
            }
        } else {
            guard i < output.count else { return ["missing line matching '\(pattern)'"] }
            guard lineMatches(output[i], pattern) else {
                return ["line \(i + 1) '\(output[i])' does not match '\(pattern)'", "output:"] + output
            }
            i += 1
        }
    }
    if i < output.count { return ["unexpected extra lines:"] + output[i...] }
    return []
}

func lineMatches(_ line: String, _ pattern: String) -> Bool {
    let words = line.split(separator: " ").map(String.init)
    let patternWords = pattern.split(separator: " ").map(String.init)
    var i = 0
    for (k, p) in patternWords.enumerated() {
        if p == "..." && k == patternWords.count - 1 { return true }
        guard i < words.count else { return false }
        if p != "*" && p != words[i] {
            // A pattern word may end in '*' to match a prefix.
            guard p.hasSuffix("*"), words[i].hasPrefix(p.dropLast()) else { return false }
        }
        i += 1
    }
    return i == words.count
}

@Suite(.serialized) struct TranscriptTests {
    static let names = ["ucci-handshake", "uci-handshake", "ucci-search", "uci-search", "bad-input",
                        "no-legal-move", "banmoves", "debug-commands", "options", "ranks-from-one",
                        "infinite-and-ponder", "absurd-numbers", "batch-mode", "threads", "draw-offers", "hash-options", "contempt"]

    @Test(arguments: names)
    func transcript(_ name: String) throws {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Transcripts"))
        let text = try String(contentsOf: url, encoding: .utf8)
        let problems = runTranscript(text)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func hugeLineAndBinaryBytesAreSurvived() {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        session.handle("ucci")
        _ = sink.take()
        session.handle("position startpos moves " + String(repeating: "h2e2 e2h2 ", count: 10_000))
        session.handle(String(decoding: [0, 1, 2, 255, 254, 10, 13, 0x80], as: UTF8.self))
        session.handle(String(repeating: "x", count: 100_000))
        session.handle("isready")
        let lines = sink.lines
        #expect(lines.last == "readyok")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("info string ") && $0.count < 260 })
        #expect(lines.count == 5, "\(lines.map { String($0.prefix(80)) })")
        #expect(lines.dropLast().last == "info string evaluation: handcrafted; engine \(EngineVersion.name)")
    }

    /// Move Overhead: what it keeps back shows in the time budget that `debug on` reports.
    @Test func moveOverheadShortensTheTimeBudget() throws {
        let sink = MemorySink()
        let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
        func budget(overhead: Int, go: String = "go wtime 10000 btime 10000 winc 100 binc 100") throws -> (optimum: Int, maximum: Int) {
            for line in ["setoption name Move Overhead value \(overhead)", "position startpos", go] { session.handle(line) }
            session.waitForSearch()
            let line = try #require(sink.take().first { $0.hasPrefix("info string time budget: ") })
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            return (numbers.first!, numbers.last!)
        }
        for line in ["uci", "debug on"] { session.handle(line) }
        let small = try budget(overhead: 10), large = try budget(overhead: 1000)
        #expect(large.optimum < small.optimum && large.maximum < small.maximum)
        #expect(small.maximum <= 10000 - 10 && large.maximum <= 10000 - 1000)
        // A fixed move time has only a maximum, and the overhead takes at most 2% of it.
        let fixed = try budget(overhead: 1000, go: "go movetime 1000")
        #expect(fixed.optimum == fixed.maximum && fixed.maximum == 980)
        // debug off: no more reports; a bad argument is refused.
        session.handle("debug maybe")
        #expect(sink.take().contains("info string debug: expected on or off, not 'maybe'; unchanged"))
        session.handle("debug off")
        _ = sink.take()
        session.handle("go movetime 50")
        session.waitForSearch()
        let quiet = sink.take()
        #expect(quiet.last?.hasPrefix("bestmove ") == true)
        #expect(!quiet.contains { $0.contains("time budget") || $0.contains("received") })
    }

    @Test func randomnessFollowsTheSeed() {
        // Two sessions with the same Seed and randomness search alike; another seed differs.
        func scores(seed: Int) -> [String] {
            let sink = MemorySink()
            let session = Session(engine: Engine(hashMegabytes: 2), output: sink)
            for line in ["ucci", "setoption seed \(seed)", "setoption randomness huge", "position startpos moves h2e2",
                         "go depth 5"] {
                session.handle(line)
            }
            session.waitForSearch()
            // Iteration lines only: `currmove` lines appear after a second, which a slow build
            // (the thread sanitizer's) reaches.
            return sink.lines.filter { $0.hasPrefix("info depth") && !$0.contains(" currmove ") }.map { $0.split(separator: " ").prefix(5).joined(separator: " ") }
        }
        let first = scores(seed: 7)
        #expect(!first.isEmpty)
        #expect(scores(seed: 7) == first)
        #expect(scores(seed: 8) != first)
    }

    @Test func bookResultsMapToScoresThroughTheWDLModel() {
        #expect(WinDrawLoss.score(forExpectedPoints: 0.5) == 0)
        let sixty = WinDrawLoss.score(forExpectedPoints: 0.6)
        #expect(sixty > 0 && sixty < 100)
        #expect(WinDrawLoss.score(forExpectedPoints: 0.4) == -sixty || WinDrawLoss.score(forExpectedPoints: 0.4) == -sixty + 1)
        #expect(WinDrawLoss.score(forExpectedPoints: 1) > 900)
        #expect(WinDrawLoss.score(forExpectedPoints: 0) < -900)
        // The score found reproduces the points within the model's rounding.
        let (w, d, _) = WinDrawLoss.chances(forScore: sixty)
        #expect(abs((Double(w) + Double(d) / 2) / 1000 - 0.6) < 0.01)
    }

    @Test func wdlSumsToOneThousand() {
        for score in [-900, -150, -1, 0, 40, 150, 800, 29990, -29990] {
            let (w, d, l) = WinDrawLoss.chances(forScore: score)
            #expect(w + d + l == 1000)
            #expect(w >= 0 && d >= 0 && l >= 0)
        }
        #expect(WinDrawLoss.chances(forScore: 300).0 > WinDrawLoss.chances(forScore: 100).0)
    }
}
