import Foundation
import Testing

@testable import AccessEnabler

/// Polling for a session's profile, answer by answer, with no I/O: REST API V2's rules
/// (every 3–5 s or more, stop at the first profile or at the session's end, back off after
/// a 429).
@Suite struct StateMachineProfilePollingTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)

    func session(lasting seconds: TimeInterval = 60) -> AuthenticationSession {
        AuthenticationSession(mvpd: "Plain1", code: "CODE", notAfter: start.addingTimeInterval(seconds), now: start)
    }

    @Test func aSecondScreenWaitsOneIntervalAndARedirectAsksAtOnce() {
        let screen = ProfilePolling(session: session(), origin: .secondScreen, interval: 5, now: start)
        #expect(screen.firstStep == .wait(until: start.addingTimeInterval(5)))
        #expect(screen.polls == 0)
        let redirect = ProfilePolling(session: session(), origin: .redirect, interval: 5, now: start)
        #expect(redirect.firstStep == .ask)
        #expect(redirect.polls == 1)
    }

    @Test func theIntervalHasAFloorOfThreeSecondsAndNeverPassesTheSessionsEnd() {
        #expect(ProfilePolling(session: session(), origin: .secondScreen, interval: 1, now: start).interval == 3)
        let short = ProfilePolling(session: session(lasting: 2), origin: .secondScreen, interval: 5, now: start)
        #expect(short.firstStep == .wait(until: start.addingTimeInterval(2)))
    }

    @Test func aTimerAsksOnceAndALateOrEarlyTimerChangesNothingItShouldNot() {
        var polling = ProfilePolling(session: session(), origin: .secondScreen, interval: 5, now: start)
        #expect(
            polling.timerFired(now: start.addingTimeInterval(4)) == .wait(until: start.addingTimeInterval(5)),
            "early: wait for the rest")
        #expect(polling.timerFired(now: start.addingTimeInterval(5)) == .ask)
        #expect(polling.timerFired(now: start.addingTimeInterval(6)) == nil, "a poll is in flight")
        #expect(polling.pollNow() == nil)
        #expect(
            polling.answered(.notYet, now: start.addingTimeInterval(6)) == .wait(until: start.addingTimeInterval(11)))
        #expect(polling.pollNow() == .ask, "a redirect means: look now")
        #expect(polling.polls == 2)
    }

    @Test func aThrottledPollWaitsAtLeastASecondLongerOrWhatRetryAfterSays() {
        var polling = ProfilePolling(session: session(), origin: .secondScreen, interval: 5, now: start)
        _ = polling.timerFired(now: start.addingTimeInterval(5))
        #expect(
            polling.answered(.throttled(retryAfter: nil), now: start.addingTimeInterval(5))
                == .wait(until: start.addingTimeInterval(11)))
        _ = polling.timerFired(now: start.addingTimeInterval(11))
        #expect(
            polling.answered(.throttled(retryAfter: 7), now: start.addingTimeInterval(11))
                == .wait(until: start.addingTimeInterval(23)))
    }

    @Test func theWaitEndsAtTheProfileTheSessionsEndOrTheServersWord() {
        var screen = ProfilePolling(session: session(lasting: 10), origin: .secondScreen, interval: 5, now: start)
        #expect(screen.timerFired(now: start.addingTimeInterval(10)) == .expired)
        var answered = ProfilePolling(session: session(), origin: .secondScreen, interval: 5, now: start)
        _ = answered.timerFired(now: start.addingTimeInterval(5))
        #expect(
            answered.answered(.transientFailure, now: start.addingTimeInterval(5))
                == .wait(until: start.addingTimeInterval(10)), "a second screen asks again")
        _ = answered.timerFired(now: start.addingTimeInterval(10))
        #expect(answered.answered(.sessionGone, now: start.addingTimeInterval(10)) == .sessionGone)
        var late = ProfilePolling(session: session(lasting: 10), origin: .secondScreen, interval: 5, now: start)
        _ = late.timerFired(now: start.addingTimeInterval(5))
        #expect(late.answered(.notYet, now: start.addingTimeInterval(10)) == .expired)
        var redirect = ProfilePolling(session: session(), origin: .redirect, interval: 5, now: start)
        #expect(
            redirect.answered(.transientFailure, now: start) == .failed,
            "after a redirect a failed answer ends the login")
        var found = ProfilePolling(session: session(), origin: .redirect, interval: 5, now: start)
        #expect(found.answered(.profile, now: start) == .signedIn)
    }
    @Test func aSecondScreenSaysOnceWhenPollsFailFor30SecondsAndWhenTheyAnswerAgain() {
        var polling = ProfilePolling(session: session(lasting: 600), origin: .secondScreen, interval: 5, now: start)
        func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }
        #expect(polling.reachability(after: .notYet, now: at(5)) == nil)
        #expect(polling.reachability(after: .transientFailure, now: at(10)) == nil)
        #expect(polling.reachability(after: .transientFailure, now: at(34)) == nil, "29 s since the last answer")
        #expect(polling.reachability(after: .transientFailure, now: at(35)) == .lost(since: at(5)))
        #expect(polling.reachability(after: .transientFailure, now: at(40)) == nil, "said once")
        #expect(
            polling.reachability(after: .throttled(retryAfter: nil), now: at(45)) == .restored, "a 429 is an answer")
        #expect(polling.reachability(after: .notYet, now: at(50)) == nil)
        #expect(polling.reachability(after: .transientFailure, now: at(79)) == nil)
        #expect(polling.reachability(after: .transientFailure, now: at(80)) == .lost(since: at(50)))
        #expect(polling.reachability(after: .profile, now: at(85)) == .restored)
    }

    @Test func aHangingPollCountsFromTheLastAnswerAndARedirectNeverWarns() {
        var screen = ProfilePolling(session: session(lasting: 600), origin: .secondScreen, interval: 5, now: start)
        // The first poll went at 5 s and its failure came back at 35 s (a request timeout).
        #expect(screen.reachability(after: .transientFailure, now: start.addingTimeInterval(35)) == .lost(since: start))
        var redirect = ProfilePolling(session: session(lasting: 600), origin: .redirect, interval: 5, now: start)
        #expect(redirect.reachability(after: .transientFailure, now: start.addingTimeInterval(60)) == nil)
    }

    @Test func aSessionWithoutAnMVPDIsNamedForTheChoiceToCome() {
        let open = AuthenticationSession(mvpd: nil, code: "CODE", notAfter: nil, now: start)
        #expect(open.notAfter == start.addingTimeInterval(AuthenticationSession.defaultLifetime))
        #expect(open.mvpdName.contains("second screen"))
        #expect(session().mvpdName == "Plain1")
    }
}
