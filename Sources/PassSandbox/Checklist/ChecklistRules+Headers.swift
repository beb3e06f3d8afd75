/// Parameters and headers: every REST API V2 request carries `Authorization`,
/// `AP-Device-Identifier` and `X-Device-Info`, whatever a single API page marks optional.
extension ChecklistRules {
    static let authorizationHeaderMissing = headerRule(
        "authorization-header-missing", header: "Authorization",
        line: """
            Parameters and Headers · Send Authorization Header: send the Authorization header (the DCR access \
            token) with every REST API v2 request.
            """,
        sent: \.sentAuthorization)

    static let deviceIdentifierHeaderMissing = headerRule(
        "device-identifier-header-missing", header: "AP-Device-Identifier",
        line: """
            Parameters and Headers · Send AP-Device-Identifier Header: send the streaming device's identifier with \
            every REST API v2 request.
            """,
        sent: \.sentDeviceIdentifier)

    static let deviceInfoHeaderMissing = headerRule(
        "device-info-header-missing", header: "X-Device-Info",
        line: """
            Parameters and Headers · Send X-Device-Info Header: send the streaming device's information with every \
            REST API v2 request.
            """,
        sent: \.sentDeviceInfo)

    /// A REST API V2 request (any path under `/api/v2/` but the authenticate URL, which a
    /// user agent opens) sent without `header`. One finding per device and endpoint, at the
    /// first such request, counting them all.
    private static func headerRule(
        _ id: String, header: String, line: String, sent: KeyPath<ObservedRequest, Bool> & Sendable
    ) -> ChecklistRule {
        ChecklistRule(
            id, .mandatory, line: line, evidence: .request,
            limits: """
                None: a header is sent or not. The authenticate URL (a browser opens it), DCR and the MVPD pages \
                are not REST API v2 requests.
                """
        ) { history in
            var first: [[String]: Int] = [:]
            var counts: [[String]: Int] = [:]
            for (index, request) in history.requests.enumerated() where request.isRESTV2 && !request[keyPath: sent] {
                let key = [history.devices[index], request.route?.endpoint.rawValue ?? request.path]
                if first[key] == nil { first[key] = index }
                counts[key, default: 0] += 1
            }
            return first.map { key, index in
                let count = counts[key, default: 1]
                let tally = count == 1 ? "" : " (\(count) requests to this endpoint lacked it)"
                return ChecklistFinding(
                    index: index,
                    detail: "Sent without the \(header) header\(tally); every REST API v2 request carries it.")
            }
            .sorted { $0.index < $1.index }
        }
    }
}
