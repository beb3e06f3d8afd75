import Foundation
import Testing

@testable import AccessEnabler

/// The engine's state machine event by event, with no I/O: calls in order, I/O as child
/// tasks whose answers are events, bursts of authorizations gathered, sessions abandoned.
@Suite("Engine state machine")
struct StateMachineEngineTests {
    typealias Harness = MachineHarness

    func isDecisions(_ child: Harness.Child) -> Bool { if case .decisions = child { true } else { false } }

    // MARK: Order

    @Test func callsMadeWhileSetRequestorLoadsWaitAndRunInOrderAfterIt() {
        var harness = Harness()
        let set = harness.call(.setRequestor("REF30", serviceProviders: nil))
        #expect(harness.turnHeld, "the facade may not answer a call past the loading requestor")
        let check = harness.call(.checkAuthentication)
        let selected = harness.call(.getSelectedProvider)
        #expect(harness.delivered.isEmpty)
        guard case .loadRequestor(let ticket)? = harness.take({ _ in true }) else {
            Issue.record("\(harness.children)"); return
        }
        harness.send(.requestorLoaded(ticket, .success([])))
        #expect(harness.callbacks(of: set).map(Harness.signature) == ["setRequestorComplete(1)"])
        #expect(
            harness.callbacks(of: check).map(Harness.signature) == [
                "status(N000)", "sendTrackingData(0,false)",
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(harness.callbacks(of: selected).map(Harness.signature) == ["selectedProvider(nil)"])
        #expect(harness.signatures.first == "setRequestorComplete(1)", "in call order")
        #expect(!harness.turnHeld)
    }

    @Test func aLateAnswerForWorkThatEndedIsDropped() {
        var harness = Harness()
        harness.call(.setRequestor("REF30", serviceProviders: nil))
        harness.send(.requestorLoaded(RequestTicket(value: 99), .success([])))
        #expect(harness.delivered.isEmpty)
        #expect(harness.machine.isBusy)
    }

    // MARK: Authorizations gathered

    @Test func twentyAuthorizationsGoOutInFourRequestsEachLeavingOnceFullAndEndInCallOrder() throws {
        var harness = Harness.signedIn()
        let resources = (1...20).map { "r\($0)" }
        var calls: [CallID] = []
        for (index, resource) in resources.enumerated() {
            calls.append(harness.call(.checkAuthorization(resource, data: nil)))
            #expect(
                harness.children.filter(isDecisions).count == (index + 1) / 5,
                "a request leaves once it holds 5 resources")
        }
        harness.drainOnly()
        #expect(harness.quietWindowOpen, "the round still takes calls for its quiet window")
        harness.elapseQuietWindow()
        let requests = harness.children.filter(isDecisions)
        #expect(requests.count == 4, "nothing was left for a fifth")
        // The answers arrive in any order; the callbacks still follow the calls.
        for child in requests.reversed() {
            guard case .decisions(let ticket, .authorize, let asked) = child else { continue }
            _ = harness.take { $0 == child }
            harness.send(
                .decisionsAnswered(
                    ticket, .success(asked.map { Harness.decision($0, permitted: Int($0.dropFirst())! % 2 == 0) })))
            if child != requests.first { #expect(harness.delivered.isEmpty, "nothing before every request answered") }
        }
        for (index, call) in calls.enumerated() {
            let expected =
                (index + 1) % 2 == 0
                ? ["sendTrackingData(1,true)", "setToken(r\(index + 1))"]
                : [
                    "status(Z100)", "sendTrackingData(1,false)",
                    "tokenRequestFailed(r\(index + 1),\(USER_NOT_AUTHORIZED_ERROR))",
                ]
            #expect(harness.callbacks(of: call).map(Harness.signature) == expected)
        }
        let terminals = harness.delivered.filter {
            if case .setToken = $0.call { true } else if case .tokenRequestFailed = $0.call { true } else { false }
        }
        #expect(terminals.map(\.owners) == calls.map { [$0] })
        #expect(harness.mediaTokens["REF30"]?.count == 10)
    }

    @Test func aWholeRequestFailureReachesEachCallWithItsOwnStatusAndTheSignInEndsOnce() throws {
        var harness = Harness.signedIn()
        let calls = ["a", "b", "c"].map { harness.call(.checkAuthorization($0, data: nil)) }
        harness.drain()
        guard case .decisions(let ticket, _, _)? = harness.take(isDecisions) else { Issue.record("no request"); return }
        let ended = EnhancedError(status: 403, code: "authenticated_profile_invalidated", action: "authentication")
        harness.send(
            .decisionsAnswered(ticket, .failure(.server(operation: .authorize, httpStatus: 403, error: ended))))
        for (call, resource) in zip(calls, ["a", "b", "c"]) {
            let got = harness.callbacks(of: call)
            #expect(
                got.map(Harness.signature) == [
                    "status(N130)", "sendTrackingData(1,false)",
                    "tokenRequestFailed(\(resource),\(USER_NOT_AUTHENTICATED_ERROR))",
                ])
            guard case .status(let status) = try #require(got.first) else { continue }
            #expect(status.resource == resource)
        }
        #expect(harness.profiles["REF30"]?.isEmpty != false, "the sign-in Adobe Pass ended is gone")
    }

