import Foundation
import Testing
@testable import AccessEnabler

/// The interactive authentication/logout state machine, transition by transition.
@Suite struct FlowAuthenticationFlowTests {
    @Test func startsIdleWithNothingPending() {
        var flow = AuthenticationFlow()
        #expect(flow.state == .idle)
        #expect(!flow.isAuthenticationPending)
        #expect(flow.redirectReceived() == .nothingPending)
        #expect(flow.state == .idle)
    }

    @Test func theProviderDialogMakesAuthenticationPendingButNoRedirectCompletesIt() {
        var flow = AuthenticationFlow()
        flow.providerDialogShown()
        #expect(flow.isChoosingProvider)
        #expect(flow.isAuthenticationPending)
        #expect(flow.redirectReceived() == .nothingPending)
        #expect(flow.state == .choosingProvider, "a stray redirect does not cancel provider selection")
    }

    @Test func aLoginRedirectCompletesTheLoginOnceThenNothing() {
        var flow = AuthenticationFlow()
        flow.providerDialogShown()
        flow.loginPageOpened(mvpd: "NotBoarded", code: "ABC1234")
        #expect(flow.isAuthenticationPending)
        #expect(!flow.isChoosingProvider)
        #expect(flow.redirectReceived() == .completeLogin(mvpd: "NotBoarded", code: "ABC1234"))
        #expect(flow.state == .idle)
        #expect(!flow.isAuthenticationPending)
        #expect(flow.redirectReceived() == .nothingPending)
    }

    @Test func aLogoutRedirectCompletesTheLogoutAndIsNotAPendingAuthentication() {
        var flow = AuthenticationFlow()
        flow.logoutPageOpened()
        #expect(!flow.isAuthenticationPending)
        #expect(flow.redirectReceived() == .completeLogout)
        #expect(flow.redirectReceived() == .nothingPending)
    }

    @Test func aLoginRedirectKeepsThePendingAuthorizationForAfterTheProfile() {
        var flow = AuthenticationFlow()
        flow.pendingAuthorization = .init(resource: "news", data: ["k": "v"])
        flow.providerDialogShown()
        flow.loginPageOpened(mvpd: "NotBoarded", code: "C")
        _ = flow.redirectReceived()
        #expect(flow.takePendingAuthorization() == .init(resource: "news", data: ["k": "v"]))
        #expect(flow.takePendingAuthorization() == nil, "taken once")
    }

    @Test func resetDropsTheStateAndThePendingAuthorization() {
        var flow = AuthenticationFlow()
        flow.pendingAuthorization = .init(resource: "news", data: nil)
        flow.loginPageOpened(mvpd: "M", code: "C")
        flow.reset()
        #expect(flow == AuthenticationFlow())
        #expect(flow.redirectReceived() == .nothingPending)
    }

    @Test func aNewLoginPageReplacesTheOldSession() {
        var flow = AuthenticationFlow()
        flow.loginPageOpened(mvpd: "A", code: "OLD")
        flow.loginPageOpened(mvpd: "B", code: "NEW")
        #expect(flow.redirectReceived() == .completeLogin(mvpd: "B", code: "NEW"))
    }
}
