import Foundation

/// Error handling: an error's `action` says what to do; only the few errors that warrant a
/// retry are sent again, 2 or 3 times, never in a loop.
extension ChecklistRules {
    /// Times a request may be sent again, in a row, after errors that warrant a retry.
    static let allowedRepeats = 3
    /// Times a request may be sent again, in a row, after errors that do not warrant one
    /// (the fourth identical request in a row is the finding).
    static let allowedNonRetryableRepeats = 2
    /// A request sent again sooner than this after the previous answer is a program's retry;
    /// a longer gap may be a person asking again (pressing Play a second time), which the
    /// retry rules leave alone.
    static let retryPace: TimeInterval = 5

    /// The same request sent more than ``allowedRepeats`` times in a row after errors that
    /// warrant a retry (``ObservedRequest/answerWarrantsRetry``), each time within
    /// ``retryPace`` of the previous answer. One finding per row, at the first send past the
    /// allowance.
    static let retryLoop = ChecklistRule(
        "retry-loop", .mandatory,
        line:
            """
            Error Handling · Enhanced Error Code Handling Support (and the decisions' Retry rows): follow each \
            error's action; retry only the few errors that warrant it, at most 2 or 3 times, never in an endless \
            loop.
            """,
        evidence: .device,
        limits:
            """
            Counts only sends less than 5 s after the previous answer, in a row (another request of the device, a \
            success, or a longer gap starts over): a person who asks again later, and every retry the app's own \
            schedule spaces out, is not counted. Polls of a code are the polling rules' matter.
            """
    ) { history in
        findings(in: repeatRows(history), after: .retryable, allowed: allowedRepeats) { row, retries in
            """
            Sent the same request \(row) times in a row, \(retries) of them less than 5 s after an error that \
            warrants a retry; retry a failing request at most 2 or 3 times, never in a loop.
            """
        }
    }

    /// The same request sent again, a third time and more, in a row after errors that do
    /// not warrant a retry — a denial, an invalid parameter, an expired profile: an enhanced
    /// error whose action is `none` (but a server error), `configuration`,
    /// `application-registration`, `authentication` or `authorization`, or a 4xx status —
    /// each time within ``retryPace`` of the previous answer (the fourth identical request
    /// is the finding). One finding per row.
    static let nonRetryableRetried = ChecklistRule(
        "non-retryable-retried", .mandatory,
        line:
            """
            Error Handling · Enhanced Error Code Handling Support (and the decisions' Retry rows): use the error's \
            action field to decide what to do; most enhanced error codes do not warrant a retry.
            """,
        evidence: .device,
        limits:
            """
            Counts only sends less than 5 s after the previous answer: a person pressing Play again on a title they \
            do not have, seconds apart, gets a fresh authorization each time as the checklist asks, and is not \
            counted. Two quick repeats are forgiven (a double press).
            """
    ) { history in
        findings(in: repeatRows(history), after: .notRetryable, allowed: allowedNonRetryableRepeats) { row, repeats in
            """
            Sent the same request \(row) times in a row, \(repeats) of them less than 5 s after an error whose \
            action does not ask for a retry; follow the action (show the message, sign in, fix the request) instead \
            of sending it again.
            """
        }
    }