    @Test func tooManyResourcesAsksEachResourceOnItsOwn() {
        var harness = Harness.signedIn(settings: Harness.settings(limit: 3))
        ["a", "b", "c"].forEach { harness.call(.checkAuthorization($0, data: nil)) }
        harness.drain()
        guard case .decisions(let ticket, _, let asked)? = harness.take(isDecisions) else {
            Issue.record("no request"); return
        }
        #expect(asked == ["a", "b", "c"])
        let tooMany = EnhancedError(status: 403, code: "too_many_resources", action: "configuration")
        harness.send(
            .decisionsAnswered(ticket, .failure(.server(operation: .authorize, httpStatus: 403, error: tooMany))))
        let singles = harness.children.filter(isDecisions)
        #expect(
            singles.map { if case .decisions(_, _, let resources) = $0 { resources } else { [] } } == [
                ["a"], ["b"], ["c"],
            ])
    }

    @Test func aConfigurationAdviceRefetchesItThenAsksOnceMore() {
        var harness = Harness.signedIn()
        let call = harness.call(.checkAuthorization("a", data: nil))
        harness.drain()
        guard case .decisions(let first, _, _)? = harness.take(isDecisions) else { Issue.record("no request"); return }
        let changed = EnhancedError(status: 500, code: "invalid_configuration_platform", action: "configuration")
        harness.send(
            .decisionsAnswered(first, .failure(.server(operation: .authorize, httpStatus: 500, error: changed))))
        guard case .refetch(let refetch)? = harness.take({ if case .refetch = $0 { true } else { false } }) else {
            Issue.record("\(harness.children)"); return
        }
        harness.send(.configurationFetched(refetch, .success(Harness.catalog)))
        guard case .decisions(let second, _, _)? = harness.take(isDecisions) else {
            Issue.record("no second request"); return
        }
        harness.send(
            .decisionsAnswered(second, .failure(.server(operation: .authorize, httpStatus: 500, error: changed))))
        #expect(harness.children.isEmpty, "asked twice at most")
        #expect(
            harness.callbacks(of: call).last.map(Harness.signature)
                == "tokenRequestFailed(a,\(GENERIC_AUTHORIZATION_ERROR))")
    }

    @Test func aCallThatCannotJoinEndsTheGatheringAndWaitsItsTurn() {
        var harness = Harness.signedIn()
        let first = harness.call(.checkAuthorization("a", data: nil))
        let metadata = harness.call(.getMetadata(.deviceID, arguments: MetadataArguments(dictionary: [:])))
        let second = harness.call(.checkAuthorization("b", data: nil))
        #expect(harness.children.filter(isDecisions).count == 1, "the round of `a` went out when getMetadata arrived")
        guard case .decisions(let ticket, _, let asked)? = harness.take(isDecisions) else { return }
        #expect(asked == ["a"])
        harness.send(.decisionsAnswered(ticket, .success([Harness.decision("a", permitted: true)])))
        harness.drain()
        #expect(harness.callbacks(of: first).last.map(Harness.signature) == "setToken(a)")
        #expect(harness.callbacks(of: metadata).map(Harness.signature) == ["setMetadataStatus"])
        #expect(harness.children.filter(isDecisions).count == 1, "b goes in a round of its own")
        #expect(harness.callbacks(of: second).isEmpty)
    }

    @Test func aRoundWaitsForItsQuietWindowWhichEveryEventStartsAgain() {
        var harness = Harness.signedIn()
        let first = ["a", "b"].map { harness.call(.checkAuthorization($0, data: nil)) }
        harness.drainOnly()
        #expect(harness.quietWindowOpen && harness.quietWindowStarts == 1)
        #expect(!harness.children.contains(where: isDecisions), "an empty mailbox does not close the round")
        let late = harness.call(.checkAuthorization("c", data: nil))
        harness.drainOnly()
        #expect(harness.quietWindowStarts == 2, "the late call started the window again")
        #expect(!harness.children.contains(where: isDecisions))
        harness.elapseQuietWindow()
        guard case .decisions(let ticket, .authorize, let asked)? = harness.take(isDecisions) else {
            Issue.record("no request once the window passed: \(harness.children)")
            return
        }
        #expect(asked == ["a", "b", "c"], "the late call joined the round")
        harness.send(.decisionsAnswered(ticket, .success(asked.map { Harness.decision($0, permitted: true) })))
        #expect(
            (first + [late]).map { harness.callbacks(of: $0).last.map(Harness.signature) }
                == ["setToken(a)", "setToken(b)", "setToken(c)"])
    }

    @Test func aCallThatCannotJoinEndsTheQuietWindowAndTheRoundLeaves() {
        var harness = Harness.signedIn()
        harness.call(.checkAuthorization("a", data: nil))
        harness.drainOnly()
        #expect(harness.quietWindowOpen)
        harness.call(.getMetadata(.deviceID, arguments: MetadataArguments(dictionary: [:])))
        #expect(!harness.quietWindowOpen, "the window is stopped")
        #expect(harness.children.filter(isDecisions).count == 1)
    }

    @Test func aRoundOfFullRequestsAlreadyAnsweredEndsWhenItsWindowPasses() {
        var harness = Harness.signedIn(settings: Harness.settings(limit: 2))
        let calls = ["a", "b"].map { harness.call(.checkAuthorization($0, data: nil)) }
        guard case .decisions(let ticket, .authorize, let asked)? = harness.take(isDecisions) else {
            Issue.record("the full request did not leave at once")
            return
        }
        harness.send(.decisionsAnswered(ticket, .success(asked.map { Harness.decision($0, permitted: true) })))
        #expect(harness.delivered.isEmpty, "the round still takes calls")
        harness.drain()
        #expect(calls.map { harness.callbacks(of: $0).last.map(Harness.signature) } == ["setToken(a)", "setToken(b)"])
        #expect(harness.children.isEmpty)
    }

    // MARK: Sessions

    @Test func logoutAbandonsASessionBeingOpenedAndItsCallerEndsOnce() {
        var harness = Harness.signedIn()
        harness.profiles["REF30"] = nil
        harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        let select = harness.call(.setSelectedProvider("Plain1"))
        guard case .session(let flow)? = harness.take({ if case .session = $0 { true } else { false } }) else {
            Issue.record("\(harness.children)"); return
        }
        #expect(harness.turnHeld, "POST sessions holds the calls after it")
        let logout = harness.call(.logout)
        #expect(
            harness.callbacks(of: select).map(Harness.signature) == [
                "sendTrackingData(2,Plain1)", "status(N500)",
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(
            harness.callbacks(of: logout).map(Harness.signature) == [
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
            ])
        // The session's late answer changes nothing.
        let before = harness.delivered.count
        harness.send(
            .sessionAnswered(
                flow,
                .success(
                    SessionAction(
                        actionName: .authenticate, actionType: .interactive, code: "C", url: "/x", mvpd: "Plain1"))))
        #expect(harness.delivered.count == before)
        #expect(!harness.turnHeld)
    }

    @Test func anAuthorizeAnswerFetchesTheProfileThenTheWaitingAuthorizationRuns() {
        var harness = Harness.signedIn()
        harness.profiles["REF30"] = nil
        let getAuthorization = harness.call(.getAuthorization("news", data: nil))
        let select = harness.call(.setSelectedProvider("TempPass"))
        guard case .session(let flow)? = harness.take({ if case .session = $0 { true } else { false } }) else {
            Issue.record("\(harness.children)"); return
        }
        harness.send(
            .sessionAnswered(
                flow,
                .success(
                    SessionAction(actionName: .authorize, actionType: .direct, reasonType: .temporary, mvpd: "TempPass")
                )))
        guard case .sessionProfile(let same)? = harness.take({ if case .sessionProfile = $0 { true } else { false } })
        else { Issue.record("\(harness.children)"); return }
        #expect(same == flow)
        harness.send(.sessionProfileAnswered(flow, .success([harness.profile("TempPass", type: .temporary)])))
        #expect(
            harness.callbacks(of: select).map(Harness.signature) == [
                "sendTrackingData(2,TempPass)", "status(N011)", "sendTrackingData(0,true)",
                "setAuthenticationStatus(1,)",
            ])
        harness.drain()
        guard case .decisions(let ticket, _, let asked)? = harness.take(isDecisions) else {
            Issue.record("\(harness.children)"); return
        }
        #expect(asked == ["news"])
        harness.send(.decisionsAnswered(ticket, .success([Harness.decision("news", permitted: true)])))
        #expect(harness.callbacks(of: getAuthorization).map(Harness.signature).last == "setToken(news)")
    }

    @Test func aSignInAlreadyOverByAdobesTimeIsNotASuccess() {
        var harness = Harness.signedIn()
        harness.profiles["REF30"] = nil
        harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        let select = harness.call(.setSelectedProvider("TempPass"))
        guard case .session(let flow)? = harness.take({ _ in true }) else { return }
        harness.send(
            .sessionAnswered(
                flow, .success(SessionAction(actionName: .authorize, actionType: .direct, mvpd: "TempPass"))))
        _ = harness.take { _ in true }
        harness.send(.sessionProfileAnswered(flow, .success([harness.profile("TempPass", lasting: -10)])))
        #expect(
            harness.callbacks(of: select).map(Harness.signature).suffix(3) == [
                "status(CFG100)", "sendTrackingData(0,false)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
    }

    // MARK: Logout

    @Test func logoutRemovesTheProfileAtOnceAndEndsWhenAdobePassAnswers() {
        var harness = Harness.signedIn()
        let logout = harness.call(.logout)
        #expect(harness.profiles["REF30"]?.isEmpty == true, "gone whatever the network says")
        #expect(harness.profiles["REF30"]?.pendingLogouts.map(\.mvpd) == ["Plain1"], "until Adobe Pass confirms it")
        let check = harness.call(.checkAuthentication)
        #expect(harness.callbacks(of: check).isEmpty, "waits behind the logout request")
        guard case .logout(let ticket)? = harness.take({ _ in true }) else {
            Issue.record("\(harness.children)"); return
        }
        harness.send(
            .logoutAnswered(
                ticket,
                .success([LogoutAction(mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "/logout")]))
        )
        #expect(harness.callbacks(of: logout).map(Harness.signature) == ["navigateToUrl"])
        #expect(harness.profiles["REF30"] == RequestorProfiles.none, "confirmed: nothing pending")
        #expect(
            harness.callbacks(of: check).map(Harness.signature).last
                == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
        let redirect = harness.call(.handleExternalURL("adobepass://ios.app/done"))
        #expect(
            harness.callbacks(of: redirect).map(Harness.signature) == [
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
            ])
    }

    // MARK: Decisions asked again

    @Test func aDecisionWhoseErrorAsksForARetryIsAskedAgainForItsResourceOnlyAtMostTwice() {
        var harness = Harness.signedIn()
        let news = harness.call(.checkAuthorization("news", data: nil))
        let sports = harness.call(.checkAuthorization("sports", data: nil))
        harness.drain()
        let retry = EnhancedError(status: 403, code: "network_received_error", action: "retry")
        func answer(_ expected: [String], newsAuthorized: Bool) -> Bool {
            guard case .decisions(let ticket, .authorize, let asked)? = harness.take(isDecisions), asked == expected
            else {
                Issue.record("expected a request for \(expected): \(harness.children)")
                return false
            }
            var decisions = [
                Decision(
                    resource: "news", authorized: newsAuthorized,
                    token: newsAuthorized ? DecisionToken(serializedToken: "t") : nil,
                    error: newsAuthorized ? nil : retry)
            ]
            if asked.contains("sports") { decisions.append(Harness.decision("sports", permitted: true)) }
            harness.send(.decisionsAnswered(ticket, .success(decisions)))
            return true
        }
        guard answer(["news", "sports"], newsAuthorized: false) else { return }
        #expect(harness.delivered.isEmpty, "sports waits for the round")
        guard answer(["news"], newsAuthorized: false) else { return }
        guard answer(["news"], newsAuthorized: false) else { return }
        #expect(!harness.children.contains(where: isDecisions), "two more attempts, then it stands")
        #expect(
            harness.callbacks(of: news).map(Harness.signature).last
                == "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))")
        #expect(harness.callbacks(of: sports).map(Harness.signature).last == "setToken(sports)")
    }

    // MARK: The configuration a flow waits for

    @Test func aFlowWaitingForTheConfigurationHoldsLaterCallsAndIsAbandonedLikeASession() {
        var harness = Harness.signedIn(configuration: false)
        harness.profiles["REF30"] = nil
        let get = harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        guard case .flowConfiguration(let flow)? = harness.children.first else {
            Issue.record("\(harness.children)"); return
        }
        #expect(harness.turnHeld, "the calls after it wait")
        #expect(harness.machine.authentication.isOpeningSession)
        let check = harness.call(.checkAuthentication)
        #expect(harness.callbacks(of: check).isEmpty)
        let back = harness.call(.setSelectedProvider(nil))
        #expect(harness.children.isEmpty, "the configuration's request is cancelled")
        #expect(
            harness.callbacks(of: get).map(Harness.signature) == [
                "status(N005)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        #expect(
            harness.callbacks(of: check).map(Harness.signature).last
                == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
        #expect(
            harness.callbacks(of: back).map(Harness.signature) == [
                "status(N005)", "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
            ])
        let before = harness.delivered.count
        harness.send(.flowConfigurationFetched(flow, .success(Harness.catalog)))
        #expect(harness.delivered.count == before, "a late configuration changes nothing")
        #expect(!harness.turnHeld)
    }

    @Test func aConfigurationIsReusedForThreeMinutesOnTheFactsClock() {
        var harness = Harness.signedIn(configuration: false)
        harness.profiles["REF30"] = nil
        harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        let first = harness.answerFlowConfiguration()
        #expect(first)
        #expect(harness.signatures.last == "displayProviderDialog")
        harness.call(.setSelectedProvider(nil))
        harness.now.addTimeInterval(CachedConfiguration.lifetime - 1)
        harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        #expect(harness.children.isEmpty, "reused")
        #expect(harness.signatures.last == "displayProviderDialog")
        harness.call(.setSelectedProvider(nil))
        harness.now.addTimeInterval(1)
        harness.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        let again = harness.answerFlowConfiguration()
        #expect(again, "asked again at 3 minutes")
    }

    @Test func aConfigurationThatFailsEndsTheCallWithTheStatusSetRequestorWouldReport() {
        var harness = Harness.signedIn(configuration: false)
        harness.profiles["REF30"] = nil
        let get = harness.call(.getAuthorization("news", data: nil))
        let answered = harness.answerFlowConfiguration(
            .failure(.server(operation: .configuration, httpStatus: 503, error: nil)))
        #expect(answered)
        #expect(
            harness.callbacks(of: get).map(Harness.signature) == [
                "status(CFG503)", "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(harness.configuration == nil, "nothing cached")
    }

    // MARK: Logout pages

    @Test func everyLogoutPageIsHandedOverInTurnAndAPageNotComeBackFromEndsTheLogout() {
        var settings = Harness.settings()
        settings.platform = .iOS
        settings.logoutPageTimeout = 30
        var harness = Harness.signedIn(settings: settings)
        let other = harness.stored("TempPass", type: .regular)
        harness.profiles["REF30"]?.others = [other]
        let logout = harness.call(.logout)
        guard case .logout(let ticket)? = harness.take({ _ in true }) else {
            Issue.record("\(harness.children)"); return
        }
        harness.send(
            .logoutAnswered(
                ticket,
                LogoutAnswers(byMVPD: [
                    "Plain1": .success([
                        LogoutAction(
                            mvpd: "Plain1", actionName: .logout, actionType: .interactive, url: "/logout/plain")
                    ]),
                    "TempPass": .success([
                        LogoutAction(
                            mvpd: "TempPass", actionName: .logout, actionType: .interactive, url: "/logout/other")
                    ]),
                ])))
        #expect(harness.callbacks(of: logout).map(Harness.signature) == ["navigateToUrl"])
        guard case .navigateToUrl(let first) = harness.delivered.last?.call else { Issue.record("no page"); return }
        #expect(first.hasSuffix("/logout/plain"), "the profile in force first")
        let back = harness.call(.handleExternalURL("adobepass://ios.app/logout"))
        guard case .navigateToUrl(let second) = harness.callbacks(of: back).first else {
            Issue.record("no second page"); return
        }
        #expect(second.hasSuffix("/logout/other"))
        // The app never comes back from the second page.
        guard case .logoutPageTimer(_, let until)? = harness.children.first else {
            Issue.record("\(harness.children)"); return
        }
        #expect(until == harness.now.addingTimeInterval(30))
        harness.now = until
        harness.send(.logoutPageTimedOut(ticket))
        #expect(
            harness.callbacks(of: back).map(Harness.signature) == [
                "navigateToUrl", "status(N408)", "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        guard case .status(let status) = harness.callbacks(of: back)[1] else { return }
        #expect(status.level == .warning && status.details == second)
        let next = harness.call(.checkAuthentication)
        #expect(
            harness.callbacks(of: next).map(Harness.signature) == [
                "status(N000)", "sendTrackingData(0,false)",
                "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
    }

    // MARK: Storage's word

    @Test func aNewRegistrationThatSignedTheUserOutSaysSo() {
        var harness = Harness.signedIn()
        harness.send(.signedOutByNewRegistration(["OTHER"]))
        #expect(harness.delivered.isEmpty)
        harness.send(.signedOutByNewRegistration(["REF30"]))
        #expect(harness.signatures == ["status(N130)"])
    }
}
