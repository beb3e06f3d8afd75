/// Launches of one client: its device identifier, client credentials and access token
/// persist from one launch to the next. A server sees launches only through what they send,
/// so these rules give notices.
extension ChecklistRules {
    /// Launches in a row that look alike before the launch rules speak.
    static let launchesInARow = 3

    /// One client's credentials (its `client_id`, through its access tokens) came with
    /// ``launchesInARow`` or more device identifiers one after another, none of them used
    /// again once the next came: a device identifier computed anew at each launch. A client
    /// whose devices interleave (a server acting for several devices) is left alone. One
    /// notice per client, at the first request of the third identifier.
    static let deviceIdentifierUnstable = ChecklistRule(
        "device-identifier-unstable", .notice,
        line:
            """
            Parameters and Headers · Stable Device Identifier: compute the AP-Device-Identifier once, store it, and \
            keep it across launches, updates and reboots.
            """,
        evidence: .client,
        limits:
            """
            A server acting for devices one after another with one set of client credentials looks the same (the \
            checklist allows such a server, with each device's own identifier).
            """
    ) { history in
        // Per client: its devices in order of first use, where each started, and whether
        // one came back after another (interleaved).
        var order: [String: [String]] = [:]
        var seen: [String: Set<String>] = [:]
        var starts: [String: [Int]] = [:]
        var interleaved: Set<String> = []
        for (index, request) in history.requests.enumerated() {
            guard let client = request.facts.clientID, let device = request.deviceID else { continue }
            if order[client]?.last == device { continue }
            guard seen[client, default: []].insert(device).inserted else {
                interleaved.insert(client)
                continue
            }
            order[client, default: []].append(device)
            starts[client, default: []].append(index)
        }
        return order.compactMap { client, devices -> ChecklistFinding? in
            guard devices.count >= launchesInARow, !interleaved.contains(client),
                let first = starts[client]?[launchesInARow - 1]
            else { return nil }
            return ChecklistFinding(
                index: first,
                detail:
                    """
                    The same client credentials came with \(devices.count) device identifiers in turn, each dropped \
                    for good when the next came: is the identifier computed anew at each launch? Compute it once \
                    and keep it.
                    """
            )
        }
        .sorted { $0.index < $1.index }
    }

    /// ``launchesInARow`` or more launches in a row of what looks like one client (the same
    /// software statement and `X-Device-Info` description), each with a new registration, a
    /// new access token and a device identifier never seen before, each over before the next
    /// registered (a device still sending once the next one registered is another device).
    /// One notice per row of launches, at the third launch's registration.
    static let nothingPersisted = ChecklistRule(
        "nothing-persisted", .notice,
        line:
            """
            Registration Phase · Client Credentials Caching and Access Tokens Caching, Parameters and Headers · \
            Stable Device Identifier: keep the client credentials, the access token and the device identifier in \
            persistent storage.
            """,
        evidence: .launches,
        limits:
            """
            Devices of one model set up one after another with one application look the same to a server (behind \
            one address, as every client of this sandbox is): a notice, never a violation.
            """
    ) { history in
        let requests = history.requests
        // When each device was first and last seen.
        var firstSeen: [String: Int] = [:]
        var lastSeen: [String: Int] = [:]
        var tokened: Set<String> = []
        for (index, request) in requests.enumerated() {
            if let device = request.deviceID {
                if firstSeen[device] == nil { firstSeen[device] = index }
                lastSeen[device] = index
            }
            if let token = request.facts.issuedToken { tokened.insert(token.clientID) }
        }
        // A fresh launch: a registration whose credentials got a token and were first used on
        // a device never seen before the registration.
        var rows: [String: (launches: [Int], device: String)] = [:]
        var found: [(index: Int, launches: Int, description: String)] = []
        var open: [String: Int] = [:]
        for (index, request) in requests.enumerated() {
            guard let issued = request.facts.issuedRegistration, tokened.contains(issued.clientID),
                let device = history.deviceOfClient[issued.clientID], let first = firstSeen[device], first >= index
            else { continue }
            let description = request.deviceDescription ?? "none"
            let look = issued.statement + "\u{1F}" + description
            if let row = rows[look], let previous = lastSeen[row.device], previous < index {
                rows[look] = (row.launches + [index], device)
            } else {
                rows[look] = ([index], device)
                open[look] = nil
            }
            let launches = rows[look]?.launches.count ?? 0
            if let finding = open[look] {
                found[finding].launches = launches
            } else if launches == launchesInARow {
                open[look] = found.count
                found.append((index, launches, description))
            }
        }
        return found.map { finding in
            ChecklistFinding(
                index: finding.index,
                detail:
                    """
                    \(finding.launches) launches in a row, each over before the next, registered anew, took a new \
                    access token and came with a device identifier never seen before, all with one software \
                    statement and the device description \(Self.shortened(finding.description)): does the client \
                    persist nothing? Store the client credentials, the access token and the device identifier, and \
                    reuse them.
                    """
            )
        }
    }

    /// `text`, cut to 100 characters with an ellipsis.
    static func shortened(_ text: String) -> String {
        text.count <= 100 ? text : String(text.prefix(99)) + "…"
    }
}