    /// Two or more failing requests sent in turn: in a run of one device's requests that all
    /// failed (each within ``retryPace`` of the previous, nothing succeeding between), one
    /// request sent a fifth time while others were sent between its sends — a loop the
    /// same-request rules cannot see. One finding per run, counting it whole.
    static let alternatingFailures = ChecklistRule(
        "alternating-failures", .mandatory,
        line:
            """
            Error Handling · Enhanced Error Code Handling Support (and the decisions' Retry rows): make sure no \
            retry mechanism ends in an endless loop, whatever it retries.
            """,
        evidence: .device,
        limits:
            """
            A success of the device, or a gap of 5 s or more, ends the run: a loop that mixes in a succeeding \
            request or waits between turns is not seen. Polls of a code are not counted.
            """
    ) { history in
        // Per device: the run under way (its last request, its length, how many times each
        // request was sent, and its finding once it has one).
        struct Run {
            var last: Int
            var length = 0
            var sends: [Int: Int] = [:]
            var finding: Int?
        }
        var runs: [String: Run] = [:]
        var found: [(index: Int, length: Int, distinct: Int, most: Int)] = []
        for (index, request) in history.requests.enumerated() where request.isRetryCandidate {
            let device = history.devices[index]
            // A success ends the run, and is no part of it.
            guard request.answeredWithError else {
                runs[device] = nil
                continue
            }
            var run = runs[device] ?? Run(last: index)
            if request.at.timeIntervalSince(history.requests[run.last].at) >= retryPace { run = Run(last: index) }
            run.last = index
            run.length += 1
            let sent = run.sends[request.signature, default: 0] + 1
            run.sends[request.signature] = sent
            if let open = run.finding {
                found[open] = (found[open].index, run.length, run.sends.count, max(found[open].most, sent))
            } else if sent == allowedRepeats + 2, run.sends.count > 1 {
                run.finding = found.count
                found.append((index, run.length, run.sends.count, run.sends.values.max() ?? sent))
            }
            runs[device] = run
        }
        return found.map { finding in
            ChecklistFinding(
                index: finding.index,
                detail:
                    """
                    Sent \(finding.distinct) failing requests in turn, \(finding.length) requests in a row (one of \
                    them \(finding.most) times), each less than 5 s after an error; retry a failing request 2 or 3 \
                    times at most, never in a loop.
                    """
            )
        }
    }

    /// How the answer before a send in a row failed.
    enum RepeatCause: Sendable {
        /// An error that warrants a retry.
        case retryable
        /// An error that does not.
        case notRetryable
    }

    /// A row: the same request sent by one device again and again, consecutively among its
    /// requests, each send within ``retryPace`` of the previous answer, which was an error.
    struct RepeatRow: Sendable {
        /// The indexes of the sends, oldest first.
        var sends: [Int]
        /// Why each send after the first came: how the answer before it failed.
        var causes: [RepeatCause]
    }

    /// Every row of `history` with at least two sends.
    static func repeatRows(_ history: ChecklistHistory) -> [RepeatRow] {
        var open: [String: RepeatRow] = [:]
        var rows: [RepeatRow] = []
        for (index, request) in history.requests.enumerated() where request.isRetryCandidate {
            let device = history.devices[index]
            if var row = open[device], let last = row.sends.last {
                let previous = history.requests[last]
                if previous.signature == request.signature, previous.answeredWithError,
                    request.at.timeIntervalSince(previous.at) < retryPace
                {
                    row.sends.append(index)
                    row.causes.append(previous.answerWarrantsRetry ? .retryable : .notRetryable)
                    open[device] = row
                    continue
                }
                if row.sends.count > 1 { rows.append(row) }
            }
            open[device] = RepeatRow(sends: [index], causes: [])
        }
        rows += open.values.filter { $0.sends.count > 1 }
        return rows.sorted { $0.sends[0] < $1.sends[0] }
    }

    /// One finding per row whose sends after `cause` exceed `allowed`, at the send that
    /// exceeded it; `detail` gets the row's length and that count.
    private static func findings(
        in rows: [RepeatRow], after cause: RepeatCause, allowed: Int, detail: (Int, Int) -> String
    ) -> [ChecklistFinding] {
        rows.compactMap { row in
            var count = 0
            var first: Int?
            for (offset, each) in row.causes.enumerated() where each == cause {
                count += 1
                if count == allowed + 1 { first = row.sends[offset + 1] }
            }
            return first.map { ChecklistFinding(index: $0, detail: detail(row.sends.count, count)) }
        }
        .sorted { $0.index < $1.index }
    }
}

extension ObservedRequest {
    /// `true` for the requests a client application sends: REST API V2 (not the
    /// authenticate URL, which a user agent opens) and DCR.
    var isClientRequest: Bool { isRESTV2 || path.hasPrefix("/o/client/") }

    /// `true` for a client's request the retry rules count: every one but the polls of a
    /// code (polling a pending code again is what a device waiting for a sign-in does).
    var isRetryCandidate: Bool { isClientRequest && route?.endpoint != .profileForCode }

    /// `true` when the answer was an error that warrants sending the request again: an
    /// enhanced error whose action is `retry`; or, with no enhanced error asking for
    /// something else (`configuration`, `authentication`, …), a `429`, a status of 500 or
    /// more, or a dropped connection.
    var answerWarrantsRetry: Bool {
        if facts.errorActions.contains("retry") { return true }
        if facts.errorActions.contains(where: { $0 != "none" }) { return false }
        return status == 0 || status == 429 || status >= 500
    }
}
