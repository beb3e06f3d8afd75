import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Adobe's checklist (Parameters and Headers): `Authorization`, `AP-Device-Identifier` and
/// `X-Device-Info` on every REST API V2 request — the second screen's polls included, which
/// the profile-for-code page leaves out of its table.
@Suite struct DeviceHeadersTests {
    static let checklistHeaders = ["Authorization", "AP-Device-Identifier", "X-Device-Info"]

    @Test(arguments: bothWires)
    func everyRESTRequestOfAWholeRunCarriesTheThreeHeaders(wire: ScenarioRunner.Wire) async throws {
        let harness = try RegularHarness(wire) { configuration in
            configuration.loginScreen = .secondScreen
            configuration.providerChoice = .onSecondScreen
        }
        defer { harness.stop() }
        var sent: [SentRequest] = []
        func keep() { sent += harness.capture.requests }
        #expect(await harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        keep()
        harness.recorder.reset()
        harness.accessEnabler.getAuthentication()
        await harness.settle()
        let code = try #require(harness.recorder.callbacks.last { $0.callback == "status" }?["details"]?.stringValue)
        keep()
        // The TV polls while the person takes their time, then signs in on the phone.
        for _ in 0..<3 {
            harness.capture.reset()
            harness.clock.advance(by: 5)
            await harness.settle()
            keep()
        }
        try await harness.userAgent(for: "").activate(
            code: code, username: "alice", password: "alice123", mvpd: "NotBoarded")
        harness.capture.reset()
        harness.clock.advance(by: 5)
        await harness.settle()
        keep()
        #expect(harness.accessEnabler.rememberedProvider?.id == "NotBoarded")
        _ = await harness.call { $0.checkAuthorization("news") }
        keep()
        _ = await harness.call { $0.checkPreauthorizedResources(["news", "sports"], cache: false) }
        keep()
        _ = await harness.call { $0.logout() }
        keep()

        let api = sent.filter { $0.url.path.hasPrefix("/api/v2/") }
        let polls = api.filter { $0.url.path.hasPrefix("/api/v2/REF30/profiles/code/") }
        #expect(polls.count >= 4, "\(api.map(\.line))")
        for request in api {
            for name in Self.checklistHeaders {
                #expect(request.header(name)?.isEmpty == false, "\(request.line) lacks \(name)")
            }
        }
        // Every request of the run, the same device.
        #expect(Set(api.compactMap { $0.header("AP-Device-Identifier") }).count == 1)
    }
}
