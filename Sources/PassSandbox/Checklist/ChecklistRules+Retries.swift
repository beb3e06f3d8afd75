/// Error handling: a failing request is retried a few times (2 or 3), never in a loop.
extension ChecklistRules {
    /// Times a request may be sent again, in a row, after error answers.
    static let allowedRepeats = 3

    /// The same request (method, path, query and body) sent by one device more than
    /// ``allowedRepeats`` times in a row, each after an error answer (a status of 400 or
    /// more, a dropped connection, or an enhanced error inside a success). Polls of a code
    /// are not repeats (the polling rules judge them); another request of the device in
    /// between ends the row. One finding per row, at the first request past the allowance.
    static let retryLoop = ChecklistRule(
        "retry-loop", .mandatory,
        line:
            "Error Handling · Enhanced Error Code Handling Support (and the decisions' Retry rows): follow each error's action; retry only the few errors that warrant it, at most 2 or 3 times, never in an endless loop."
    ) { history in
        // Per device: the row under way (the request's signature, whether its last answer
        // was an error, how many times it was sent).
        var rows: [String: (signature: Int, lastFailed: Bool, length: Int)] = [:]
        var findings: [(index: Int, length: Int)] = []
        var open: [String: Int] = [:]  // device → index into findings of its row's finding
        for (index, request) in history.requests.enumerated() {
            guard request.isClientRequest, request.route?.endpoint != .profileForCode else { continue }
            let device = history.devices[index]
            if let row = rows[device], row.signature == request.signature, row.lastFailed {
                let length = row.length + 1
                rows[device] = (request.signature, request.answeredWithError, length)
                if length == allowedRepeats + 2 {
                    open[device] = findings.count
                    findings.append((index, length))
                } else if let found = open[device], length > allowedRepeats + 2 {
                    findings[found].length = length
                }
            } else {
                rows[device] = (request.signature, request.answeredWithError, 1)
                open[device] = nil
            }
        }
        return findings.map { found in
            ChecklistFinding(
                index: found.index,
                detail:
                    "Sent the same request \(found.length) times in a row, each after an error answer; retry a failing request at most 2 or 3 times, as the error's action says."
            )
        }
    }
}

extension ObservedRequest {
    /// `true` for the requests a client application sends: REST API V2 (not the
    /// authenticate URL, which a user agent opens) and DCR.
    var isClientRequest: Bool { isRESTV2 || path.hasPrefix("/o/client/") }
}
