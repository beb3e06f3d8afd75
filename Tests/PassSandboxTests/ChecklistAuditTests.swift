import Foundation
import Testing

@testable import PassSandbox

/// The cases an independent audit of the checklist monitor found, each played by a plain
/// HTTP client over loopback (no SDK) against a sandbox on a manual clock, and judged by
/// what `GET /checklist` answers as JSON: three things a person does that must raise no
/// mandatory violation, seven broken clients that must not get a clean report, and a
/// logout whose MVPD page no user agent opens.
@Suite("Checklist monitor: the audit's cases over loopback HTTP")
struct ChecklistAuditTests {
    /// A requestor's client on one device, and what the monitor says of it.
    struct Player {
        let rig: LoopbackRig
        var tv: LoopbackTV

        init() async throws {
            rig = try LoopbackRig()
            tv = try await rig.registerTV(deviceID: "audit-tv")
        }

        var clock: SandboxClock { rig.sandbox.clock }

        /// Signs in at the MVPD page and retrieves the profile with one poll.
        func signIn(mvpd: String = "NotBoarded") async throws {
            let code = try await tv.code(mvpd: mvpd)
            let login = try await rig.postPage(
                "/mvpd/\(mvpd)/login", [("code", code), ("username", "alice"), ("password", "alice123")])
            #expect([200, 302].contains(login.status))
            #expect(try await tv.profiles(forCode: code)[mvpd] != nil)
        }

        /// A decision request for `resources`; returns the HTTP status.
        @discardableResult
        func decide(_ kind: String, _ resources: [String], mvpd: String = "NotBoarded") async throws -> LoopbackAnswer {
            var headers = tv.headers
            headers["Content-Type"] = "application/json"
            let body = try JSONSerialization.data(withJSONObject: ["resources": resources])
            return try await rig.send(
                "POST", "/api/v2/REF30/decisions/\(kind)/\(mvpd)", headers: headers,
                body: String(decoding: body, as: UTF8.self))
        }

        func get(_ target: String, extraHeaders: [String: String] = [:]) async throws -> LoopbackAnswer {
            try await rig.send("GET", target, headers: tv.headers.merging(extraHeaders) { $1 })
        }

        /// The rules of the violations and of the notices `GET /checklist` reports.
        func verdict() async throws -> (violations: [String], notices: [String]) {
            let report = try await rig.send("GET", "/checklist", headers: ["Accept": "application/json"]).object()
            let rules = { (key: String) in (report[key] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            }
            return (rules("violations"), rules("notices"))
        }
    }

    // MARK: What a person does: no mandatory violation

