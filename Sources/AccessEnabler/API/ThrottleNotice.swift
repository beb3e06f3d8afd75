import Foundation

/// How a status says that Adobe Pass throttled the call it reports (HTTP 429). The legacy id
/// stays the one Adobe's throttling page prescribes (Z100 for an authorization, P100 for a
/// preauthorization, CFG429 for setRequestor, …), so legacy code reads what it always read;
/// the status says the rest: ``AdvancedStatus/details`` is `throttled; retry after N s` and
/// ``AdvancedStatus/retryAfter`` is N.
enum ThrottleNotice {
    /// The whole seconds to wait after a throttled request: the `Retry-After` the answer gave
    /// (rounded up), and at least 1 (Adobe Pass throttles for at least a second).
    static func seconds(retryAfter: TimeInterval?) -> Int {
        max(1, WholeNumber.clamped(retryAfter ?? 1, rounding: .up) as Int)
    }

    /// The `details` of a throttled call's status.
    static func details(seconds: Int) -> String { "throttled; retry after \(seconds) s" }

    /// `status` with `seconds` as its ``AdvancedStatus/retryAfter``.
    static func withWait(_ status: AdvancedStatus, seconds: Int) -> AdvancedStatus {
        var marked = status
        marked.retryAfter = seconds
        return marked
    }

    /// `status`, said to be a throttled call's when `error` is a throttling (otherwise as it is).
    static func marking(_ status: AdvancedStatus, for error: RESTClientError) -> AdvancedStatus {
        guard case .throttled(_, let retryAfter) = error else { return status }
        var marked = status
        let wait = seconds(retryAfter: retryAfter)
        marked.details = details(seconds: wait)
        marked.retryAfter = wait
        return marked
    }
}
