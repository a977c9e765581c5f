#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XiangqiCore

/// One value SPSA tunes: where it starts, the range its trial values stay in, and its final
/// perturbation `cEnd` and final learning rate `rEnd` (fishtest's c_end and r_end).
public struct SPSAParameter: Sendable, Equatable {
    public var name: String
    public var start: Double
    public var minimum: Double
    public var maximum: Double
    public var cEnd: Double
    public var rEnd: Double

    public init(name: String, start: Double, minimum: Double, maximum: Double, cEnd: Double, rEnd: Double = 0.002) {
        self.name = name
        self.start = start
        self.minimum = minimum
        self.maximum = maximum
        self.cEnd = cEnd
        self.rEnd = rEnd
    }

    func clamped(_ x: Double) -> Double { min(max(x, minimum), maximum) }
}

/// The gain sequences of simultaneous-perturbation stochastic approximation, as fishtest
/// schedules them for a planned number of iterations `N` (one iteration: one game pair):
/// the perturbation `c_k = c / k^γ` with `c = cEnd·N^γ` (so `c_N = cEnd`), and the step
/// `a_k = a / (A + k)^α` with `a = rEnd·cEnd²·(A + N)^α` (so `a_N / c_N² = rEnd`).
public struct SPSASchedule: Sendable, Equatable {
    /// Iterations planned (N): the gains reach their final values there.
    public var iterations: Int
    /// The step's decay exponent (α).
    public var alpha: Double
    /// The perturbation's decay exponent (γ).
    public var gamma: Double
    /// The stability constant A (iterations): early steps are damped as if A iterations had passed.
    public var stability: Double

    /// Spall's exponents, and A a tenth of the iterations (fishtest's defaults).
    public init(iterations: Int, alpha: Double = 0.602, gamma: Double = 0.101, stability: Double? = nil) {
        self.iterations = max(1, iterations)
        self.alpha = alpha
        self.gamma = gamma
        self.stability = stability ?? Double(max(1, iterations)) / 10
    }

    /// The perturbation of `parameter` at iteration `k` (1-based).
    public func perturbation(_ parameter: SPSAParameter, iteration k: Int) -> Double {
        parameter.cEnd * pow(Double(iterations), gamma) / pow(Double(max(1, k)), gamma)
    }

    /// The step of `parameter` at iteration `k` (1-based).
    public func step(_ parameter: SPSAParameter, iteration k: Int) -> Double {
        let a = parameter.rEnd * parameter.cEnd * parameter.cEnd * pow(stability + Double(iterations), alpha)
        return a / pow(stability + Double(max(1, k)), alpha)
    }
}

/// One iteration's trial: each parameter moved by ±c_k, the plus side and the minus side
/// (rounded to integers, as the engine takes them, and kept in range).
public struct SPSATrial: Sendable, Equatable {
    public var iteration: Int
    /// +1 or −1 per parameter.
    public var flips: [Int]
    public var plus: [Int]
    public var minus: [Int]
}

/// Where a tuning stands: the parameters, the schedule and the current values θ.
public struct SPSAState: Sendable, Equatable {
    public var parameters: [SPSAParameter]
    public var schedule: SPSASchedule
    /// The random flips of iteration k depend only on this seed and k.
    public var seed: UInt64
    public var theta: [Double]

    /// A tuning that starts at each parameter's start value.
    public init(parameters: [SPSAParameter], schedule: SPSASchedule, seed: UInt64) {
        self.parameters = parameters
        self.schedule = schedule
        self.seed = seed
        theta = parameters.map(\.start)
    }

    /// The trial of iteration `k` from the current θ: the same `k` and seed give the same flips.
    public func trial(iteration k: Int) -> SPSATrial {
        var random = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: k) &* 0x9E37_79B9_7F4A_7C15))
        var flips: [Int] = [], plus: [Int] = [], minus: [Int] = []
        for (i, parameter) in parameters.enumerated() {
            let flip = random.next() & 1 == 0 ? 1 : -1
            let c = schedule.perturbation(parameter, iteration: k)
            flips.append(flip)
            plus.append(Int(parameter.clamped(theta[i] + c * Double(flip)).rounded()))
            minus.append(Int(parameter.clamped(theta[i] - c * Double(flip)).rounded()))
        }
        return SPSATrial(iteration: k, flips: flips, plus: plus, minus: minus)
    }

    /// Moves θ by the trial's result: `result` is the plus side's wins minus its losses over
    /// the pair (−2...2). Each θ_i moves by `a_k / c_k · result · flip_i`, kept in range.
    public mutating func apply(_ trial: SPSATrial, result: Double) {
        for (i, parameter) in parameters.enumerated() {
            let c = schedule.perturbation(parameter, iteration: trial.iteration)
            let a = schedule.step(parameter, iteration: trial.iteration)
            theta[i] = parameter.clamped(theta[i] + a / c * result * Double(trial.flips[i]))
        }
    }
}

