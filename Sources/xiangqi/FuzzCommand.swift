import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiBook
import XiangqiClient

struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Feed an engine mutated protocol lines and check that it keeps serving.",
        discussion: """
        Seeded lines of both dialects (commands, FENs, moves, option values, huge and non-finite numbers, \
        binary garbage, long lines) go to the engine in batches; after each batch it must reach a marker command and \
        return a legal move from a 'go depth 3' on a legal position, every pv line of that search legal too. A crash or hang is reported with its \
        batch (written to --save), the engine is restarted, and the exit status is 1. Prints a summary and \
        one JSON line.

        Example: xiangqi fuzz --lines 20000 --seed 7
        """
    )

    @Option(help: "Engine executable (default: this program).")
    var engine: String?

    @Option(help: "Lines to send.")
    var lines = 20_000

    @Option(help: "Lines per batch (a check after each).")
    var batch = 200

    @Option(help: "Seed of the line generator.")
    var seed: UInt64 = 1

    @Option(help: "Seconds an answer may take before the engine counts as hung.")
    var timeout = 60

    @Option(help: "Write the lines that led to each failure (since the engine started) to this directory as batch-N.txt.")
    var save: String?

    func validate() throws {
        guard lines >= 1, batch >= 1, timeout >= 1 else { throw ValidationError("--lines, --batch and --timeout must be positive") }
    }

    func run() throws {
        guard let executable = engine ?? executablePath() else {
            throw CommandFailure("cannot find this program's path; give --engine")
        }
        var fuzzer = ProtocolFuzzer(executable: executable, seed: seed, lineCount: lines)
        fuzzer.batchSize = batch
        fuzzer.timeout = .seconds(timeout)
        let bar = isTerminal(2), total = lines, configured = fuzzer
        let clock = ContinuousClock(), start = clock.now
        let report = runBlocking {
            await configured.run { r in
                if bar { errorWrite("\r\u{1B}[K[\(r.lines)/\(total)] checks \(r.checks), failures \(r.failures.count)") }
            }
        }
        if bar { errorWrite("\r\u{1B}[K") }
        let d = clock.now - start
        let seconds = d.inSeconds
        for failure in report.failures {
            emit("failure: \(failure)")
            if let save {
                let path = "\(save)/batch-\(failure.batch).txt"
                if let file = fopen(path, "w") {
                    let bytes = failure.lines.reduce(into: [UInt8]()) { $0 += $1 + [10] }
                    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                    fclose(file)
                    emit("  lines written to \(path)")
                }
            }
        }
        let crashes = report.failures.filter { $0.kind.hasPrefix("crash") }.count
        let hangs = report.failures.filter { $0.kind.hasPrefix("hang") }.count
        emit("Fuzz: \(report.lines) lines in \(report.batches) batches (seed \(seed)), \(report.checks) checks passed, "
             + "\(crashes) crashes, \(hangs) hangs, \(report.failures.count - crashes - hangs) wrong answers; "
             + "\(format1(seconds)) s")
        emit("{\"tool\": \"xiangqi fuzz\", \"seed\": \(seed), \"lines\": \(report.lines), \"batches\": \(report.batches), "
             + "\"checks\": \(report.checks), \"crashes\": \(crashes), \"hangs\": \(hangs), "
             + "\"failures\": \(report.failures.count), \"wall_s\": \(format1(seconds))}")
        if !report.failures.isEmpty { throw ExitCode.failure }
    }
}
