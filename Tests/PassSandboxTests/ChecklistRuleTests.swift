import Foundation
import Testing

@testable import PassSandbox

/// Each rule of the checklist monitor over a request history written by hand: a sequence
/// that breaks it (the violation names the rule, the device, the request, the time and why)
/// and one that does not.
@Suite("Checklist rules, one by one")
struct ChecklistRuleTests {
    typealias Sketch = ChecklistHistorySketch
    static let device = Sketch.device

    // MARK: Registration

    @Test func registeringAgainTwiceWhileHoldingWorkingCredentialsBreaksClientCredentialsCaching() throws {
        var sketch = Sketch()
        let expiry = sketch.now.addingTimeInterval(86_400 * 365)
        var registrations: [Int] = []
        for client in ["c1", "c2", "c3"] {
            registrations.append(
                sketch.send(
                    "POST", "/o/client/register", after: 60, device: nil,
                    facts: Sketch.facts {
                        $0.issuedRegistration = .init(clientID: client, statement: "S", expiresAt: expiry)
                    }))
            sketch.send(
                "POST", "/o/client/token", device: nil,
                facts: Sketch.facts {
                    $0.clientID = client; $0.statement = "S"
                })
            sketch.send(
                "GET", "/api/v2/REF30/profiles",
                facts: Sketch.facts {
                    $0.clientID = client; $0.statement = "S"
                })
        }

        let violations = sketch.violations(of: ChecklistRules.registrationRepeated)
        #expect(violations.count == 1, "the first registration again is forgiven: a reinstall looks the same")
        let violation = try #require(violations.first)
        #expect(violation.rule == "registration-repeated")
        #expect(violation.device == Self.device)
        #expect(violation.request == "POST /o/client/register")
        #expect(violation.at == sketch.requests[registrations[2]].at)
        #expect(
            violation.detail.contains(
                "(3 registrations on this device) although it already held working client credentials"))
    }

    @Test func registeringAgainAfterTheCredentialsWereRefusedOrOnAnotherDeviceKeepsClientCredentialsCaching() {
        var sketch = Sketch()
        let expiry = sketch.now.addingTimeInterval(86_400 * 365)
        sketch.send(
            "POST", "/o/client/register", device: nil,
            facts: Sketch.facts { $0.issuedRegistration = .init(clientID: "c1", statement: "S", expiresAt: expiry) })
        sketch.send("POST", "/o/client/token", device: nil, facts: Sketch.facts { $0.clientID = "c1" })
        sketch.send(
            "GET", "/api/v2/REF30/profiles",
            facts: Sketch.facts {
                $0.clientID = "c1"; $0.statement = "S"
            })
        // Another device registers with the same statement: its own first registration.
        let other = Data("device-2".utf8).base64EncodedString()
        sketch.send(
            "POST", "/o/client/register", device: nil,
            facts: Sketch.facts { $0.issuedRegistration = .init(clientID: "c9", statement: "S", expiresAt: expiry) })
        sketch.send(
            "GET", "/api/v2/REF30/profiles", device: other,
            facts: Sketch.facts {
                $0.clientID = "c9"; $0.statement = "S"
            })
        // The token endpoint refuses c1 (invalid_client): registering again is what to do.
        sketch.send(
            "POST", "/o/client/token", after: 60, status: 400, device: nil,
            facts: Sketch.facts {
                $0.clientID = "c1"; $0.clientRefused = true
            })
        sketch.send(
            "POST", "/o/client/register", device: nil,
            facts: Sketch.facts { $0.issuedRegistration = .init(clientID: "c2", statement: "S", expiresAt: expiry) })
        sketch.send(
            "GET", "/api/v2/REF30/profiles",
            facts: Sketch.facts {
                $0.clientID = "c2"; $0.statement = "S"
            })
        #expect(sketch.violations(of: ChecklistRules.registrationRepeated).isEmpty)
    }

    @Test func aNewAccessTokenWhileTheLastHasMostOfItsLifeBreaksAccessTokensCaching() throws {
        var sketch = Sketch()
        let issued = sketch.now.addingTimeInterval(86_400)
        sketch.send(
            "POST", "/o/client/token", device: nil,
            facts: Sketch.facts {
                $0.clientID = "c1"
                $0.issuedToken = .init(token: 11, clientID: "c1", lifetime: 86_400, expiresAt: issued)
            })
        sketch.send("GET", "/api/v2/REF30/profiles", bearer: 11, facts: Sketch.facts { $0.clientID = "c1" })
        let early = sketch.send(
            "POST", "/o/client/token", after: 600, device: nil, facts: Sketch.facts { $0.clientID = "c1" })
        let violation = try #require(sketch.violations(of: ChecklistRules.accessTokenRefreshedEarly).first)
        #expect(sketch.violations(of: ChecklistRules.accessTokenRefreshedEarly).count == 1)
        #expect(violation.rule == "access-token-refreshed-early")
        #expect(violation.request == "POST /o/client/token")
        #expect(violation.at == sketch.requests[early].at)
        #expect(violation.device == Self.device)  // the device its client was used on
        #expect(violation.detail.contains("23 h 50 min of its 24 h left"))
    }

    @Test func aNewAccessTokenNearTheEndOrAfterARefusalKeepsAccessTokensCaching() {
        var sketch = Sketch()
        let start = sketch.now
        sketch.send(
            "POST", "/o/client/token", device: nil,
            facts: Sketch.facts {
                $0.clientID = "c1"
                $0.issuedToken = .init(
                    token: 11, clientID: "c1", lifetime: 1_000, expiresAt: start.addingTimeInterval(1_000))
            })
        // 950 s later: 50 s left, less than a tenth and less than a minute.
        sketch.send(
            "POST", "/o/client/token", after: 950, device: nil,
            facts: Sketch.facts {
                $0.clientID = "c1"
                $0.issuedToken = .init(
                    token: 12, clientID: "c1", lifetime: 1_000, expiresAt: start.addingTimeInterval(1_950))
            })
        // The new token is refused at once: asking another is right.
        sketch.send("GET", "/api/v2/REF30/profiles", status: 401, bearer: 12)
        sketch.send("POST", "/o/client/token", device: nil, facts: Sketch.facts { $0.clientID = "c1" })
        #expect(sketch.violations(of: ChecklistRules.accessTokenRefreshedEarly).isEmpty)
    }

    // MARK: Configuration

    @Test func configurationWhileHoldingAProfileWithNoChoiceAfterIsANoticeAboutConfigurationRetrieval() throws {
        var sketch = Sketch()
        let asked = sketch.send("GET", "/api/v2/REF30/configuration", facts: Sketch.facts { $0.heldProfile = true })
        sketch.send("GET", "/api/v2/REF30/profiles")
        // Asked again, then a session: the session answers the second list, not the first.
        let again = sketch.send(
            "GET", "/api/v2/REF30/configuration", after: 600, facts: Sketch.facts { $0.heldProfile = true })
        sketch.send("POST", "/api/v2/REF30/sessions", after: 30)
        #expect(ChecklistRules.configurationWhileAuthenticated.description.level == .notice)
        let notices = sketch.violations(of: ChecklistRules.configurationWhileAuthenticated)
        #expect(notices.map(\.at) == [sketch.requests[asked].at])
        let notice = try #require(notices.first)
        #expect(notice.rule == "configuration-while-authenticated")
        #expect(notice.request == "GET /api/v2/REF30/configuration")
        #expect(notice.device == Self.device)
        #expect(notice.detail.contains("held a valid profile"))
        #expect(sketch.requests[again].at > notice.at)
    }

    @Test func configurationWithoutAProfileOrForAProviderChoiceKeepsConfigurationRetrieval() {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/configuration", facts: Sketch.facts { $0.heldProfile = false })
        // Signed in, then a forced sign-in: the person took 3 minutes to choose.
        sketch.send("GET", "/api/v2/REF30/configuration", after: 600, facts: Sketch.facts { $0.heldProfile = true })
        sketch.send("POST", "/api/v2/REF30/sessions", after: 180)
        // An error whose action is `configuration` asks for it.
        sketch.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 600, status: 403,
            facts: Sketch.facts { $0.errorActions = ["configuration"] })
        sketch.send("GET", "/api/v2/REF30/configuration", after: 1, facts: Sketch.facts { $0.heldProfile = true })
        #expect(sketch.violations(of: ChecklistRules.configurationWhileAuthenticated).isEmpty)
    }

    @Test func configurationAgainWithinTwoMinutesBreaksConfigurationCaching() throws {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/configuration")
        let again = sketch.send("GET", "/api/v2/REF30/configuration", after: 45)
        let violations = sketch.violations(of: ChecklistRules.configurationRepeated)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.rule == "configuration-repeated")
        #expect(violation.at == sketch.requests[again].at)
        #expect(violation.detail.contains("again 45 s after"))
    }

    @Test func configurationAfterTwoMinutesAfterAFailureOrForAnotherRequestorKeepsConfigurationCaching() {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/configuration")
        sketch.send("GET", "/api/v2/REF31/configuration", after: 10)
        sketch.send("GET", "/api/v2/REF30/configuration", after: 120)
        sketch.send("GET", "/api/v2/REF30/configuration", after: 300, status: 503)
        sketch.send("GET", "/api/v2/REF30/configuration", after: 2)  // the failed one was not an answer to keep
        #expect(sketch.violations(of: ChecklistRules.configurationRepeated).isEmpty)
    }

    /// A disabled integration (`invalid_integration`, whose action in Adobe's table is `none`)
    /// makes the provider list the device holds wrong: asking for it again is no finding.
    @Test func configurationAgainAfterInvalidIntegrationKeepsConfigurationCaching() {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/configuration")
        sketch.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 20, status: 400,
            facts: Sketch.facts {
                $0.errorActions = ["none"]
                $0.errorCode = "invalid_integration"
            })
        sketch.send("GET", "/api/v2/REF30/configuration", after: 5)
        #expect(sketch.violations(of: ChecklistRules.configurationRepeated).isEmpty)
        // Any other refusal of action `none` does not.
        var other = Sketch()
        other.send("GET", "/api/v2/REF30/configuration")
        other.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 20, status: 403,
            facts: Sketch.facts {
                $0.errorActions = ["none"]
                $0.errorCode = "authorization_denied_by_mvpd"
            })
        other.send("GET", "/api/v2/REF30/configuration", after: 5)
        #expect(other.violations(of: ChecklistRules.configurationRepeated).count == 1)
    }

    // MARK: Polling

    @Test func pollingACodeSoonerThanThreeSecondsBreaksPollingConfiguring() throws {
        var sketch = Sketch()
        sketch.send(
            "POST", "/api/v2/REF30/sessions",
            facts: Sketch.facts {
                $0.issuedCode = .init(
                    code: "ABC1234", deviceID: Self.device, serviceProvider: "REF30",
                    expiresAt: sketch.now.addingTimeInterval(1_800))
            })
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        let soon = sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 1.5, facts: Sketch.facts { $0.codeState = .pending })
        let violation = try #require(sketch.violations(of: ChecklistRules.pollTooFrequent).first)
        #expect(sketch.violations(of: ChecklistRules.pollTooFrequent).count == 1)
        #expect(violation.rule == "poll-too-frequent")
        #expect(violation.at == sketch.requests[soon].at)
        #expect(violation.request == "GET /api/v2/REF30/profiles/code/ABC1234")
        #expect(violation.detail.contains("1.5 s after the previous poll"))
    }

    @Test func pollingEveryThreeSecondsOrTwoCodesAtOnceKeepsPollingConfiguring() {
        var sketch = Sketch()
        for _ in 0..<4 {
            sketch.send(
                "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 3, facts: Sketch.facts { $0.codeState = .pending })
        }
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/XYZ9876", after: 0.1, facts: Sketch.facts { $0.codeState = .pending })
        #expect(sketch.violations(of: ChecklistRules.pollTooFrequent).isEmpty)
    }

    @Test func pollingAfterTheProfileWasRetrievedOrTheCodeReplacedBreaksPollingStopping() throws {
        var sketch = Sketch()
        let end = sketch.now.addingTimeInterval(1_800)
        sketch.send(
            "POST", "/api/v2/REF30/sessions",
            facts: Sketch.facts {
                $0.issuedCode = .init(code: "OLD1234", deviceID: Self.device, serviceProvider: "REF30", expiresAt: end)
            })
        sketch.send(
            "POST", "/api/v2/REF30/sessions", after: 5,
            facts: Sketch.facts {
                $0.issuedCode = .init(code: "NEW1234", deviceID: Self.device, serviceProvider: "REF30", expiresAt: end)
            })
        let stale = sketch.send(
            "GET", "/api/v2/REF30/profiles/code/OLD1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/OLD1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/NEW1234", after: 5,
            facts: Sketch.facts { $0.codeState = .authenticated })
        let done = sketch.send(
            "GET", "/api/v2/REF30/profiles/code/NEW1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        let violations = sketch.violations(of: ChecklistRules.pollAfterSessionEnd)
        #expect(violations.map(\.rule) == ["poll-after-session-end", "poll-after-session-end"])
        #expect(violations.map(\.at) == [sketch.requests[stale].at, sketch.requests[done].at])
        #expect(
            violations[0].detail
                == "Polled code OLD1234 after a newer code (NEW1234) had replaced it (and 1 more poll after it); "
                + "stop polling when the session ends."
        )
        #expect(violations[1].detail.contains("a poll had already retrieved its profile"))
    }

    @Test func pollingExpiredCodeBreaksPollingStoppingButPollingAnOpenCodeDoesNot() {
        var open = Sketch()
        open.send(
            "POST", "/api/v2/REF30/sessions",
            facts: Sketch.facts {
                $0.issuedCode = .init(
                    code: "ABC1234", deviceID: Self.device, serviceProvider: "REF30",
                    expiresAt: open.now.addingTimeInterval(60))
            })
        for _ in 0..<3 {
            open.send(
                "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        }
        open.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5,
            facts: Sketch.facts { $0.codeState = .authenticated })
        #expect(open.violations(of: ChecklistRules.pollAfterSessionEnd).isEmpty)

        var expired = open
        expired.send(
            "GET", "/api/v2/REF30/profiles/code/ZZZ9999", after: 60, status: 400,
            facts: Sketch.facts { $0.codeState = .expired })
        #expect(
            expired.violations(of: ChecklistRules.pollAfterSessionEnd).map(\.detail) == [
                "Polled code ZZZ9999 after its session and code had expired; stop polling when the session ends."
            ])
    }

    // MARK: Headers

    @Test func aRESTRequestWithoutTheHeadersBreaksTheHeaderRules() throws {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/profiles/code/ABC1234", headers: ["Authorization"])
        sketch.send("GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, headers: ["Authorization"])
        sketch.send("GET", "/api/v2/REF30/configuration", device: nil, headers: [], bearer: nil)
        let identifier = sketch.violations(of: ChecklistRules.deviceIdentifierHeaderMissing)
        #expect(
            identifier.map(\.request) == ["GET /api/v2/REF30/profiles/code/ABC1234", "GET /api/v2/REF30/configuration"])
        #expect(
            identifier.first?.detail
                == "Sent without the AP-Device-Identifier header (2 requests to this endpoint lacked it); every REST "
                + "API v2 request carries it."
        )
        #expect(sketch.violations(of: ChecklistRules.deviceInfoHeaderMissing).count == 2)
        let authorization = sketch.violations(of: ChecklistRules.authorizationHeaderMissing)
        #expect(authorization.map(\.request) == ["GET /api/v2/REF30/configuration"])
        #expect(authorization.first?.rule == "authorization-header-missing")
        #expect(authorization.first?.device == SandboxChecklistViolation.unknownDevice)
    }

    @Test func aRESTRequestWithTheHeadersAndThePagesAndDCRWithoutThemKeepTheHeaderRules() {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/profiles")
        // the user agent's
        sketch.send("GET", "/api/v2/authenticate/REF30/ABC1234", device: nil, headers: [], bearer: nil)
        // DCR, not REST API V2
        sketch.send("POST", "/o/client/register", device: nil, headers: ["X-Device-Info"], bearer: nil)
        sketch.send("POST", "/mvpd/NotBoarded/login", device: nil, headers: [], bearer: nil)
        for rule in [
            ChecklistRules.authorizationHeaderMissing, ChecklistRules.deviceIdentifierHeaderMissing,
            ChecklistRules.deviceInfoHeaderMissing,
        ] {
            #expect(sketch.violations(of: rule).isEmpty, "\(rule.id)")
        }
    }

    // MARK: Retries

    @Test func theSameRequestFiveTimesAfterErrorsBreaksTheRetryLimit() throws {
        var sketch = Sketch()
        for _ in 0..<4 {
            sketch.send(
                "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 1, status: 503,
                body: #"{"resources":["news"]}"#)
        }
        let fifth = sketch.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 1, status: 503,
            body: #"{"resources":["news"]}"#)
        sketch.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 1, status: 503,
            body: #"{"resources":["news"]}"#)
        let violations = sketch.violations(of: ChecklistRules.retryLoop)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.rule == "retry-loop")
        #expect(violation.at == sketch.requests[fifth].at)
        #expect(
            violation.detail.hasPrefix(
                "Sent the same request 6 times in a row, 5 of them less than 5 s after an error that warrants a retry"))
    }

    @Test func fourAttemptsPollsOrAnotherRequestBetweenKeepTheRetryLimit() {
        var sketch = Sketch()
        for _ in 0..<4 {
            sketch.send(
                "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 1, status: 503,
                body: #"{"resources":["news"]}"#)
        }
        sketch.send("GET", "/api/v2/REF30/profiles")  // ends the row
        for _ in 0..<4 {
            sketch.send(
                "POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 1, status: 503,
                body: #"{"resources":["news"]}"#)
        }
        // Polls of a pending code are not repeats, even failing ones.
        for _ in 0..<8 { sketch.send("GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, status: 503) }
        // A successful answer between two sends ends the row too.
        for status in [500, 500, 200, 500, 500, 500] {
            sketch.send("GET", "/api/v2/REF30/profiles/NotBoarded", after: 1, status: status)
        }
        #expect(sketch.violations(of: ChecklistRules.retryLoop).isEmpty)
    }

    // MARK: Logout

    @Test func aLogoutRightAfterADenialBreaksLogoutUserExperience() throws {
        var sketch = Sketch()
        sketch.send(
            "POST", "/api/v2/REF30/decisions/authorize/NotBoarded",
            facts: Sketch.facts {
                $0.denied = true; $0.errorActions = ["none"]
            })
        let logout = sketch.send(
            "GET", "/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fios.app", after: 0.5)
        let violation = try #require(sketch.violations(of: ChecklistRules.logoutAfterDenial).first)
        #expect(violation.rule == "logout-after-denial")
        #expect(violation.request == "GET /api/v2/REF30/logout/NotBoarded")
        #expect(violation.at == sketch.requests[logout].at)
        #expect(
            violation.detail
                == "Logged out 0.5 s after a denied authorization; call logout only when the person asks to sign out.")
    }

    @Test func aLogoutLaterOrAfterAnAuthorizationKeepsLogoutUserExperience() {
        var sketch = Sketch()
        sketch.send("POST", "/api/v2/REF30/decisions/preauthorize/NotBoarded", facts: Sketch.facts { $0.denied = true })
        sketch.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 2.5)
        sketch.send("POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 10)
        sketch.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 0.2)
        #expect(sketch.violations(of: ChecklistRules.logoutAfterDenial).isEmpty)
    }

    /// A person's Sign Out pressed right after a title played: the authorization that
    /// permitted it ends any earlier denial.
    @Test func aPermittedDecisionAfterADenialKeepsLogoutUserExperience() {
        var sketch = Sketch()
        let preauthorize = "/api/v2/REF30/decisions/preauthorize/NotBoarded"
        sketch.send("POST", preauthorize, facts: Sketch.facts { $0.denied = true })
        sketch.send("POST", "/api/v2/REF30/decisions/authorize/NotBoarded", after: 0.2)
        sketch.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 0.2)
        #expect(sketch.violations(of: ChecklistRules.logoutAfterDenial).isEmpty)
    }

    /// A rail of 12 titles goes out as three batches of at most five; two batches that deny
    /// all their titles are content filtering when the third authorized some, in either order.
    @Test func batchesOfOneRailAreOneDecisionForLogoutUserExperience() {
        let preauthorize = "/api/v2/REF30/decisions/preauthorize/NotBoarded"
        for permittedFirst in [true, false] {
            var sketch = Sketch()
            if permittedFirst { sketch.send("POST", preauthorize) }
            sketch.send("POST", preauthorize, after: 0.001, facts: Sketch.facts { $0.denied = true })
            if !permittedFirst { sketch.send("POST", preauthorize, after: 0.001) }
            sketch.send("POST", preauthorize, after: 0.001, facts: Sketch.facts { $0.denied = true })
            sketch.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 0.1)
            #expect(
                sketch.violations(of: ChecklistRules.logoutAfterDenial).isEmpty, "permitted first: \(permittedFirst)")
        }
        // A rail denied in every batch is a denial; so is a batch denied long after.
        var denied = Sketch()
        denied.send("POST", preauthorize, facts: Sketch.facts { $0.denied = true })
        denied.send("POST", preauthorize, after: 0.001, facts: Sketch.facts { $0.denied = true })
        denied.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 0.1)
        var later = Sketch()
        later.send("POST", preauthorize)
        later.send("POST", preauthorize, after: 5, facts: Sketch.facts { $0.denied = true })
        later.send("GET", "/api/v2/REF30/logout/NotBoarded", after: 0.1)
        #expect(denied.violations(of: ChecklistRules.logoutAfterDenial).count == 1)
        #expect(later.violations(of: ChecklistRules.logoutAfterDenial).count == 1)
    }

    // MARK: The list

    @Test func everyRuleIsListedOnceInTheChecklistsOrderWithItsLineEvidenceAndLimits() {
        #expect(
            ChecklistRules.all.map(\.id) == [
                "registration-repeated", "access-token-refreshed-early", "nothing-persisted",
                "configuration-while-authenticated",
                "poll-too-frequent", "poll-too-slow", "poll-after-session-end", "poll-stopped-early",
                "preauthorization-not-cached",
                "logout-page-not-opened", "authorization-header-missing", "device-identifier-header-missing",
                "device-info-header-missing",
                "device-identifier-unstable", "undefined-parameter", "undefined-header", "retry-loop",
                "non-retryable-retried",
                "alternating-failures", "configuration-repeated", "logout-after-denial",
            ])
        #expect(
            ChecklistRules.all.filter { $0.description.level == .recommended }.map(\.id) == [
                "configuration-repeated", "logout-after-denial",
            ])
        #expect(
            ChecklistRules.all.filter { $0.description.level == .notice }.map(\.id) == [
                "nothing-persisted", "configuration-while-authenticated", "poll-too-slow", "poll-stopped-early",
                "logout-page-not-opened",
                "device-identifier-unstable", "undefined-header",
            ])
        #expect(Set(ChecklistRules.all.map(\.id)).count == ChecklistRules.all.count)
        for rule in ChecklistRules.all {
            #expect(rule.description.line.contains(" · "), "\(rule.id) names its phase and row")
            #expect(!rule.description.limits.isEmpty, "\(rule.id) says what it cannot tell apart")
        }
    }

    @Test func everyLineOfAdobesChecklistIsCoveredOrSaysWhyNot() {
        let lines = ChecklistCoverage.lines
        #expect(lines.filter { $0.level == .mandatory }.count == 23)
        #expect(lines.filter { $0.level == .recommended }.count == 12)
        let ids = Set(ChecklistRules.all.map(\.id))
        for line in lines {
            #expect(line.rules.allSatisfy(ids.contains), "\(line.line) names only rules that exist")
            #expect(!line.rules.isEmpty || line.unseen?.isEmpty == false, "\(line.line) is judged or says why not")
        }
        let covered = Set(lines.flatMap(\.rules))
        #expect(covered == ids, "every rule judges a line of the checklist")
    }
}
