import AccessEnabler
import Foundation

/// Puts numbers no server should send into Adobe Pass's answers, seeded: every number of a
/// JSON body (and every string of digits, such as a timestamp sent as text) becomes an
/// extreme — `±1e19`, `1e300`, `-1`, `0`, integers beyond every integer type, numbers as
/// strings, `NaN` and `Infinity` (as strings, and bare, which is no JSON) — or the answer
/// gets an extreme `Retry-After` or `Date` header, or becomes a `429` with one.
///
/// Whether and how an answer is changed depends only on the seed, the operation and how
/// many answers of that operation came before, so a seed changes the same answers however
/// the SDK's concurrent requests interleave.
final class NumberFuzzer: @unchecked Sendable {
    /// Extremes written as JSON numbers.
    static let numbers = [
        "1e19", "-1e19", "1e300", "-1e300", "-1", "0", "99999999999999999999999", "-99999999999999999999999",
        "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1.5", "4e-324", "-0",
    ]
    /// Extremes written as JSON strings.
    static let strings = [
        #""1e19""#, #""99999999999999999999999""#, #""NaN""#, #""Infinity""#, #""-1""#, #""""#, #""1e300""#,
    ]
    /// Not JSON at all: a body carrying one is unreadable.
    static let bare = ["NaN", "Infinity", "-Infinity"]
    /// `Retry-After` values.
    static let retryAfters = [
        "1e19", "-1", "NaN", "inf", "99999999999999999999999", "86400", "1e300", "0", "1.5",
        "Fri, 31 Dec 9999 23:59:59 GMT",
        "Sat, 01 Jan 99999999999 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
    ]
    /// `Date` header values.
    static let dates = [
        "Sat, 01 Jan 99999999999 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
        "Thu, 01 Jan 1970 00:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT",
    ]

    private let seed: UInt64
    private let chance: Double
    private let lock = NSLock()
    private var answered: [String: Int] = [:]
    private var changed: [String: Int] = [:]

    /// Changes an answer with probability `chance`.
    init(seed: UInt64, chance: Double) {
        self.seed = seed
        self.chance = chance
    }

    /// `inner` with its answers fuzzed.
    func over(_ inner: any HTTPTransport) -> any HTTPTransport { Fuzzing(inner: inner, fuzzer: self) }

    /// How many answers of each operation were changed.
    var changedByOperation: [String: Int] { lock.withLock { changed } }

    fileprivate func answer(_ request: HTTPRequestMessage, _ response: HTTPResponseMessage) -> HTTPResponseMessage {
        let operation = request.operationName ?? "other"
        let index: Int = lock.withLock {
            defer { answered[operation, default: 0] += 1 }
            return answered[operation, default: 0]
        }
        var random = SeededGenerator(
            seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ Self.stableHash(operation) ^ UInt64(index) &* 0xBF58_476D_1CE4_E5B9)
        guard random.chance(chance) else { return response }
        lock.withLock { changed[operation, default: 0] += 1 }
        var fuzzed = response
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
            fuzzed.body = Self.replacingNumbers(in: response.body, all: random.chance(0.5), &random)
        case 6:
            fuzzed.body = Self.replacingNumbers(in: response.body, all: true, &random)
            fuzzed.headers = Self.setting("Date", to: random.pick(Self.dates), in: response.headers)
        case 7:
            fuzzed = HTTPResponseMessage(
                status: 429,
                headers: Self.setting("Retry-After", to: random.pick(Self.retryAfters), in: response.headers),
                body: Data("<html><body>429 Too Many Requests</body></html>".utf8))
        case 8:
            fuzzed.headers = Self.setting("Retry-After", to: random.pick(Self.retryAfters), in: response.headers)
            fuzzed.body = Self.replacingNumbers(in: response.body, all: false, &random)
        default:
            fuzzed.headers = Self.setting("Date", to: random.pick(Self.dates), in: response.headers)
        }
        return fuzzed
    }

    /// The body with one number (or every number) replaced by an extreme, written as text
    /// into the re-encoded JSON; the body as it was when it is not JSON or has no number.
    static func replacingNumbers(in body: Data, all: Bool, _ random: inout SeededGenerator) -> Data {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else { return body }
        var literals: [String] = []
        let count = numberCount(in: value)
        guard count > 0 else { return body }
        let chosen = Int.random(in: 0..<count, using: &random)
        var position = 0
        let marked = mark(value, chosen: all ? nil : chosen, position: &position, literals: &literals, &random)
        guard let data = try? JSONEncoder().encode(marked), var text = String(data: data, encoding: .utf8) else {
            return body
        }
        for (index, literal) in literals.enumerated() {
            text = text.replacingOccurrences(of: "\"\(placeholder(index))\"", with: literal)
        }
        return Data(text.utf8)
    }

    /// Numbers, and strings made only of digits (timestamps sent as text).
    private static func isNumeric(_ value: JSONValue) -> Bool {
        switch value {
        case .number: true
        case .string(let text): !text.isEmpty && text.allSatisfy(\.isNumber)
        default: false
        }
    }

    private static func numberCount(in value: JSONValue) -> Int {
        switch value {
        case .array(let items): items.map(numberCount).reduce(0, +)
        case .object(let members): members.values.map(numberCount).reduce(0, +)
        default: isNumeric(value) ? 1 : 0
        }
    }

    private static func mark(
        _ value: JSONValue, chosen: Int?, position: inout Int, literals: inout [String], _ random: inout SeededGenerator
    ) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map { mark($0, chosen: chosen, position: &position, literals: &literals, &random) })
        case .object(let members):
            var copy: [String: JSONValue] = [:]
            for key in members.keys.sorted() {
                copy[key] = mark(members[key]!, chosen: chosen, position: &position, literals: &literals, &random)
            }
            return .object(copy)
        default:
            guard isNumeric(value) else { return value }
            defer { position += 1 }
            guard chosen == nil || chosen == position else { return value }
            let literal: String
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<13: literal = random.pick(numbers)
            case 13..<19: literal = random.pick(strings)
            default: literal = random.pick(bare)
            }
            literals.append(literal)
            return .string(placeholder(literals.count - 1))
        }
    }

    private static func placeholder(_ index: Int) -> String { "__number_fuzzer_\(index)__" }

    private static func setting(_ name: String, to value: String, in headers: [(name: String, value: String)]) -> [(
        name: String, value: String
    )] {
        headers.filter { $0.name.lowercased() != name.lowercased() } + [(name, value)]
    }

    /// FNV-1a: the same for a string in every process (`hashValue` is not).
    private static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    private struct Fuzzing: HTTPTransport {
        let inner: any HTTPTransport
        let fuzzer: NumberFuzzer

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            fuzzer.answer(request, try await inner.send(request, timeout: timeout))
        }
    }
}
