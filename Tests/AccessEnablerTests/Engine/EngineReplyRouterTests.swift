import Foundation
import Testing

@testable import AccessEnabler

/// The reply router: each async call gets the callbacks of its own call up to its terminal
/// one, whatever arrives for other calls, and a cancelled wait ends at once.
@Suite struct EngineReplyRouterTests {
    static let untilToken: @Sendable (DelegateCall) -> ReplyRouter.Disposition = {
        if case .setToken = $0 { .terminal } else if case .tokenRequestFailed = $0 { .terminal } else { .more }
    }

    @Test func aCallGetsItsOwnCallbacksUpToItsTerminalOne() async {
        let router = ReplyRouter()
        let mine = router.newCall()
        let other = router.newCall()
        #expect(mine != other)
        router.expect(mine, until: Self.untilToken)
        router.deliver(.status(StatusCatalog.status(.z011, message: "m")), for: mine)
        router.deliver(.setToken("t", resource: "other"), for: other)
        router.deliver(.setToken("t", resource: "news"), for: mine)
        router.deliver(.setRequestorComplete(1), for: mine)
        let reply = await router.reply(for: mine)
        #expect(reply.callbacks.map(MachineHarness.signature) == ["status(Z011)", "setToken(news)"])
        #expect(reply.terminal.map(MachineHarness.signature) == "setToken(news)")
        #expect(reply.statuses.map(\.errorId) == ["Z011"])
        #expect(!reply.cancelled)
        #expect(router.pendingCount == 0)
    }

    @Test func aReplyCompleteBeforeAnyoneWaitsIsKept() async {
        let router = ReplyRouter()
        let call = router.newCall()
        router.expect(call, until: Self.untilToken)
        router.deliver(.tokenRequestFailed("news", errorCode: USER_NOT_AUTHORIZED_ERROR, description: "d"), for: call)
        #expect(
            await router.reply(for: call).terminal.map(MachineHarness.signature)
                == "tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR))")
    }

    @Test func aHandOverOpensTheNextStage() async {
        let router = ReplyRouter()
        let call = router.newCall()
        router.expect(call, until: AccessEnabler.authenticationStepEnds)
        router.deliver(.status(StatusCatalog.status(.regcode, message: "m", details: "CODE")), for: call)
        #expect(router.hasStage(1, of: call))
        let first = await router.reply(for: call)
        #expect(first.callbacks.map(MachineHarness.signature) == ["status(REGCODE)"])
        router.deliver(.setAuthenticationStatus(1, errorCode: ""), for: call)
        let second = await router.reply(for: call, stage: 1)
        #expect(second.terminal.map(MachineHarness.signature) == "setAuthenticationStatus(1,)")
    }

    @Test func aCancelledWaitEndsAtOnceWithWhatArrivedSoFar() async {
        let router = ReplyRouter()
        let call = router.newCall()
        router.expect(call, until: Self.untilToken)
        router.deliver(.status(StatusCatalog.status(.z011, message: "m")), for: call)
        let waiter = Task { await router.reply(for: call) }
        while router.waitingCount == 0 { await Task.yield() }
        waiter.cancel()
        let reply = await waiter.value
        #expect(reply.cancelled)
        #expect(reply.terminal == nil)
        #expect(reply.callbacks.map(MachineHarness.signature) == ["status(Z011)"])
        #expect(router.pendingCount == 0, "a cancelled call is forgotten")
        // A late callback for it goes nowhere.
        router.deliver(.setToken("t", resource: "news"), for: call)
        #expect(router.pendingCount == 0)
    }

    @Test func aCallNobodyExpectsIsCancelled() async {
        let router = ReplyRouter()
        #expect(await router.reply(for: router.newCall()).cancelled)
        router.deliver(.setRequestorComplete(1), for: nil)
    }
}
