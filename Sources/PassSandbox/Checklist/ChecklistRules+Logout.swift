import Foundation

/// Logout phase: logout is the person's own request, never the reaction to a denial, and
/// the MVPD's logout page it names is opened in a user agent.
extension ChecklistRules {
    /// How soon after a denied decision a logout counts as automatic.
    static let automaticLogoutWindow: TimeInterval = 2

    /// How close together preauthorization requests of one device are taken as one call split
    /// in batches (a client may send at most five resources per request).
    static let preauthorizationBatchWindow: TimeInterval = 1

    /// A logout (`GET logout/{mvpd}`) within 2 seconds after a decision request of the same
    /// device that authorized nothing it asked (every decision denied, or the request refused),
    /// with no decision that authorized something since: too soon for a person to have asked
    /// for it. A preauthorization that denies some of its resources is the content filtering it
    /// is for, not a denial — and so is a batch of one rail that denies all of its five, when
    /// another batch of the same rail (a preauthorization within a second) authorized something.
    static let logoutAfterDenial = ChecklistRule(
        "logout-after-denial", .recommended,
        line: """
            Logout Phase · User Experience: call the logout API only when the person asks to sign out, never \
            automatically after a denied authorization or preauthorization.
            """,
        evidence: .device,
        limits: "A person cannot react to a denial in 2 s; a later logout may be the person's and is not judged."
    ) { history in
        var lastDenial: [String: Int] = [:]
        // When each device's last preauthorization that authorized something arrived.
        var lastPermittedRail: [String: Date] = [:]
        var findings: [ChecklistFinding] = []
        for (index, request) in history.requests.enumerated() {
            let device = history.devices[index]
            switch request.route?.endpoint {
            case .authorize?, .preauthorize?:
                let isPreauthorization = request.route?.endpoint == .preauthorize
                if !request.facts.denied {
                    lastDenial[device] = nil
                    if isPreauthorization { lastPermittedRail[device] = request.at }
                } else if isPreauthorization, let permitted = lastPermittedRail[device],
                    abs(request.at.timeIntervalSince(permitted)) <= preauthorizationBatchWindow
                {
                    continue  // another batch of a rail that authorized something
                } else {
                    lastDenial[device] = index
                }
            case .logout?:
                guard let denial = lastDenial[device] else { continue }
                let elapsed = request.at.timeIntervalSince(history.requests[denial].at)
                guard elapsed <= automaticLogoutWindow else { continue }
                let kind =
                    history.requests[denial].route?.endpoint == .preauthorize ? "preauthorization" : "authorization"
                findings.append(
                    ChecklistFinding(
                        index: index,
                        detail: """
                            Logged out \(ChecklistHistory.duration(elapsed)) after a denied \(kind); call logout \
                            only when the person asks to sign out.
                            """))
            default:
                continue
            }
        }
        return findings
    }

    /// A logout whose answer named the MVPD's logout page (`actionName` `logout` with a `url`)
    /// that no user agent has opened since. Pages are matched to logouts oldest first by
    /// their address (MVPD, service provider, redirect URL). One notice per such logout.
    static let logoutPageNotOpened = ChecklistRule(
        "logout-page-not-opened", .notice,
        line:
            """
            Logout Phase · Logout Support: follow the action of each removed profile; for an MVPD with a logout \
            endpoint, open the returned url in a user agent.
            """,
        evidence: .device,
        limits:
            """
            The page's address names no device: a page another device opened for the same MVPD and redirect URL \
            counts for this logout. A page opened outside this sandbox (a real MVPD's) is not seen.
            """
    ) { history in
        var pending: [String: [Int]] = [:]
        for (index, request) in history.requests.enumerated() {
            if let page = request.facts.issuedLogoutPage { pending[page, default: []].append(index) }
            if let page = request.facts.openedLogoutPage, pending[page]?.isEmpty == false {
                pending[page]?.removeFirst()
            }
        }
        return pending.values.flatMap { $0 }.sorted().map { index in
            let mvpd: String
            if case .logout(_, let named)? = history.requests[index].route { mvpd = named } else { mvpd = "the MVPD" }
            return ChecklistFinding(
                index: index,
                detail:
                    """
                    The logout answer named \(mvpd)'s logout page and no user agent has opened it, so the person \
                    stays signed in at the MVPD; open the answer's url in a browser or web view (a device without \
                    one hands it to the person).
                    """
            )
        }
    }
}