    @Test func fivePlaysOfADeniedTitleTwentySecondsApartAreNotARetryLoop() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        for _ in 0..<5 {
            player.clock.advance(by: 20)
            let answer = try await player.decide("authorize", ["premium"]).object()
            #expect((answer["decisions"] as? [[String: Any]])?.first?["authorized"] as? Bool == false)
        }
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == [])
    }

    @Test func aSignedInPersonWhoOpensTheProviderListAndBacksOutGetsANoticeAtMost() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        player.clock.advance(by: 600)
        #expect(try await player.get("/api/v2/REF30/configuration").status == 200)
        player.clock.advance(by: 30)
        try await player.decide("authorize", ["news"])
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["configuration-while-authenticated"])
    }

    @Test func aSignedInPersonWhoChoosesAnotherProviderAfterThreeMinutesRaisesNothing() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        player.clock.advance(by: 600)
        #expect(try await player.get("/api/v2/REF30/configuration").status == 200)
        player.clock.advance(by: 180)
        _ = try await player.tv.code(mvpd: "SVCProvider")  // the person chose another provider
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == [])
    }

    // MARK: Broken clients: never a clean report

    @Test func aNonRetryableDenialAskedFourTimesInARowIsCaught() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        for _ in 0..<4 {
            player.clock.advance(by: 1)
            try await player.decide("authorize", ["premium"])
        }
        #expect(try await player.verdict().violations == ["non-retryable-retried"])
    }

    @Test func twentyFailingAuthorizationsOfTwoResourcesInTurnAreCaught() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        for index in 0..<20 {
            player.clock.advance(by: 0.5)
            try await player.decide("authorize", [index.isMultiple(of: 2) ? "premium" : "movies"])
        }
        #expect(try await player.verdict().violations == ["alternating-failures"])
    }

    @Test func aNewDeviceIdentifierAtEveryLaunchOfOneClientIsANotice() async throws {
        var player = try await Player()
        defer { player.rig.shutdown() }
        for launch in 1...3 {
            player.clock.advance(by: 3_600)
            player.tv = LoopbackTV(rig: player.rig, bearer: player.tv.bearer, deviceID: "launch-\(launch)")
            #expect(try await player.get("/api/v2/REF30/profiles").status == 200)
        }
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["device-identifier-unstable"])
    }

    @Test func aClientThatPersistsNothingIsANotice() async throws {
        var player = try await Player()
        defer { player.rig.shutdown() }
        for launch in 1...3 {
            player.clock.advance(by: 3_600)
            player.tv = try await player.rig.registerTV(deviceID: "fresh-\(launch)")
            #expect(try await player.get("/api/v2/REF30/profiles").status == 200)
        }
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["nothing-persisted"])
    }

    @Test func tenIdenticalPermittedPreauthorizationsInATenthOfASecondAreCaught() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        for _ in 0..<10 {
            player.clock.advance(by: 0.01)
            let answer = try await player.decide("preauthorize", ["news", "sports"]).object()
            #expect((answer["decisions"] as? [[String: Any]])?.allSatisfy { $0["authorized"] as? Bool == true } == true)
        }
        #expect(try await player.verdict().violations == ["preauthorization-not-cached"])
    }

    @Test func parametersAndHeadersTheAPIDoesNotDefineAreCaughtWhenAnswered200() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        let answer = try await player.get(
            "/api/v2/REF30/profiles?deviceId=audit-tv&format=json", extraHeaders: ["X-Legacy-Requestor": "REF30"])
        #expect(answer.status == 200)
        let verdict = try await player.verdict()
        #expect(verdict.violations == ["undefined-parameter"])
        #expect(verdict.notices == ["undefined-header"])
    }

    @Test func pollsTwentySecondsApartAreANotice() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        let code = try await player.tv.code(mvpd: "NotBoarded")
        for _ in 0..<3 {
            player.clock.advance(by: 20)
            #expect(try await player.tv.profiles(forCode: code).isEmpty)
        }
        _ = try await player.rig.postPage(
            "/mvpd/NotBoarded/login", [("code", code), ("username", "alice"), ("password", "alice123")])
        player.clock.advance(by: 20)
        #expect(try await player.tv.profiles(forCode: code)["NotBoarded"] != nil)
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["poll-too-slow"])
    }

    @Test func pollsThatStopLongBeforeTheCodeExpiresWithoutAProfileAreANotice() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        let code = try await player.tv.code(mvpd: "NotBoarded")
        for _ in 0..<4 {
            player.clock.advance(by: 5)
            #expect(try await player.tv.profiles(forCode: code).isEmpty)
        }
        #expect(try await player.verdict().notices == [], "the code is still open: the polls may yet go on")
        player.clock.advance(by: TimeInterval(SandboxWorld.defaultAuthenticationSessionTTL))
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["poll-stopped-early"])
    }

    @Test func aLogoutWhoseMVPDPageNoUserAgentOpensIsANotice() async throws {
        let player = try await Player()
        defer { player.rig.shutdown() }
        try await player.signIn()
        player.clock.advance(by: 60)
        let page = try await player.tv.logoutURL(mvpd: "NotBoarded")
        let verdict = try await player.verdict()
        #expect(verdict.violations == [])
        #expect(verdict.notices == ["logout-page-not-opened"])

        // A user agent opens the page: the notice is withdrawn.
        let opened = try await player.rig.getPage(page)
        #expect(opened.status == 302)
        #expect(try await player.verdict().notices == [])
    }
}
