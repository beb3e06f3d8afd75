import AccessEnabler
import AccessEnablerScenarios
import Foundation
import Testing

/// Every example scenario under Docs/scenarios runs green: each is one behaviour-matrix row
/// with its `expect` list, so the documentation cannot drift from what the SDK does. And the
/// sandbox's checklist monitor finds nothing in any of them.
@Suite struct ScenarioFileTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/scenarios")

    /// Every scenario file.
    static var allFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The scenario files that run.
    static var files: [String] { allFiles }

    @Test func thereAreScenarioFiles() {
        #expect(Self.files.count >= 10, "Docs/scenarios should hold one scenario per behaviour-matrix row")
    }

    @Test(arguments: files)
    func scenarioRunsGreen(file: String) async throws {
        try await Self.runGreen(file)
    }

    private static func runGreen(_ file: String) async throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        let scenario = try ScenarioParser.parse(data)
        #expect(!scenario.expect.isEmpty, "\(file) has no expect list")
        let result = try await ScenarioRunner(scenario: scenario, wire: .loopbackHTTP, traceHTTP: true).run()
        let violations = result.checklist.violationLines
        #expect(
            violations.isEmpty, "\(file) breaks Adobe's REST API V2 Checklist:\n\(violations.joined(separator: "\n"))")
        if let unmet = result.unmetExpectation {
            Issue.record(
                "\(file): expectation \(unmet.index) not met: \(unmet.expectation.keys.sorted().map { "\($0)=\(unmet.expectation[$0]!.compactJSON)" }.joined(separator: " "))\ntranscript:\n\(result.lines.map(\.json).joined(separator: "\n"))"
            )
        }
    }
}
