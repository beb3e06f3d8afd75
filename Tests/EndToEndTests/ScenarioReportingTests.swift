import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// What the scenario runner says about a run: a `login` step that could not log in, the
/// checklist's findings at the end of the transcript, and an unmet expectation named by its
/// JSON path with the closest line seen.
@Suite struct ScenarioReportingTests {
    /// A valid `X-Device-Info` value.
    private enum SandboxDeviceInfoSample {
        static let value = Data(
            #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN"}"#.utf8
        ).base64EncodedString()
    }

    @Test(arguments: bothWires)
    func aLoginWithAWrongPasswordOnTheLoginPageWritesARefusedLine(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        try await rig.run(.setSelectedProvider("NotBoarded"))
        rig.recorder.reset()
        try await rig.runner.step(.login(username: "alice", password: "wrong"))
        #expect(
            rig.recorder.lines.map(\.json) == [
                #"{"step":3,"name":"login"}"#,
                #"{"login":"refused","detail":"The MVPD login page refused the credentials: The username or password is incorrect."}"#,
            ])
    }

    @Test(arguments: bothWires)
    func aLoginWithNothingToLogInToAndAWrongPasswordOnTheSecondScreenWriteRefusedLines(wire: ScenarioRunner.Wire)
        async throws
    {
        let rig = try Rig(wire) { $0.loginScreen = .secondScreen }
        try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        rig.recorder.reset()
        try await rig.runner.step(.login(username: "alice", password: "alice123"))
        #expect(
            rig.recorder.lines.last?.json
                == #"{"login":"refused","detail":"Nothing to log in to: the app has shown no login page (navigateToUrl) and no registration code (REGCODE)."}"#
        )

        try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        try await rig.run(.setSelectedProvider("NotBoarded"))
        rig.recorder.reset()
        try await rig.runner.step(.login(username: "alice", password: "wrong"))
        let refused = try #require(rig.recorder.lines.first { $0["login"] != nil })
        #expect(refused["login"] == .string("refused"))
        #expect(
            refused["detail"]?.stringValue?.hasPrefix("The MVPD login page refused the credentials") == true,
            "\(refused)")
    }

    @Test func theTranscriptEndsWithTheChecklistAndItsCountWhichAnExpectationMayRequire() async throws {
        var scenario = Scenario()
        scenario.device.present = false
        scenario.steps = [.setRequestor("REF30", serviceProviders: nil)]
        // The count first: it is checked against the run's end wherever it stands.
        scenario.expect = [
            ["checklistViolations": .number(1)], ["callback": .string("setRequestorComplete"), "status": .number(1)],
        ]
        let runner = ScenarioRunner(scenario: scenario, wire: .inProcess)
        try runner.start()
        defer { runner.stop() }
        try await runner.step(scenario.steps[0])
        // Another client on the same sandbox asks for the configuration without its access token.
        let device = "fingerprint " + Data("other-client".utf8).base64EncodedString()
        _ = await runner.sandbox.respond(
            to: SandboxRequest(
                method: "GET", path: "/api/v2/REF30/configuration",
                headers: [("AP-Device-Identifier", device), ("X-Device-Info", SandboxDeviceInfoSample.value)]))
        let result = runner.finish()
        #expect(result.passed, "\(result.summary)")
        #expect(result.summary == "2 expectations met")
        #expect(
            result.lines.suffix(2).map(\.json) == [
                #"{"checklist":"authorization-header-missing","request":"GET /api/v2/REF30/configuration","detail":"Sent without the Authorization header; every REST API v2 request carries it."}"#,
                #"{"checklistViolations":1}"#,
            ])
        #expect(result.checklist.brokenRules == ["authorization-header-missing"])
        #expect(runner.finish().lines.count == result.lines.count, "a second finish adds nothing")

        let strict = ScenarioResult(
            lines: result.lines, expectations: [["checklistViolations": .number(0)]], checklist: result.checklist)
        #expect(strict.unmetPath == "$.expect[0]")
        #expect(
            strict.summary
                == #"expectation $.expect[0] not met: {"checklistViolations":0}; closest line seen: {"checklistViolations":1}"#
        )
    }

    @Test func aNoticeEndsTheTranscriptBesideTheViolationsAndIsNotCounted() async throws {
        // tvOS opens no MVPD logout page: the monitor cannot know one was opened elsewhere.
        // The example opens its page on a "phone" afterwards; here nobody does.
        let file = ScenarioFileTests.directory.appendingPathComponent("regular-logout-tvos.json")
        var scenario = try ScenarioParser.parse(try Data(contentsOf: file))
        scenario.steps.removeAll { if case .openLogoutPages = $0 { true } else { false } }
        scenario.expect = []
        let result = try await ScenarioRunner(scenario: scenario, wire: .inProcess).run()
        #expect(result.passed, "\(result.summary)")
        #expect(result.checklist.violations.isEmpty)
        #expect(result.checklist.notices.map(\.rule) == ["logout-page-not-opened"])
        let ending = result.lines.suffix(2)
        #expect(ending.first?["checklistNotice"] == .string("logout-page-not-opened"))
        #expect(ending.first?["request"] == .string("GET /api/v2/REF30/logout/NotBoarded"))
        #expect(ending.first?["detail"]?.stringValue?.contains("no user agent has opened it") == true)
        #expect(ending.last?.json == #"{"checklistViolations":0}"#, "a notice is not a violation")
    }

    @Test func anUnmetExpectationNamesItsPathAndTheClosestLineAfterThePreviousMatch() {
        let lines = [
            TranscriptLine([("step", .number(0)), ("name", .string("setRequestor"))]),
            TranscriptLine([("callback", .string("setRequestorComplete")), ("status", .number(1))]),
            TranscriptLine([
                ("callback", .string("setAuthenticationStatus")), ("status", .number(0)),
                ("errorCode", .string("User Not Authenticated Error")),
            ]),
            TranscriptLine([
                ("callback", .string("setAuthenticationStatus")), ("status", .number(1)), ("errorCode", .string("")),
            ]),
        ]
        let expectations: [[String: JSONValue]] = [
            ["callback": .string("setRequestorComplete")],
            ["callback": .string("setAuthenticationStatus"), "status": .number(1), "errorCode": .string("X")],
        ]
        let result = ScenarioResult(
            lines: lines, expectations: expectations, checklist: SandboxChecklist(rules: [], violations: []))
        #expect(result.unmetPath == "$.expect[1]")
        #expect(result.closestLine == lines[3], "two of its three keys at their values, more than the line before")
        #expect(
            result.summary
                == #"expectation $.expect[1] not met: {"callback":"setAuthenticationStatus","errorCode":"X","status":1}; closest line seen: {"callback":"setAuthenticationStatus","status":1,"errorCode":""}"#
        )
        let none = ScenarioResult(
            lines: lines, expectations: [["nothing": .bool(true)]],
            checklist: SandboxChecklist(rules: [], violations: []))
        #expect(none.closestLine == nil)
        #expect(none.summary == #"expectation $.expect[0] not met: {"nothing":true}; no line has any of its keys"#)
        #expect(
            ScenarioResult(
                lines: lines, expectations: [expectations[0]], checklist: SandboxChecklist(rules: [], violations: [])
            ).summary == "1 expectation met")
    }
}
