import Foundation

/// Registration phase: client credentials and access tokens are kept and reused.
extension ChecklistRules {
    /// Registrations again, on a device holding working credentials, forgiven: a reinstall.
    static let forgivenReregistrations = 1

    /// A client registers again although its device already holds client credentials of the
    /// same software statement that still work (not expired, not refused by the token
    /// endpoint), for the second time or more: the first such registration is forgiven (an
    /// application reinstalled on a device whose identifier survived has lost its storage).
    /// The device of a registration is the one its new credentials are first used on, so the
    /// finding waits for that use.
    static let registrationRepeated = ChecklistRule(
        "registration-repeated", .mandatory,
        line: """
            Registration Phase · Client Credentials Caching: register once, keep the client credentials in \
            persistent storage and reuse them for every access token request.
            """,
        evidence: .device,
        limits:
            """
            The device is told by its identifier; credentials refused by the token endpoint, or expired, are \
            rightly replaced. One registration again is forgiven: an application reinstalled on a device whose \
            identifier survives registers again, and a server cannot see the reinstall.
            """
    ) { history in
        let requests = history.requests
        var registrations: [String: ObservedFacts.IssuedRegistration] = [:]
        var statements: [String: String] = [:]
        var refusedAt: [String: Date] = [:]
        // Where each device first used each client: (index, client), oldest first.
        var firstUses: [String: [(index: Int, client: String)]] = [:]
        var seen: Set<[String]> = []
        for (index, request) in requests.enumerated() {
            if let issued = request.facts.issuedRegistration {
                registrations[issued.clientID] = issued
                statements[issued.clientID] = issued.statement
            }
            guard let client = request.facts.clientID else { continue }
            if let statement = request.facts.statement { statements[client] = statement }
            if request.facts.clientRefused, refusedAt[client] == nil { refusedAt[client] = request.at }
            let device = history.devices[index]
            if device != SandboxChecklistViolation.unknownDevice, seen.insert([device, client]).inserted {
                firstUses[device, default: []].append((index, client))
            }
        }
        var findings: [ChecklistFinding] = []
        var forgiven: [String: Int] = [:]  // device → registrations again so far
        for (index, request) in requests.enumerated() {
            guard let issued = request.facts.issuedRegistration, let device = history.deviceOfClient[issued.clientID]
            else { continue }
            let held = firstUses[device, default: []].first { use in
                guard use.index < index, use.client != issued.clientID, statements[use.client] == issued.statement
                else { return false }
                if let refused = refusedAt[use.client], refused <= request.at { return false }
                if let end = registrations[use.client]?.expiresAt, end <= request.at { return false }
                return true
            }
            guard let held else { continue }
            forgiven[device, default: 0] += 1
            guard forgiven[device, default: 0] > forgivenReregistrations else { continue }
            findings.append(
                ChecklistFinding(
                    index: index,
                    detail:
                        """
                        Registered again (\(forgiven[device, default: 0] + 1) registrations on this device) \
                        although it already held working client credentials of the same software statement (first \
                        used \(ChecklistHistory.duration(request.at.timeIntervalSince(requests[held.index].at))) \
                        earlier); store the client credentials and reuse them.
                        """
                ))
        }
        return findings
    }

    /// An access token is asked while the client's previous one still has more than a
    /// tenth of its life, and more than 60 seconds, left, and no request was refused with
    /// it (a refused token is rightly replaced).
    static let accessTokenRefreshedEarly = ChecklistRule(
        "access-token-refreshed-early", .mandatory,
        line: """
            Registration Phase · Access Tokens Caching: keep access tokens in persistent storage and reuse them \
            until they expire; do not ask for a new one for every call.
            """,
        evidence: .client,
        limits: "None: the client is told by its credentials, and a token refused (401) is rightly replaced at once."
    ) { history in
        let requests = history.requests
        var latestToken: [String: ObservedFacts.IssuedToken] = [:]
        var refusedTokens: Set<Int> = []
        var findings: [ChecklistFinding] = []
        for (index, request) in requests.enumerated() {
            if request.status == 401, let bearer = request.bearer { refusedTokens.insert(bearer) }
            guard request.route == .dcrToken, let client = request.facts.clientID else { continue }
            if let previous = latestToken[client], !refusedTokens.contains(previous.token) {
                let left = previous.expiresAt.timeIntervalSince(request.at)
                if left > previous.lifetime / 10, left > 60 {
                    findings.append(
                        ChecklistFinding(
                            index: index,
                            detail:
                                """
                                Asked for a new access token while the previous one still had \
                                \(ChecklistHistory.duration(left)) of its \
                                \(ChecklistHistory.duration(previous.lifetime)) left; reuse it until it expires.
                                """
                        ))
                }
            }
            if let issued = request.facts.issuedToken { latestToken[client] = issued }
        }
        return findings
    }
}
