import AccessEnabler
import AccessEnablerScenarios
import PassSandbox
import Testing

@Suite struct SmokeTests {
    @Test func demoRuns() async throws {
        let (scenario, _) = DemoScript.make()
        let runner = ScenarioRunner(scenario: scenario, wire: .inProcess, traceHTTP: true)
        let result = try await runner.run()
        for line in result.lines { print(HumanTranscriptFormatter.render(line)) }
    }
}
