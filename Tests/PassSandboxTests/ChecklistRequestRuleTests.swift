import Foundation
import Testing

@testable import PassSandbox

/// The rules added for the audit's other misses, over histories written by hand: names the
/// API does not define, preauthorizations not cached, polls too slow or stopped too soon,
/// and a logout page never opened.
@Suite("Checklist rules: parameters, caching, polling, logout pages")
struct ChecklistRequestRuleTests {
    typealias Sketch = ChecklistHistorySketch
    static let preauthorize = "/api/v2/REF30/decisions/preauthorize/NotBoarded"

    // MARK: Follow APIs References

    @Test func parametersTheEndpointDoesNotDefineAnswered200BreakFollowAPIsReferences() throws {
        var sketch = Sketch()
        let first = sketch.send("GET", "/api/v2/REF30/profiles?deviceId=tv&format=json")
        sketch.send("POST", "/api/v2/REF30/sessions", after: 1, bodyNames: ["mvpd", "domainName", "redirectUrl"])
        sketch.send("GET", "/api/v2/REF30/profiles?requestor=REF30", after: 1)
        let violations = sketch.violations(of: ChecklistRules.undefinedParameter)
        #expect(violations.count == 1, "one per device and endpoint")
        let violation = try #require(violations.first)
        #expect(violation.at == sketch.requests[first].at)
        #expect(violation.request == "GET /api/v2/REF30/profiles")
        #expect(
            violation.detail
                == "Sent parameters this endpoint does not define: deviceId (query), format (query), requestor "
                + "(query) (in 2 requests to this endpoint); Adobe Pass may refuse them (400): send only what the "
                + "API reference lists."
        )
    }

    @Test func definedParametersRefusedRequestsAndPagesKeepFollowAPIsReferences() {
        var sketch = Sketch()
        sketch.send("GET", "/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Fapp")
        sketch.send("GET", "/api/v2/REF30/configuration?profile=web")
        sketch.send("POST", "/api/v2/REF30/decisions/authorize/NotBoarded", bodyNames: ["resources"])
        sketch.send("POST", "/o/client/token", device: nil, bodyNames: ["client_id", "client_secret", "grant_type"])
        sketch.send("GET", "/api/v2/REF30/profiles?deviceId=tv", status: 400)  // refused: the client was told
        sketch.send("GET", "/mvpd/NotBoarded/login?code=ABC1234&theme=dark", device: nil)  // a page, not the API
        #expect(sketch.violations(of: ChecklistRules.undefinedParameter).isEmpty)
    }

    @Test func headersNeitherTheAPINorHTTPDefinesAreANotice() throws {
        var sketch = Sketch()
        sketch.send(
            "GET", "/api/v2/REF30/profiles",
            otherHeaders: ["Accept", "User-Agent", "Accept-Encoding", "Sec-Fetch-Mode", "X-Forwarded-For"])
        sketch.send(
            "GET", "/api/v2/REF30/profiles/NotBoarded",
            otherHeaders: ["AP-Partner-Framework-Status", "AD-Service-Token", "traceparent"])
        let odd = sketch.send(
            "GET", "/api/v2/REF30/configuration",
            otherHeaders: ["X-Legacy-Requestor", "X-Roku-Reserved-Roku-Connect-Token"])
        #expect(ChecklistRules.undefinedHeader.description.level == .notice)
        let notices = sketch.violations(of: ChecklistRules.undefinedHeader)
        #expect(notices.map(\.at) == [sketch.requests[odd].at])
        #expect(notices.first?.detail.hasPrefix("Sent a header the API does not define: x-legacy-requestor;") == true)
    }

    // MARK: Preauthorization Decisions Caching

    @Test func tenIdenticalPermittedPreauthorizationsInATenthOfASecondBreakCaching() throws {
        var sketch = Sketch()
        var sends: [Int] = []
        for _ in 0..<10 {
            sends.append(sketch.send("POST", Self.preauthorize, after: 0.01, body: #"{"resources":["news"]}"#))
        }
        let violations = sketch.violations(of: ChecklistRules.preauthorizationNotCached)
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(
            violation.at == sketch.requests[sends[2]].at,
            "one repeat is forgiven (a relaunch); the third is the finding")
        #expect(
            violation.detail.hasPrefix(
                "Asked the same preauthorization 10 times within a second, while an answer less than a minute "
                    + "old had permitted every resource"
            ))
    }

    @Test func aRelaunchAMinuteOrADenialKeepCachingAndEachListCountsOnItsOwn() {
        var sketch = Sketch()
        sketch.send("POST", Self.preauthorize, body: #"{"resources":["news"]}"#)
        sketch.send("POST", Self.preauthorize, after: 10, body: #"{"resources":["news"]}"#)  // a relaunch
        sketch.send("POST", Self.preauthorize, after: 61, body: #"{"resources":["news"]}"#)
        sketch.send("POST", Self.preauthorize, after: 61, body: #"{"resources":["news"]}"#)
        #expect(
            sketch.violations(of: ChecklistRules.preauthorizationNotCached).isEmpty, "a relaunch, then a minute apart")
        for _ in 0..<5 {
            sketch.send(
                "POST", Self.preauthorize, after: 1, body: #"{"resources":["premium"]}"#,
                facts: Sketch.facts {
                    $0.denied = true; $0.errorActions = ["none"]
                })
        }
        #expect(sketch.violations(of: ChecklistRules.preauthorizationNotCached).isEmpty, "a denial is not cached")
        var interleaved: [Int] = []
        for _ in 0..<3 {
            interleaved.append(sketch.send("POST", Self.preauthorize, after: 1, body: #"{"resources":["sports"]}"#))
            sketch.send("POST", Self.preauthorize, after: 1, body: #"{"resources":["movies"]}"#)
        }
        let violations = sketch.violations(of: ChecklistRules.preauthorizationNotCached)
        #expect(
            violations.map(\.at) == [sketch.requests[interleaved[2]].at, sketch.requests[interleaved[2] + 1].at],
            "each list on its own")
    }

    // MARK: Polling

    static func session(_ sketch: inout Sketch, code: String = "ABC1234", lifetime: TimeInterval = 1_800) {
        sketch.send(
            "POST", "/api/v2/REF30/sessions",
            facts: Sketch.facts {
                $0.issuedCode = .init(
                    code: code, deviceID: Sketch.device, serviceProvider: "REF30",
                    expiresAt: sketch.now.addingTimeInterval(lifetime))
            })
    }

    @Test func pollsTwentySecondsApartAreANotice() throws {
        var sketch = Sketch()
        Self.session(&sketch)
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 4, facts: Sketch.facts { $0.codeState = .pending })
        let slow = sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 20, facts: Sketch.facts { $0.codeState = .pending })
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 30,
            facts: Sketch.facts { $0.codeState = .authenticated })
        let notices = sketch.violations(of: ChecklistRules.pollTooSlow)
        #expect(notices.map(\.at) == [sketch.requests[slow].at])
        #expect(
            notices.first?.detail
                == "Polled code ABC1234 20 s after the previous poll found it pending (2 gaps over 7.5 s, the "
                + "longest 30 s); while the person signs in, poll every 3 to 5 seconds."
        )
    }

    @Test func pollsEveryFiveSecondsOrAfterTheProfileCameKeepPollingConfiguring() {
        var sketch = Sketch()
        Self.session(&sketch)
        for _ in 0..<5 {
            sketch.send(
                "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5.4,
                facts: Sketch.facts { $0.codeState = .pending })
        }
        sketch.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 7,
            facts: Sketch.facts { $0.codeState = .authenticated })
        #expect(sketch.violations(of: ChecklistRules.pollTooSlow).isEmpty)
    }

    @Test func pollsThatStopLongBeforeTheCodeExpiresAreANoticeOnceItHasExpired() throws {
        var sketch = Sketch()
        Self.session(&sketch, lifetime: 600)
        var last = 0
        for _ in 0..<4 {
            last = sketch.send(
                "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        }
        #expect(sketch.violations(of: ChecklistRules.pollStoppedEarly).isEmpty, "the code is open: the polls may go on")
        sketch.wait(600)
        let notices = sketch.violations(of: ChecklistRules.pollStoppedEarly)
        #expect(notices.map(\.at) == [sketch.requests[last].at])
        #expect(
            notices.first?.detail.hasPrefix(
                "Stopped polling code ABC1234 9 min 40 s before it expired, its last poll finding no profile yet")
                == true)
    }

    @Test func pollsUntilTheEndTheProfileOrANewCodeKeepPollingStopping() {
        var untilTheEnd = Sketch()
        Self.session(&untilTheEnd, lifetime: 60)
        for _ in 0..<11 {
            untilTheEnd.send(
                "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        }
        untilTheEnd.wait(120)
        #expect(untilTheEnd.violations(of: ChecklistRules.pollStoppedEarly).isEmpty)

        var signedIn = Sketch()
        Self.session(&signedIn, lifetime: 600)
        signedIn.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        signedIn.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5,
            facts: Sketch.facts { $0.codeState = .authenticated })
        signedIn.wait(1_200)
        #expect(signedIn.violations(of: ChecklistRules.pollStoppedEarly).isEmpty)

        var replaced = Sketch()
        Self.session(&replaced, lifetime: 600)
        replaced.send(
            "GET", "/api/v2/REF30/profiles/code/ABC1234", after: 5, facts: Sketch.facts { $0.codeState = .pending })
        Self.session(&replaced, code: "NEW1234", lifetime: 600)
        replaced.send(
            "GET", "/api/v2/REF30/profiles/code/NEW1234", after: 5,
            facts: Sketch.facts { $0.codeState = .authenticated })
        replaced.wait(1_200)
        #expect(replaced.violations(of: ChecklistRules.pollStoppedEarly).isEmpty)
    }

    // MARK: Logout Support

    @Test func aLogoutPageNoUserAgentOpenedIsANoticeUntilOneDoes() throws {
        let page = ObservedFacts.logoutPageKey(mvpd: "NotBoarded", serviceProvider: "REF30", redirect: "adobepass://tv")
        var sketch = Sketch()
        let first = sketch.send(
            "GET", "/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Ftv",
            facts: Sketch.facts { $0.issuedLogoutPage = page })
        let second = sketch.send(
            "GET", "/api/v2/REF30/logout/NotBoarded?redirectUrl=adobepass%3A%2F%2Ftv", after: 60,
            facts: Sketch.facts { $0.issuedLogoutPage = page })
        #expect(ChecklistRules.logoutPageNotOpened.description.level == .notice)
        #expect(
            sketch.violations(of: ChecklistRules.logoutPageNotOpened).map(\.at) == [
                sketch.requests[first].at, sketch.requests[second].at,
            ])
        #expect(
            sketch.violations(of: ChecklistRules.logoutPageNotOpened).first?.detail
                == "The logout answer named NotBoarded's logout page and no user agent has opened it, so the person "
                + "stays signed in at the MVPD; open the answer's url in a browser or web view (a device without "
                + "one hands it to the person)."
        )

        sketch.send(
            "GET", "/adobe-services/logout", after: 1, device: nil, headers: [],
            facts: Sketch.facts { $0.openedLogoutPage = page })
        #expect(
            sketch.violations(of: ChecklistRules.logoutPageNotOpened).map(\.at) == [sketch.requests[second].at],
            "the oldest logout's page first")
        sketch.send(
            "GET", "/adobe-services/logout", after: 1, device: nil, headers: [],
            facts: Sketch.facts { $0.openedLogoutPage = page })
        #expect(sketch.violations(of: ChecklistRules.logoutPageNotOpened).isEmpty)
    }
}
