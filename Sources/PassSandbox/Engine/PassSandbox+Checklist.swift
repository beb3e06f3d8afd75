import Foundation

/// The checklist monitor: PassSandbox watches every client that talks to it and reports where
/// it breaks the machine-checkable lines of Adobe's REST API V2 Checklist.
extension PassSandbox {
    /// What the checklist monitor found so far: every rule it checks, every violation and
    /// notice in the order of the requests that broke the lines, and how each line of Adobe's
    /// checklist is covered. Each call judges the requests answered until then (the last
    /// 10,000; what older ones broke is kept) at the sandbox clock's now.
    public var checklist: SandboxChecklist { checklist(skipping: []) }

    /// ``checklist`` without the rules whose ids are in `skipped` (their findings left out,
    /// the rules still listed).
    public func checklist(skipping skipped: Set<String>) -> SandboxChecklist {
        let (history, settled) = journal.withLock { ($0.monitor.history, $0.monitor.settled) }
        let rules = ChecklistRules.all.filter { !skipped.contains($0.id) }
        let findings = ChecklistMonitor.findings(history: history, settled: settled, rules: rules, now: clock.now)
        return SandboxChecklist(
            rules: ChecklistRules.descriptions, findings: findings, coverage: ChecklistCoverage.lines)
    }

    /// Forgets every request the monitor saw and every violation: the checklist starts over
    /// (`DELETE /checklist` does the same over HTTP).
    public func resetChecklist() {
        journal.withLock { $0.monitor.reset() }
    }

    /// `GET /checklist`: the report as a page, or as JSON to a client whose `Accept` names
    /// `application/json`; `DELETE /checklist` starts it over (`204`).
    func checklistAnswer(_ request: SandboxRequest) -> SandboxResponse {
        switch HTTPASCII.uppercasedToken(request.method) {
        case "DELETE":
            resetChecklist()
            return SandboxResponse(status: 204)
        case "GET", "HEAD":
            let report = checklist
            if request.header("Accept")?.lowercased().contains("application/json") == true {
                return SandboxResponse(
                    status: 200, headers: [("Content-Type", SandboxResponse.jsonContentType)],
                    body: Array(report.json.utf8))
            }
            return .html(ChecklistPage.html(report, base: baseURLForLinks.absoluteString))
        default:
            return SandboxEngine.methodNotAllowed(method: request.method, path: request.path)
        }
    }
}
