import Foundation
import Testing
import XiangqiCore
@testable import XiangqiClient

/// SPSA's arithmetic, its convergence on a known optimum, its trace, and `xiangqi spsa`.
@Suite struct SPSATests {
    static let parameters = [
        SPSAParameter(name: "Margin", start: 100, minimum: 20, maximum: 300, cEnd: 10),
        SPSAParameter(name: "Divisor", start: 40, minimum: 10, maximum: 90, cEnd: 4, rEnd: 0.004),
    ]

    @Test func jsonStringsEscapeWhatJSONRequiresAndParseBack() throws {
        let text = "a\"b\\c\nd\te\r\u{01}é 象"
        let quoted = JSONText.quoted(text)
        #expect(quoted == "\"a\\\"b\\\\c\\nd\\te\\r\\u0001é 象\"")
        #expect(try JSONValue.parse("{\"s\": \(quoted)}")["s"] == .string(text))
    }

    @Test func gainsReachTheirFinalValuesAtTheLastIteration() {
        let schedule = SPSASchedule(iterations: 1000)
        #expect(schedule.stability == 100)
        for p in Self.parameters {
            #expect(abs(schedule.perturbation(p, iteration: 1000) - p.cEnd) < 1e-9)
            let c = schedule.perturbation(p, iteration: 1000)
            #expect(abs(schedule.step(p, iteration: 1000) / (c * c) - p.rEnd) < 1e-12)
            // Larger at the start: c_1 = c_end · N^γ.
            #expect(abs(schedule.perturbation(p, iteration: 1) - p.cEnd * pow(1000, 0.101)) < 1e-9)
            #expect(schedule.step(p, iteration: 1) > schedule.step(p, iteration: 500))
        }
    }

    @Test func trialsAreReproducibleSymmetricAndInRange() {
        var state = SPSAState(parameters: Self.parameters, schedule: SPSASchedule(iterations: 200), seed: 7)
        let a = state.trial(iteration: 5), b = state.trial(iteration: 5)
        #expect(a == b)
        #expect(Set((1...40).map { state.trial(iteration: $0).flips }).count > 1)
        for (i, p) in Self.parameters.enumerated() {
            let c = state.schedule.perturbation(p, iteration: 5)
            #expect(a.plus[i] == Int((p.start + c * Double(a.flips[i])).rounded()))
            #expect(a.minus[i] == Int((p.start - c * Double(a.flips[i])).rounded()))
        }
        // Near a bound the trial values stay in range.
        state.theta = [21, 89]
        for k in 1...20 {
            let t = state.trial(iteration: k)
            #expect(t.plus.allSatisfy { $0 >= 10 } && t.minus.allSatisfy { $0 >= 10 })
            #expect(t.plus[0] >= 20 && t.minus[0] >= 20 && t.plus[1] <= 90 && t.minus[1] <= 90)
        }
    }

    @Test func aWinMovesThetaTowardThePlusSide() {
        var state = SPSAState(parameters: Self.parameters, schedule: SPSASchedule(iterations: 100), seed: 1)
        let trial = state.trial(iteration: 1)
        state.apply(trial, result: 2)
        for (i, p) in Self.parameters.enumerated() {
            let step = state.schedule.step(p, iteration: 1) / state.schedule.perturbation(p, iteration: 1) * 2
            #expect(abs(state.theta[i] - (p.start + step * Double(trial.flips[i]))) < 1e-9)
        }
        var drawn = SPSAState(parameters: Self.parameters, schedule: SPSASchedule(iterations: 100), seed: 1)
        drawn.apply(trial, result: 0)
        #expect(drawn.theta == Self.parameters.map(\.start))
    }

    /// Games whose result follows a logistic model of a known optimum (Margin 160, Divisor 25):
    /// 4,000 noisy pairs bring θ from (100, 40) to near it, as they would with engines.
    @Test func noisyPairsLeadToTheOptimum() {
        let optimum = [160.0, 25.0], scale = [60.0, 15.0]
        func strength(_ x: [Int]) -> Double {
            -zip(zip(x, optimum), scale).map { pair, s in pow((Double(pair.0) - pair.1) / s, 2) }.reduce(0, +)
        }
        var random = SeededGenerator(seed: 2026)
        func game(_ plus: [Int], _ minus: [Int]) -> Double {
            // The plus side's score: 1, ½ or 0, with a third of games drawn.
            let p = 1 / (1 + exp(-(strength(plus) - strength(minus))))
            let u = Double(random.next() >> 11) / Double(1 << 53)
            if u < 1.0 / 3 { return 0.5 }
            return Double(random.next() >> 11) / Double(1 << 53) < p ? 1 : 0
        }
        var state = SPSAState(parameters: Self.parameters, schedule: SPSASchedule(iterations: 4000), seed: 3)
        func distance(_ theta: [Double]) -> Double {
            zip(zip(theta, optimum), scale).map { pair, s in pow((pair.0 - pair.1) / s, 2) }.reduce(0, +).squareRoot()
        }
        let before = distance(state.theta)
        for k in 1...4000 {
            let t = state.trial(iteration: k)
            let result = 2 * game(t.plus, t.minus) - 1 + 2 * game(t.plus, t.minus) - 1
            state.apply(t, result: result)
        }
        #expect(distance(state.theta) < before / 3, "θ \(state.theta)")
    }

