import Foundation
import Testing

@testable import PassSandbox

/// The checklist monitor inside PassSandbox: the facts the endpoints record for the rules
/// (a profile held, a code's state, tokens, denials, errors), the report at `/checklist` as
/// JSON and as a page, starting over, and a history that stays bounded without losing a
/// violation.
@Suite("Checklist monitor in the sandbox")
struct ChecklistMonitorTests {
    private static func report(_ sandbox: PassSandbox, accept: String = "application/json") async throws -> (
        status: Int, json: [String: Any]
    ) {
        let response = await sandbox.respond(
            to: SandboxRequest(method: "GET", path: "/checklist", headers: [("Accept", accept)]))
        #expect(response.header("Content-Type") == SandboxResponse.jsonContentType)
        return (response.status, try SandboxTestClient.object(response))
    }

    @Test func theJSONAnswerHasExactlyTheDocumentedShape() async throws {
        let client = try await SandboxTestClient()
        _ = await client.get("/api/v2/REF30/configuration")
        _ = await client.get("/api/v2/REF30/configuration")
        let (status, json) = try await Self.report(client.sandbox, accept: "application/json")
        #expect(status == 200)
        #expect(Set(json.keys) == ["rules", "violations", "notices", "coverage"])
        let rules = try #require(json["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ChecklistRules.all.map(\.id))
        #expect(rules.allSatisfy { Set($0.keys) == ["id", "line", "level", "evidence", "limits"] })
        #expect(rules.allSatisfy { ["mandatory", "recommended", "notice"].contains($0["level"] as? String ?? "") })
        #expect(rules.allSatisfy { SandboxChecklistEvidence(rawValue: $0["evidence"] as? String ?? "") != nil })
        #expect(try #require(json["notices"] as? [[String: Any]]).isEmpty)
        let coverage = try #require(json["coverage"] as? [[String: Any]])
        #expect(coverage.count == ChecklistCoverage.lines.count)
        #expect(coverage.allSatisfy { Set($0.keys) == ["phase", "line", "level", "rules", "unseen"] })
        let scoping = try #require(coverage.first)
        #expect(scoping["rules"] as? [String] == [])
        #expect((scoping["unseen"] as? String)?.isEmpty == false, "a line no rule judges says why")
        let violations = try #require(json["violations"] as? [[String: Any]])
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(Set(violation.keys) == ["rule", "device", "request", "at", "detail"])
        #expect(violation["rule"] as? String == "configuration-repeated")
        #expect(violation["device"] as? String == Data("device-1".utf8).base64EncodedString())
        #expect(violation["request"] as? String == "GET /api/v2/REF30/configuration")
        #expect(violation["at"] as? String == "2026-01-01T00:00:00.000Z")
        #expect(
            violation["detail"] as? String
                == "Asked for the configuration of REF30 again 0 s after it was answered; keep the answer a few "
                + "minutes."
        )
    }

    @Test func thePageIsForAPersonAndDeleteStartsOver() async throws {
        let client = try await SandboxTestClient()
        _ = await client.get("/api/v2/REF30/configuration")
        _ = await client.get("/api/v2/REF30/configuration")
        let page = await client.sandbox.respond(
            to: SandboxRequest(method: "GET", path: "/checklist", headers: [("Accept", "text/html")]))
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(SandboxPageKind(html: html) == .checklist)
        #expect(html.contains("1 violation of 1 rule on 1 device (0 mandatory)."))
        #expect(html.contains(#"<h2 id="coverage">Adobe's checklist, line by line</h2>"#))
        #expect(html.contains("(device-1)"), "a readable identifier is shown beside its Base64")
        #expect(html.contains(#"<tr class="broken" id="rule-configuration-repeated">"#))
        #expect(
            await client.sandbox.respond(to: SandboxRequest(method: "GET", path: "/checklist")).header("Content-Type")?
                .hasPrefix("text/html") == true)

        let reset = await client.sandbox.respond(to: SandboxRequest(method: "DELETE", path: "/checklist"))
        #expect(reset.status == 204)
        #expect(client.sandbox.checklist.violations.isEmpty)
        let clean = String(
            decoding: await client.sandbox.respond(to: SandboxRequest(method: "GET", path: "/checklist")).body,
            as: UTF8.self)
        #expect(clean.contains("No violations: every request so far keeps to the lines below."))
        #expect(await client.sandbox.respond(to: SandboxRequest(method: "POST", path: "/checklist")).status == 405)
        #expect(client.sandbox.checklist.violations.isEmpty, "the monitor's own page is not a client's request")
    }

    /// The `/checklist` page as a browser gets it.
    private static func page(_ sandbox: PassSandbox) async -> String {
        let answer = await sandbox.respond(to: SandboxRequest(method: "GET", path: "/checklist"))
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test func thePageShowsNoticesApartFromViolationsAndEveryLineOfTheChecklist() async throws {
        var client = try await SandboxTestClient()
        client.deviceID = "kitchen-stick"
        _ = try await client.login(mvpd: "NotBoarded")
        _ = await client.get("/api/v2/REF30/configuration")  // signed in, and nothing chosen after: a notice
        let clean = await Self.page(client.sandbox)
        #expect(clean.contains(#"<p class="verdict noticed" id="verdict">No violations"#))
        #expect(clean.contains("1 notice to look at"))
        #expect(clean.contains(#"<tr class="noticed" id="rule-configuration-while-authenticated">"#))
        let notices = try #require(clean.range(of: #"<h2 id="notices">Notices by device</h2>"#))
        let coverage = try #require(clean.range(of: #"<h2 id="coverage">"#))
        let section = clean[notices.upperBound..<coverage.lowerBound]
        #expect(section.contains("(kitchen-stick)"))
        #expect(section.contains(#"<code class="id">configuration-while-authenticated</code>"#))
        #expect(section.contains(#"<code class="path">GET /<wbr>api/<wbr>v2/<wbr>REF30/<wbr>configuration</code>"#))
        let coverageRows = clean.components(separatedBy: #"<tr><td data-label="phase">"#).count - 1
        #expect(coverageRows == ChecklistCoverage.lines.count)
        #expect(clean.contains(#"<td class="unjudged" data-label="judged by">not judged</td>"#))

        _ = await client.get("/api/v2/REF30/profiles?requestor=REF30")
        let broken = await Self.page(client.sandbox)
        #expect(broken.contains("1 violation of 1 rule on 1 device (1 mandatory). 1 notice to look at"))
    }

    @Test func theConfigurationEndpointTellsWhetherTheDeviceHeldAProfile() async throws {
        let client = try await SandboxTestClient()
        _ = await client.get("/api/v2/REF30/configuration")  // choosing a provider: fine
        _ = try await client.login(mvpd: "NotBoarded")
        client.sandbox.clock.advance(by: 300)
        _ = await client.get("/api/v2/REF30/configuration")  // signed in: the profile names the provider
        let notices = client.sandbox.checklist.notices
        #expect(notices.map(\.rule) == ["configuration-while-authenticated"])
        #expect(notices.first?.at == client.sandbox.clock.now)
        #expect(client.sandbox.checklist.violations.isEmpty, "a notice, never a violation: the person may be choosing")

        // A forced sign-in, however much later, withdraws it: the person chose from the list.
        client.sandbox.clock.advance(by: 600)
        _ = await client.createSession(mvpd: "SVCProvider")
        #expect(client.sandbox.checklist.notices.isEmpty)
    }

    @Test func theTokenEndpointAndThePollsRecordWhatTheRulesNeed() async throws {
        let sandbox = PassSandbox()
        let credentials = try await SandboxTestClient.register(sandbox, statement: "STATEMENT")
        _ = try await SandboxTestClient.token(sandbox, clientID: credentials.clientID, secret: credentials.secret)
        sandbox.clock.advance(by: 60)
        _ = try await SandboxTestClient.token(sandbox, clientID: credentials.clientID, secret: credentials.secret)
        #expect(
            sandbox.checklist.violations.map(\.detail) == [
                "Asked for a new access token while the previous one still had 23 h 59 min of its 24 h left; "
                    + "reuse it until it expires."
            ]
        )
        sandbox.resetChecklist()

        var client = try await SandboxTestClient(sandbox: sandbox)
        client.deviceID = "tv"
        let code = try #require(
            try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded")).string("code"))
        sandbox.clock.advance(by: SandboxEngine.authenticationSessionTTL)
        _ = await client.get("/api/v2/REF30/profiles/code/\(code)")
        let expired = sandbox.checklist.violations(of: "poll-after-session-end")
        #expect(
            expired.map(\.detail) == [
                "Polled code \(code) after its session and code had expired; stop polling when the session ends."
            ])
        #expect(expired.first?.device == Data("tv".utf8).base64EncodedString())
    }

    @Test func aDeniedDecisionThenALogoutAndARetryLoopOfAnInjectedFault() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        _ = await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["premium"]}"#)
        client.sandbox.clock.advance(by: 1)
        _ = await client.get("/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fios.app")
        #expect(client.sandbox.checklist.brokenRules == ["logout-after-denial"])

        client.sandbox.resetChecklist()
        client.sandbox.inject(SandboxFault(status: 503, remaining: 5), into: .profiles)
        for _ in 0..<5 { _ = await client.get("/api/v2/REF30/profiles") }
        #expect(client.sandbox.checklist.brokenRules == ["retry-loop"])
        #expect(client.sandbox.checklist(skipping: ["retry-loop"]).violations.isEmpty)
    }

    @Test func aLongRunKeepsTheViolationsOfRequestsNoLongerInTheHistory() {
        var monitor = ChecklistMonitor()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var facts = ObservedFacts()
        facts.heldProfile = true
        let route = SandboxRoute(method: "GET", path: "/api/v2/REF30/configuration")
        for index in 0...ChecklistMonitor.capacity {
            monitor.record { sequence in
                ObservedRequest(
                    sequence: sequence, at: start.addingTimeInterval(Double(index) * 200), method: "GET",
                    path: "/api/v2/REF30/configuration", route: route, status: 200,
                    deviceID: "ZGV2aWNl", sentAuthorization: true, sentDeviceIdentifier: true, sentDeviceInfo: true,
                    bearer: 1, signature: 1,
                    facts: index == 0 ? facts : ObservedFacts())
            }
        }
        #expect(monitor.history.count == ChecklistMonitor.capacity / 2 + 1)
        let violations = ChecklistMonitor.findings(history: monitor.history, settled: monitor.settled, now: start)
        #expect(
            violations.map(\.rule) == ["configuration-while-authenticated"],
            "found in a request the history no longer holds")
        #expect(violations.first?.at == start)
    }
}
