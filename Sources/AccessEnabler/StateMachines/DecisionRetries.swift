import Foundation

/// Decisions inside a `200` answer whose enhanced error advises asking again
/// (``ServerAdvice/transient``: the action `retry`, or a code filed under it): the
/// checklist's "limits retries to a reasonable number (2-3)". Each such resource is asked
/// again — with the other retryable ones of its answer, after the ``RetrySchedule``'s wait:
/// 1 s, then 2 s — at most ``limit`` times in all; a decision that still carries the error
/// then stands, and ends as any denial does. Pure: the authorization and preauthorization
/// rounds keep one each (the engine adds the jitter to the wait).
struct DecisionRetries: Sendable, Equatable {
    /// How many times one resource is asked again at most.
    static let limit = RetrySchedule.limit

    /// The wait before asking `resources` again (before jitter): the schedule's for the
    /// latest retry among them (1 s for a first retry, 2 s for a second).
    func wait(before resources: [String]) -> TimeInterval {
        RetrySchedule.nominalWait(retry: resources.map { counts[$0, default: 0] }.max() ?? 1)
    }

    /// How many times each resource was asked again so far.
    private(set) var counts: [String: Int] = [:]

    /// The resources of `decisions` to ask again (each counted), in answer order; the other
    /// decisions are final.
    mutating func take(_ decisions: [Decision]) -> [String] {
        var again: [String] = []
        for decision in decisions where Self.asksForRetry(decision) && !again.contains(decision.resource) {
            let asked = counts[decision.resource, default: 0]
            guard asked < Self.limit else { continue }
            counts[decision.resource] = asked + 1
            again.append(decision.resource)
        }
        return again
    }

    /// Whether `decision` is a denial whose error advises asking again.
    static func asksForRetry(_ decision: Decision) -> Bool {
        !decision.authorized && decision.error?.advice.isTransient == true
    }
}