/// The trace of a tuning, one JSON object per line: a header (`"spsa": 1`, the settings and
/// the parameters), then one line per finished game pair with its trial, result and θ after
/// it. A tuning resumes from its trace alone.
public enum SPSATrace {
    /// The settings a tuning is run with; the header line holds them.
    public struct Header: Sendable, Equatable {
        public var engine: String
        public var timeControl: String
        public var openings: String
        public var state: SPSAState

        public init(engine: String, timeControl: String, openings: String, state: SPSAState) {
            self.engine = engine
            self.timeControl = timeControl
            self.openings = openings
            self.state = state
        }
    }

    /// One finished pair.
    public struct Record: Sendable, Equatable {
        public var trial: SPSATrial
        /// The plus side's wins minus losses.
        public var result: Double
        /// The results and how the two games ended, the plus side's first.
        public var games: [String]
        /// θ after this pair's update.
        public var theta: [Double]

        public init(trial: SPSATrial, result: Double, games: [String], theta: [Double]) {
            self.trial = trial
            self.result = result
            self.games = games
            self.theta = theta
        }
    }

    /// A trace that cannot be read, with the line that says why.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The header line.
    public static func line(_ header: Header) -> String {
        let s = header.state
        let parameters = s.parameters.map {
            "{\"name\": \(JSONText.quoted($0.name)), \"start\": \(number($0.start)), \"min\": \(number($0.minimum)), "
                + "\"max\": \(number($0.maximum)), \"c_end\": \(number($0.cEnd)), \"r_end\": \(number($0.rEnd))}"
        }.joined(separator: ", ")
        return "{\"spsa\": 1, \"engine\": \(JSONText.quoted(header.engine)), \"tc\": \(JSONText.quoted(header.timeControl)), "
            + "\"openings\": \(JSONText.quoted(header.openings)), \"iterations\": \(s.schedule.iterations), "
            + "\"alpha\": \(number(s.schedule.alpha)), \"gamma\": \(number(s.schedule.gamma)), "
            + "\"A\": \(number(s.schedule.stability)), \"seed\": \(s.seed), \"parameters\": [\(parameters)]}"
    }

    /// One pair's line.
    public static func line(_ record: Record) -> String {
        let t = record.trial
        return "{\"k\": \(t.iteration), \"flip\": [\(t.flips.map(String.init).joined(separator: ", "))], "
            + "\"plus\": [\(t.plus.map(String.init).joined(separator: ", "))], "
            + "\"minus\": [\(t.minus.map(String.init).joined(separator: ", "))], "
            + "\"result\": \(number(record.result)), \"games\": [\(record.games.map(JSONText.quoted).joined(separator: ", "))], "
            + "\"theta\": [\(record.theta.map { number(($0 * 1000).rounded() / 1000) }.joined(separator: ", "))]}"
    }