    @Test func theTraceRoundTripsAndNamesItsBadLine() throws {
        var state = SPSAState(parameters: Self.parameters, schedule: SPSASchedule(iterations: 50), seed: 11)
        let header = SPSATrace.Header(engine: "./xiangqi proto=uci 'opt.Name=a \"b\"'", timeControl: "10+0.1",
                                      openings: "openings.txt", state: state)
        var lines = [SPSATrace.line(header)]
        var records: [SPSATrace.Record] = []
        for k in [1, 3, 2] {
            let t = state.trial(iteration: k)
            state.apply(t, result: Double(k % 3) - 1)
            let record = SPSATrace.Record(trial: t, result: Double(k % 3) - 1, games: ["1 (checkmate)", "0.5 (repetition)"],
                                          theta: state.theta.map { ($0 * 1000).rounded() / 1000 })
            records.append(record)
            lines.append(SPSATrace.line(record))
        }
        let (readHeader, readRecords) = try SPSATrace.read(lines.joined(separator: "\n") + "\n")
        #expect(readRecords == records)
        #expect(readHeader.engine == header.engine && readHeader.timeControl == "10+0.1" && readHeader.openings == "openings.txt")
        #expect(readHeader.state.parameters == Self.parameters && readHeader.state.seed == 11)
        #expect(readHeader.state.schedule == SPSASchedule(iterations: 50))
        #expect(readHeader.state.theta == records.last?.theta)
        // Every line is JSON for other tools too.
        for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }

        let broken = lines.prefix(2) + ["{\"k\": 4, \"flip\": [1, 1], \"plus\": [1, 2], \"minus\": [1, 2], \"result\": 0, \"games\": [], \"theta\": [1]}"]
        #expect(throws: SPSATrace.ReadError.self) { try SPSATrace.read(broken.joined(separator: "\n")) }
        do {
            _ = try SPSATrace.read(broken.joined(separator: "\n"))
        } catch {
            #expect(error.line == 3 && error.message.contains("theta has 1 values"))
        }
        do {
            _ = try SPSATrace.read(lines[0] + "\n{\"k\": 2, \"flip\": [1, -1]")
        } catch {
            #expect(error.line == 2 && error.message.hasPrefix("not JSON"))
        }
    }

    /// One real pair at 1 s + 0.01 s between two instances of the built engine, then a resume
    /// that refuses other settings: the trace holds the pair and θ moved by the formula.
    @Test func theCommandPlaysAPairAndResumes() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("\(getpid())-spsa.jsonl").path
        try? FileManager.default.removeItem(atPath: trace)
        let openings = try temporaryFile("spsa-openings.txt", "h2e2 h9g7\nc3c4 b9c7\n")
        let first = try runOurBinary(["spsa", trace, "--engine", "\(ourBinary) proto=uci opt.OwnBook=false", "--tc", "1+0.01",
                                      "--openings", openings, "--iterations", "100", "--parameters", "FutilityBase,AspirationDelta",
                                      "--pairs", "1", "--seed", "5"])
        #expect(first.status == 0, "\(first.error)")
        let (header, records) = try SPSATrace.read(try String(contentsOfFile: trace, encoding: .utf8))
        let record = try #require(records.first)
        #expect(records.count == 1 && record.trial.iteration == 1 && record.games.count == 2)
        #expect(header.state.parameters.map(\.name) == ["FutilityBase", "AspirationDelta"])
        #expect(header.state.parameters.map(\.start) == [120, 30])
        var expected = SPSAState(parameters: header.state.parameters, schedule: header.state.schedule, seed: 5)
        #expect(expected.trial(iteration: 1) == record.trial)
        expected.apply(record.trial, result: record.result)
        #expect(zip(expected.theta, record.theta).allSatisfy { abs($0 - $1) < 0.001 })
        #expect(first.output.contains("As options: opt.FutilityBase="))

        let other = try runOurBinary(["spsa", trace, "--tc", "2+0.02"])
        #expect(other.status != 0 && other.error.contains("--tc (the trace has 1+0.01)"))
        let unknown = try runOurBinary(["spsa", trace + ".new", "--engine", ourBinary, "--tc", "1+0.01", "--openings", openings,
                                        "--iterations", "10", "--parameters", "Nonsense"])
        #expect(unknown.status != 0 && unknown.error.contains("no tunable parameter 'Nonsense'"))
        try? FileManager.default.removeItem(atPath: trace)
    }

    /// An engine that does not know the parameters (another program, an older build) would
    /// tune nothing: the command stops at the first pair and says why.
    @Test func anEngineThatRefusesTheParametersStopsTheTuning() throws {
        let script = try temporaryFile("refusing-engine.sh", """
        #!/bin/sh
        while IFS= read -r line; do
          case "$line" in
            uci) echo "id name Refuser"; echo "uciok" ;;
            setoption*) echo "No such option: ${line#setoption name }" ;;
            isready) echo "readyok" ;;
            quit) exit 0 ;;
          esac
        done
        """)
        chmod(script, 0o755)
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("\(getpid())-spsa-refused.jsonl").path
        try? FileManager.default.removeItem(atPath: trace)
        let openings = try temporaryFile("spsa-openings-2.txt", "h2e2 h9g7\n")
        let run = try runOurBinary(["spsa", trace, "--engine", "\(script) proto=uci notation=iccs", "--tc", "1+0.01", "--openings", openings,
                                    "--iterations", "10", "--parameters", "FutilityBase"])
        #expect(run.status != 0)
        #expect(run.error.contains("refused or changed the parameters it was given: No such option: FutilityBase value"))
        // The trace holds its header and no pair.
        let (_, records) = try SPSATrace.read(try String(contentsOfFile: trace, encoding: .utf8))
        #expect(records.isEmpty)
        try? FileManager.default.removeItem(atPath: trace)
    }
}
