import Foundation
import Testing
import XiangqiBook
import XiangqiEngine
import XiangqiSearch

/// The built `xiangqi` binary, driven over pipes.
final class EngineProcess: @unchecked Sendable {
    // `lock` guards `lines` and `closed`, filled by the reader thread.
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var consumed = 0
    private var closed = false

    static var binary: URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("xiangqi"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("xiangqi"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/xiangqi"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    init(workingDirectory: String? = nil, executable: URL? = nil) throws {
        process.executableURL = executable ?? Self.binary
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    condition.withLock {
                        lines.append(line)
                        condition.broadcast()
                    }
                }
            }
            condition.withLock {
                closed = true
                condition.broadcast()
            }
        }
    }

    /// Starts `executable` as ``init(workingDirectory:executable:)`` does, trying again while
    /// the start fails with "Text file busy": a process another test forks at the moment the
    /// file was being copied inherits the copy's write descriptor until it execs.
    static func startingFreshCopy(workingDirectory: String? = nil, executable: URL) throws -> EngineProcess {
        var attempt = 0
        while true {
            do {
                return try EngineProcess(workingDirectory: workingDirectory, executable: executable)
            } catch let error as NSError {
                let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
                guard underlying?.domain == NSPOSIXErrorDomain, underlying?.code == Int(ETXTBSY), attempt < 50 else { throw error }
                attempt += 1
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    func send(_ text: String) {
        input.fileHandleForWriting.write((text + "\n").data(using: .utf8)!)
    }

    func sendRaw(_ data: Data) { input.fileHandleForWriting.write(data) }

    /// Waits for the next line satisfying `predicate`; returns every line read up to and
    /// including it, or `nil` on timeout or end of output.
    func waitFor(timeout: Double = 60, _ predicate: (String) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            var seen: [String] = []
            while true {
                while consumed < lines.count {
                    let line = lines[consumed]
                    consumed += 1
                    seen.append(line)
                    if predicate(line) { return seen }
                }
                if closed { return nil }
                if !condition.wait(until: deadline) { return nil }
            }
        }
    }

    /// Lines not yet consumed by `waitFor`, after a short pause.
    func pending(after seconds: Double) -> [String] {
        Thread.sleep(forTimeInterval: seconds)
        return condition.withLock {
            defer { consumed = lines.count }
            return Array(lines[consumed...])
        }
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for the process to exit; returns its status, or `nil` after the timeout.
    func exitStatus(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }
}

@Suite(.serialized) struct EndToEndTests {
    @Test func ucciHandshakeSearchAndQuit() throws {
        let e = try EngineProcess()
        e.send("ucci")
        let handshake = try #require(e.waitFor { $0 == "ucciok" })
        #expect(handshake.first?.hasPrefix("id name ") == true)
        #expect(handshake.contains("option usemillisec type check default true"))
        e.send("setoption usebook false")  // the position is in the default book
        e.send("position startpos moves h2e2 h9g7")
        e.send("go depth 5")
        let search = try #require(e.waitFor { $0.hasPrefix("bestmove") })
        #expect(search.contains { $0.hasPrefix("info depth 5 score ") })
        e.send("quit")
        #expect(e.waitFor { $0 == "bye" } != nil)
        #expect(e.exitStatus() == 0)
    }

    /// The binary copied alone into an empty folder and started from `/` (what a GUI user or a
    /// server deployment does) plays with its built-in book and network.
    @Test func theBinaryAloneHasItsBookAndNetwork() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xiangqi-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("xiangqi")
        try FileManager.default.copyItem(at: EngineProcess.binary, to: alone)
        let e = try EngineProcess.startingFreshCopy(workingDirectory: "/", executable: alone)
        e.send("uci")
        let handshake = try #require(e.waitFor { $0 == "uciok" })
        #expect(handshake.contains("option name BookFile type string default <built-in>"))
        #expect(handshake.contains("option name EvalFile type string default <built-in>"))
        e.send("position startpos")
        // A search would take the full minute: an answer well before it is the book's (the
        // bound is for hangs, not speed).
        e.send("go movetime 60000")
        let answer = try #require(e.waitFor(timeout: 40) { $0.hasPrefix("bestmove") })
        let best = try #require(answer.last?.split(separator: " ").dropFirst().first)
        // The book draws among its moves (the list is not fixed): the answer is the book move it named.
        #expect(answer.contains { $0.hasPrefix("info string book move \(best) from <built-in>: ") })
        // The network: `eval` names the built-in one; a short bench counts the nodes the
        // library counts with it.
        e.send("eval")
        let shown = try #require(e.waitFor { $0.hasPrefix("Final evaluation") })
        #expect(shown.contains { $0.hasPrefix("Network \(NetworkFile.builtIn.hashText): ") })
        e.send("bench 16 1 3")
        let bench = try #require(e.waitFor { $0.hasPrefix("Nodes/second") })
        let expected = Engine.bench(depth: 3, network: NetworkFile.builtIn).nodes
        #expect(bench.contains("Nodes searched: \(expected)"))
        // A bad book file is reported; the built-in book stays in use.
        e.send("setoption name BookFile value /nonexistent/book.sqlite")
        e.send("go movetime 60000")
        let again = try #require(e.waitFor(timeout: 40) { $0.hasPrefix("bestmove") })
        #expect(again.contains { $0.hasPrefix("info string book not used: cannot open /nonexistent/book.sqlite") })
        #expect(again.contains { $0.hasPrefix("info string book move ") && $0.contains(" from <built-in>: ") })
        e.send("quit")
        #expect(e.exitStatus() == 0)
    }

    @Test func versionNamesTheReleaseNetworkAndBook() throws {
        let process = Process()
        process.executableURL = EngineProcess.binary
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = text.split(separator: "\n").map(String.init)
        // The release, then the commit and its date that the binary was built from.
        #expect(lines.first?.hasPrefix(EngineVersion.name + " (") == true)
        #expect(lines.first?.wholeMatch(of: /Xiangqi [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7}(-dirty)?|unknown), ([0-9]{4}-[0-9]{2}-[0-9]{2}|unknown)\)/) != nil)
        #expect(lines.dropFirst() == [
                          "network: \(NetworkFile.builtIn.hashText) (built in, \(NetworkFile.builtInBytes.count) bytes)",
                          "book: 67822 positions, 77554 moves (built in, \(OpeningBook.builtInBytes.count) bytes)"])
    }

    @Test func uciInfiniteIsAnsweredOnlyAfterStop() throws {
        let e = try EngineProcess()
        e.send("uci")
        #expect(e.waitFor { $0 == "uciok" } != nil)
        e.send("position startpos")
        e.send("go infinite")
        // After a second the root move being searched is reported.
        let current = try #require(e.waitFor(timeout: 60) { $0.contains(" currmove ") })
        #expect(current.last?.contains(" currmovenumber ") == true)
        e.send("isready")
        let beforeStop = try #require(e.waitFor { $0 == "readyok" })
        #expect(!(current + beforeStop).contains { $0.hasPrefix("bestmove") })
        e.send("stop")
        let after = try #require(e.waitFor { $0.hasPrefix("bestmove") })
        #expect(after.last?.split(separator: " ").count ?? 0 >= 2)
        #expect(!e.pending(after: 0.3).contains { $0.hasPrefix("bestmove") })
        e.send("quit")
        #expect(e.exitStatus() == 0)
    }

    @Test func ponderThenPonderHit() throws {
        let e = try EngineProcess()
        e.send("uci")
        _ = e.waitFor { $0 == "uciok" }
        e.send("position startpos moves h2e2")
        e.send("go ponder wtime 2000 btime 2000")
        let early = e.pending(after: 0.5)
        #expect(!early.contains { $0.hasPrefix("bestmove") })
        e.send("ponderhit")
        let result = try #require(e.waitFor(timeout: 60) { $0.hasPrefix("bestmove") })
        #expect(result.last != "bestmove (none)")
        e.send("quit")
        #expect(e.exitStatus() == 0)
    }

    @Test func banmovesAreNeverPlayed() throws {
        let e = try EngineProcess()
        e.send("ucci")
        _ = e.waitFor { $0 == "ucciok" }
        for _ in 0..<2 {
            e.send("position startpos")
            e.send("banmoves h2e2 b2e2 b0c2 h0g2")
            e.send("go depth 4")
            let lines = try #require(e.waitFor { $0.hasPrefix("bestmove") })
            let move = lines.last!.split(separator: " ")[1]
            #expect(!["h2e2", "b2e2", "b0c2", "h0g2"].contains(String(move)))
        }
        e.send("quit")
        #expect(e.waitFor { $0 == "bye" } != nil)
    }

    @Test func badInputIsAnsweredAndTheEngineKeepsServing() throws {
        let e = try EngineProcess()
        e.send("uci")
        _ = e.waitFor { $0 == "uciok" }
        e.send("")
        e.send("this is not a command")
        e.send("position fen kkk/9/9 w")
        e.send("go depth 3")
        e.send("position startpos moves h2e2 h2e2")
        e.send("position")
        e.send("setoption name Hash value -3")
        e.send("setoption name Bogus value 1")
        e.send(String(repeating: "z", count: 100_000))
        e.sendRaw(Data([0, 1, 2, 0xFF, 0xFE, 0x80, 10]))
        e.send("isready")
        let lines = try #require(e.waitFor { $0 == "readyok" })
        let infos = lines.filter { $0.hasPrefix("info string ") }
        #expect(infos.count >= 8)
        #expect(lines.contains("bestmove (none)"))
        #expect(infos.contains { $0.contains("illegal move 'h2e2' (move 2") })
        #expect(infos.contains { $0.contains("invalid FEN") })
        e.send("position startpos")
        e.send("go depth 2")
        #expect(e.waitFor { $0.hasPrefix("bestmove ") && $0 != "bestmove (none)" } != nil)
        e.send("quit")
        #expect(e.exitStatus() == 0)
    }

    @Test func endOfInputDuringASearchEndsTheProcess() throws {
        let e = try EngineProcess()
        e.send("uci")
        _ = e.waitFor { $0 == "uciok" }
        e.send("position startpos")
        e.send("go infinite")
        Thread.sleep(forTimeInterval: 0.2)
        e.closeInput()
        #expect(e.exitStatus(timeout: 60) == 0)
    }

    @Test func perftThroughTheProtocol() throws {
        let e = try EngineProcess()
        e.send("uci")
        _ = e.waitFor { $0 == "uciok" }
        e.send("position startpos")
        e.send("go perft 3")
        let lines = try #require(e.waitFor { $0.hasPrefix("Nodes searched") })
        #expect(lines.last == "Nodes searched: 79666")
        #expect(lines.filter { $0.contains(": ") && !$0.hasPrefix("Nodes") }.count == 44)
        #expect(!e.pending(after: 0.2).contains { $0.hasPrefix("bestmove") })
        e.send("quit")
        #expect(e.exitStatus() == 0)
    }
}
