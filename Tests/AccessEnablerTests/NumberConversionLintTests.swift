import Foundation
import Testing

@testable import AccessEnabler

/// No conversion of a floating-point value to an integer in the SDK can stop the process:
/// `Int(_:)` of a `Double` traps on NaN, an infinity or a value beyond the integer's range,
/// and numbers from outside (a server, the configuration, a storage file) can be any of
/// those. Such conversions go through ``WholeNumber``.
///
/// How it is checked: every integer initialiser called with an unlabelled argument in the
/// SDK's sources (comments removed) whose argument mentions a duration, a date or rounding
/// — the shapes every trap of this kind had (`Int($0.rounded(.up))`,
/// `Int64((date.timeIntervalSince1970 * 1000).rounded())`, `Int(polling.interval)`) — is a
/// finding. `Integer(exactly:)`, `(clamping:)`, `(truncatingIfNeeded:)` and
/// `(bitPattern:)` never trap and are not looked at.
@Suite struct NumberConversionLintTests {
    static let conversion = try! NSRegularExpression(
        pattern:
            #"\b(U?Int(8|16|32|64)?)\((?!exactly:|clamping:|truncatingIfNeeded:|bitPattern:)[^)]*(rounded|[Tt]imeInterval|Double|seconds|interval|duration|Date)"#
    )

    @Test func noIntegerIsMadeFromADurationOrADateWithATrappingInitialiser() throws {
        var findings: [String] = []
        for (path, source) in try ArchitectureFolderDirectionTests.files() where path != "Support/WholeNumber.swift" {
            for (number, line) in source.components(separatedBy: "\n").enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                let range = NSRange(code.startIndex..., in: code)
                if Self.conversion.firstMatch(in: code, range: range) != nil {
                    findings.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(findings.isEmpty, "use WholeNumber.clamped: \(findings.joined(separator: "\n"))")
    }

    /// The lint finds the shapes it is meant to find (a lint that cannot fail proves nothing).
    @Test(arguments: [
        "let wait = \"\\(Int($0.rounded(.up))) s\"", "String(Int64((date.timeIntervalSince1970 * 1000).rounded()))",
        "every \\(Int(polling.interval)) s", "let n = Int(min(max(seconds, 0), 1_000_000_000) * 1_000_000_000)",
        "UInt64((min(max(seconds, 0.001), 1e9) * 1e9).rounded())",
    ])
    func theLintFindsTheKnownTraps(line: String) {
        #expect(Self.conversion.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil)
    }

    @Test func wholeNumbersNeverTrap() {
        let extremes: [Double] = [.nan, .infinity, -.infinity, 1e19, -1e19, 1e300, -1e300, 9.3e18, 0.5, -0.5, 2.5]
        let ints = extremes.map { WholeNumber.clamped($0) as Int }
        #expect(ints == [0, .max, .min, .max, .min, .max, .min, .max, 1, -1, 3])
        #expect(WholeNumber.clamped(1e300, as: UInt64.self) == .max)
        #expect(WholeNumber.clamped(-1, as: UInt64.self) == 0)
        #expect(WholeNumber.clamped(299.2, rounding: .up, as: Int.self) == 300)
        #expect(EpochMilliseconds.string(Date(timeIntervalSince1970: 1e297)) == "253402300799999")
        #expect(EpochMilliseconds.string(Date(timeIntervalSince1970: -1e16)) == "0")
        #expect(EpochMilliseconds.string(Date(timeIntervalSince1970: 1_767_225_600)) == "1767225600000")
    }
}