    /// Reads a trace: its header and its pairs in the order they finished. θ of the state is
    /// the last pair's (the start values when there is none).
    public static func read(_ text: String) throws(ReadError) -> (header: Header, records: [Record]) {
        var header: Header?
        var records: [Record] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = String(raw)
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            let value: JSONValue
            do {
                value = try JSONValue.parse(line)
            } catch {
                throw ReadError(line: lineNumber, message: "not JSON: \(error)")
            }
            do {
                if header == nil {
                    header = try readHeader(value)
                } else if let header {
                    let record = try readRecord(value, parameters: header.state.parameters.count)
                    records.append(record)
                }
            } catch let error as FieldError {
                throw ReadError(line: lineNumber, message: error.message)
            } catch {
                throw ReadError(line: lineNumber, message: "\(error)")
            }
        }
        guard var header else { throw ReadError(line: 1, message: "no header line") }
        if let last = records.last { header.state.theta = last.theta }
        return (header, records)
    }

    struct FieldError: Error { let message: String }

    static func readHeader(_ value: JSONValue) throws -> Header {
        guard value["spsa"]?.number == 1 else { throw FieldError(message: "not an spsa trace header (\"spsa\": 1)") }
        let parameters = try field(value, "parameters").array.map { p -> SPSAParameter in
            SPSAParameter(name: try text(p, "name"), start: try double(p, "start"), minimum: try double(p, "min"),
                          maximum: try double(p, "max"), cEnd: try double(p, "c_end"), rEnd: try double(p, "r_end"))
        }
        guard !parameters.isEmpty else { throw FieldError(message: "no parameters") }
        let iterations = Int(try double(value, "iterations"))
        guard iterations >= 1 else { throw FieldError(message: "iterations must be at least 1") }
        let schedule = SPSASchedule(iterations: iterations, alpha: try double(value, "alpha"),
                                    gamma: try double(value, "gamma"), stability: try double(value, "A"))
        guard let seed = UInt64(try field(value, "seed").literal) else { throw FieldError(message: "seed is not an integer") }
        return Header(engine: try text(value, "engine"), timeControl: try text(value, "tc"),
                      openings: try text(value, "openings"),
                      state: SPSAState(parameters: parameters, schedule: schedule, seed: seed))
    }

    static func readRecord(_ value: JSONValue, parameters count: Int) throws -> Record {
        func integers(_ key: String) throws -> [Int] {
            let list = try field(value, key).array.map { v -> Int in
                guard let x = v.number, x == x.rounded() else { throw FieldError(message: "\(key) holds a non-integer") }
                return Int(x)
            }
            guard list.count == count else { throw FieldError(message: "\(key) has \(list.count) values, not \(count)") }
            return list
        }
        let k = Int(try double(value, "k"))
        guard k >= 1 else { throw FieldError(message: "k must be at least 1") }
        let flips = try integers("flip")
        guard flips.allSatisfy({ $0 == 1 || $0 == -1 }) else { throw FieldError(message: "flip holds a value other than ±1") }
        let theta = try field(value, "theta").array.map { v -> Double in
            guard let x = v.number else { throw FieldError(message: "theta holds a non-number") }
            return x
        }
        guard theta.count == count else { throw FieldError(message: "theta has \(theta.count) values, not \(count)") }
        let games = try field(value, "games").array.map { v -> String in
            guard case .string(let s) = v else { throw FieldError(message: "games holds a non-string") }
            return s
        }
        return Record(trial: SPSATrial(iteration: k, flips: flips, plus: try integers("plus"), minus: try integers("minus")),
                      result: try double(value, "result"), games: games, theta: theta)
    }

    static func field(_ value: JSONValue, _ key: String) throws -> JSONValue {
        guard let v = value[key] else { throw FieldError(message: "no \"\(key)\"") }
        return v
    }

    static func double(_ value: JSONValue, _ key: String) throws -> Double {
        guard let x = try field(value, key).number, x.isFinite else { throw FieldError(message: "\"\(key)\" is not a number") }
        return x
    }

    static func text(_ value: JSONValue, _ key: String) throws -> String {
        guard case .string(let s) = try field(value, key) else { throw FieldError(message: "\"\(key)\" is not a string") }
        return s
    }

    /// A number as JSON writes it: integers without a fraction, others in Swift's shortest form.
    public static func number(_ x: Double) -> String {
        if x == x.rounded() && abs(x) < 1e15 { return String(Int(x)) }
        return "\(x)"
    }
}

/// A parsed JSON value (enough of JSON for traces: objects, arrays, strings, numbers,
/// true/false/null). Numbers keep their literal text.
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case numberLiteral(String)
    case bool(Bool)
    case null

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.numberLiteral(let x), .numberLiteral(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var number: Double? {
        guard case .numberLiteral(let text) = self else { return nil }
        return Double(text)
    }

    var literal: String {
        if case .numberLiteral(let text) = self { return text }
        return ""
    }

    var array: [JSONValue] {
        get throws {
            guard case .array(let items) = self else { throw SPSATrace.FieldError(message: "expected an array") }
            return items
        }
    }

    struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let message: String
        var description: String { "\(message) at character \(offset + 1)" }
    }

    static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipBlanks()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index, message: "text after the value") }
        return value
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipBlanks() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func fail(_ message: String) -> ParseError { ParseError(offset: index, message: message) }

        mutating func expect(_ word: String) throws(ParseError) {
            for b in word.utf8 {
                guard index < bytes.count, bytes[index] == b else { throw fail("expected \(word)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw fail("nested too deeply") }
            skipBlanks()
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, JSONValue)] = []
                skipBlanks()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipBlanks()
                    let key = try string()
                    skipBlanks()
                    try expect(":")
                    members.append((key, try value(depth: depth + 1)))
                    skipBlanks()
                    guard index < bytes.count else { throw fail("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipBlanks()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipBlanks()
                    guard index < bytes.count else { throw fail("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                let literal = String(decoding: bytes[start..<index], as: UTF8.self)
                guard !literal.isEmpty, Double(literal) != nil else { index = start; throw fail("expected a value") }
                return .numberLiteral(literal)
            }
        }

        mutating func string() throws(ParseError) -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                if b == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                if b != UInt8(ascii: "\\") { run.append(b); continue }
                flush()
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                        throw fail("bad \\u escape")
                    }
                    index += 4
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(e))
                }
            }
            throw fail("unterminated string")
        }
    }
}
