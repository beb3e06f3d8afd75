import Foundation
import Testing

@testable import AccessEnabler

/// ``BackOffPolicy`` value by value, and the `Retry-After` reading it relies on. No I/O.
@Suite("REST back-off policy")
struct RESTBackOffPolicyTests {
    private let policy = BackOffPolicy()
    private let now = Date(timeIntervalSince1970: 1_767_225_600)

    private func next(_ status: Int, advice: ServerAdvice? = nil, retryAfter: TimeInterval? = nil, attempt: Int = 1)
        -> BackOffPolicy.Decision
    {
        policy.next(.response(status: status, advice: advice, retryAfter: retryAfter), attempt: attempt, now: now)
    }

    @Test func successIsDelivered() {
        #expect(next(200) == .deliver)
        #expect(next(201, advice: .transient) == .deliver)
    }

    @Test func throttlingIsDeliveredNotRetried() {
        #expect(next(429) == .deliver)
        #expect(next(429, retryAfter: 3) == .deliver)
        #expect(next(429, advice: .transient, retryAfter: 3) == .deliver)
    }

    @Test func unauthorizedIsLeftToTheTokenRenewal() {
        #expect(next(401, advice: .transient) == .deliver)
        #expect(next(401, advice: .clientUnknown) == .deliver)
    }

    @Test func aTransientAnswerIsRetriedTwiceAfterOneThenTwoSeconds() {
        #expect(next(403, advice: .transient) == .retry(after: now.addingTimeInterval(1)))
        #expect(next(500, advice: .transient) == .retry(after: now.addingTimeInterval(1)))
        #expect(next(403, advice: .transient, attempt: 2) == .retry(after: now.addingTimeInterval(2)))
        #expect(next(403, advice: .transient, attempt: 3) == .giveUp)
    }

    @Test func retryAfterHeaderLengthensTheWaitWithinBounds() {
        #expect(next(403, advice: .transient, retryAfter: 4) == .retry(after: now.addingTimeInterval(4)))
        #expect(next(403, advice: .transient, retryAfter: 0.2) == .retry(after: now.addingTimeInterval(1)))
        #expect(next(403, advice: .transient, retryAfter: 86_400) == .retry(after: now.addingTimeInterval(300)))
        #expect(policy.wait(retryAfter: nil) == 1)
        #expect(policy.wait(retryAfter: 2.5) == 2.5)
    }

    @Test func otherErrorsAreDelivered() {
        #expect(next(403, advice: .signInEnded) == .deliver)
        #expect(next(500, advice: .serverFailure) == .deliver)
        #expect(next(500) == .deliver)
        #expect(next(400, advice: .configurationChanged) == .deliver)
        #expect(policy.next(.transportFailure(.timedOut), attempt: 1, now: now) == .deliver)
        #expect(policy.next(.transportFailure(.connectionLost("reset")), attempt: 1, now: now) == .deliver)
    }

    @Test func budgetIsAdjustable() {
        var none = BackOffPolicy()
        none.retryBudget = 0
        #expect(none.next(.response(status: 403, advice: .transient, retryAfter: nil), attempt: 1, now: now) == .giveUp)
        var once = BackOffPolicy()
        once.retryBudget = 1
        #expect(once.next(.response(status: 403, advice: .transient, retryAfter: nil), attempt: 2, now: now) == .giveUp)
    }

    // MARK: Retry-After

    private func retryAfter(_ value: String, date: String? = nil) -> TimeInterval? {
        var headers = [(name: "Retry-After", value: value)]
        if let date { headers.append((name: "Date", value: date)) }
        return RetryAfter.delay(in: HTTPResponseMessage(status: 429, headers: headers), now: now)
    }

    @Test func retryAfterSeconds() {
        #expect(retryAfter("3") == 3)
        #expect(retryAfter(" 120 ") == 120)
        #expect(retryAfter("0") == 0)
        #expect(retryAfter("-5") == nil)
        #expect(retryAfter("soon") == nil)
        #expect(RetryAfter.delay(in: HTTPResponseMessage(status: 429), now: now) == nil)
    }

    @Test func retryAfterHTTPDateIsMeasuredFromTheResponseDate() {
        // Adobe's sample 429 carries `date: Tue, 20 Feb 2024 11:21:53 GMT`.
        #expect(retryAfter("Tue, 20 Feb 2024 11:21:55 GMT", date: "Tue, 20 Feb 2024 11:21:53 GMT") == 2)
        #expect(retryAfter("Tuesday, 20-Feb-24 11:21:58 GMT", date: "Tue, 20 Feb 2024 11:21:53 GMT") == 5)
        #expect(retryAfter("Tue Feb 20 11:21:54 2024", date: "Tue, 20 Feb 2024 11:21:53 GMT") == 1)
        #expect(retryAfter("Tue, 20 Feb 2024 11:21:50 GMT", date: "Tue, 20 Feb 2024 11:21:53 GMT") == 0)
    }

    @Test func retryAfterHTTPDateWithoutDateHeaderIsMeasuredFromNow() {
        // now is 2026-01-01T00:00:00Z.
        #expect(retryAfter("Thu, 01 Jan 2026 00:00:07 GMT") == 7)
        #expect(RetryAfter.httpDate("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(RetryAfter.httpDate("06 1994 08:49:37") == nil)
    }

    // MARK: The retry schedule

    @Test func aRetryAnswerIsAskedAgainAfterOneSecondThenTwoThenNeverAgain() {
        let transient = BackOffPolicy.Outcome.response(status: 403, advice: .transient, retryAfter: nil)
        #expect(policy.next(transient, attempt: 1, now: now) == .retry(after: now.addingTimeInterval(1)))
        #expect(policy.next(transient, attempt: 2, now: now) == .retry(after: now.addingTimeInterval(2)))
        #expect(policy.next(transient, attempt: 3, now: now) == .giveUp)
        // Jitter moves each wait by up to 20 %; a longer Retry-After still wins.
        #expect(policy.next(transient, attempt: 1, now: now, jitter: 0.8) == .retry(after: now.addingTimeInterval(0.8)))
        #expect(policy.next(transient, attempt: 2, now: now, jitter: 1.2) == .retry(after: now.addingTimeInterval(2.4)))
        let withRetryAfter = BackOffPolicy.Outcome.response(status: 403, advice: .transient, retryAfter: 5)
        let longer = policy.next(withRetryAfter, attempt: 2, now: now, jitter: 1.2)
        #expect(longer == .retry(after: now.addingTimeInterval(5)))
    }

    @Test func theRandomJitterStaysWithinTwentyPercentAndVaries() {
        let factors = (0..<1_000).map { _ in RetryJitter.random.factor() }
        #expect(factors.allSatisfy { $0 >= 0.8 && $0 <= 1.2 })
        // Devices that failed together do not come back together.
        #expect(Set(factors).count > 1)
    }
}
