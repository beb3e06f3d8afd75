/// Parameters and headers: a client sends only the parameters and headers the API
/// references define (``ChecklistAPIReference``), however tolerant a server is.
extension ChecklistRules {
    /// A client's request, answered with a success (a status below 400), that sent a query
    /// parameter or a body parameter its endpoint does not define — REST API V1 leftovers
    /// such as `deviceId`, `requestor`, `format`. One finding per device and endpoint, at the
    /// first such request, naming every parameter and counting the requests.
    static let undefinedParameter = ChecklistRule(
        "undefined-parameter", .mandatory,
        line: """
            Parameters and Headers · Follow APIs References: send only the parameters and headers the REST API v2 \
            references define.
            """,
        evidence: .request,
        limits:
            """
            Judges only requests answered with a success: a refused one has already told the client. Only the \
            application writes a request's query and body, so what is there is the application's.
            """
    ) { history in
        undefinedNames(history) { request in
            guard let defined = request.route.flatMap({ ChecklistAPIReference.parameters(of: $0.endpoint) }) else {
                return []
            }
            let query = request.queryNames.filter { !defined.query.contains($0) }.map { "\($0) (query)" }
            return query + request.bodyNames.filter { !defined.body.contains($0) }.map { "\($0) (body)" }
        } detail: { names, tally in
            let (what, them) = names.count == 1 ? ("a parameter", "it") : ("parameters", "them")
            return """
                Sent \(what) this endpoint does not define: \(names.joined(separator: ", "))\(tally); Adobe Pass may \
                refuse \(them) (400): send only what the API reference lists.
                """
        }
    }

    /// A client's request, answered with a success, that carried a header neither the API
    /// (any REST API V2 or DCR page) nor HTTP defines (``ChecklistAPIReference/isUndefined(header:)``).
    /// One finding per device and endpoint, naming every header and counting the requests.
    static let undefinedHeader = ChecklistRule(
        "undefined-header", .notice,
        line: """
            Parameters and Headers · Follow APIs References: send only the parameters and headers the REST API v2 \
            references define.
            """,
        evidence: .request,
        limits:
            """
            A platform's HTTP stack or a proxy may add a header the application never wrote, and a server cannot \
            tell which did: a notice. Headers HTTP, proxies and browsers add (Accept-Encoding, Cookie, \
            X-Forwarded-For, Sec-…) are not counted.
            """
    ) { history in
        undefinedNames(history) { request in
            guard request.route.flatMap({ ChecklistAPIReference.parameters(of: $0.endpoint) }) != nil else { return [] }
            return request.headerNames.filter(ChecklistAPIReference.isUndefined(header:))
        } detail: { names, tally in
            let (what, them) = names.count == 1 ? ("a header", "it") : ("headers", "them")
            return """
                Sent \(what) the API does not define: \(names.joined(separator: ", "))\(tally); if the application \
                adds \(them), stop: Adobe Pass may refuse the request (400).
                """
        }
    }

    /// One finding per device and endpoint whose successful requests sent names `undefined`
    /// lists: at the first, with every name (in the order first sent) and, when more than one
    /// request did, how many.
    private static func undefinedNames(
        _ history: ChecklistHistory, undefined: (ObservedRequest) -> [String], detail: ([String], String) -> String
    ) -> [ChecklistFinding] {
        var first: [[String]: Int] = [:]
        var names: [[String]: [String]] = [:]
        var counts: [[String]: Int] = [:]
        for (index, request) in history.requests.enumerated() where (200..<400).contains(request.status) {
            let sent = undefined(request)
            guard !sent.isEmpty else { continue }
            let key = [history.devices[index], request.route?.endpoint.rawValue ?? request.path]
            if first[key] == nil { first[key] = index }
            counts[key, default: 0] += 1
            for name in sent where !names[key, default: []].contains(name) { names[key, default: []].append(name) }
        }
        return first.map { key, index in
            let count = counts[key, default: 1]
            let tally = count == 1 ? "" : " (in \(count) requests to this endpoint)"
            return ChecklistFinding(index: index, detail: detail(names[key, default: []], tally))
        }
        .sorted { $0.index < $1.index }
    }
}
