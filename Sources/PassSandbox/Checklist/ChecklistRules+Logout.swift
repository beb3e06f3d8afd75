import Foundation

/// Logout phase: logout is the person's own request, never the reaction to a denial.
extension ChecklistRules {
    /// How soon after a denied decision a logout counts as automatic.
    static let automaticLogoutWindow: TimeInterval = 2

    /// A logout (`GET logout/{mvpd}`) within 2 seconds after a decision request of the same
    /// device that authorized nothing it asked (every decision denied, or the request refused):
    /// too soon for a person to have asked for it. A preauthorization that denies some of its
    /// resources is the content filtering it is for, not a denial.
    static let logoutAfterDenial = ChecklistRule(
        "logout-after-denial", .recommended,
        line: "Logout Phase · User Experience: call the logout API only when the person asks to sign out, never automatically after a denied authorization or preauthorization."
    ) { history in
        var lastDenial: [String: Int] = [:]
        var findings: [ChecklistFinding] = []
        for (index, request) in history.requests.enumerated() {
            let device = history.devices[index]
            switch request.route?.endpoint {
            case .authorize?, .preauthorize?:
                if request.facts.denied { lastDenial[device] = index }
            case .logout?:
                guard let denial = lastDenial[device] else { continue }
                let elapsed = request.at.timeIntervalSince(history.requests[denial].at)
                guard elapsed <= automaticLogoutWindow else { continue }
                let kind = history.requests[denial].route?.endpoint == .preauthorize ? "preauthorization" : "authorization"
                findings.append(
                    ChecklistFinding(
                        index: index,
                        detail: "Logged out \(ChecklistHistory.duration(elapsed)) after a denied \(kind); call logout only when the person asks to sign out."))
            default:
                continue
            }
        }
        return findings
    }
}
