import AccessEnabler
import AccessEnablerScenarios
import Foundation
import Testing

/// Transcripts (the demo, `accessenabler scenario`) never show a media token, and HTTP
/// trace lines carry only the method, the path and the status.
@Suite struct TranscriptSecrecyTests {
    @Test func mediaTokensAreRedactedAndTracesCarryNoSecrets() async throws {
        var scenario = Scenario()
        scenario.device.signedIn = Scenario.SignIn(provider: "AppleBoarded", user: "alice")
        scenario.steps = [.setRequestor("REF30", serviceProviders: nil), .checkAuthorization("news")]
        let result = try await ScenarioRunner(scenario: scenario, wire: .inProcess, traceHTTP: true).run()
        let token = try #require(result.lines.first { $0.callback == "setToken" }?["token"]?.stringValue)
        #expect(token.hasPrefix("<media token, ") && token.hasSuffix(" characters, redacted>"))
        let traces = result.lines.filter { $0["http"] != nil }
        #expect(traces.count == 7)
        #expect(traces.allSatisfy { $0.fields.map(\.key) == ["http", "status"] })
        let text = result.lines.map(\.json).joined(separator: "\n")
        #expect(!text.contains("Bearer") && !text.contains("SAMLResponse") && !text.contains("client_secret"))
    }
}
