/// The parameters and headers the API defines for the requests a client application sends
/// (REST API V2 and DCR), as Adobe's API pages and OpenAPI descriptions list them, held here
/// so the sandbox needs no file at run time. The parameter and header rules compare what a
/// request sent with these lists (checklist: Follow APIs References).
enum ChecklistAPIReference {
    /// The parameters one endpoint defines: in its query, and in its body (a form's fields
    /// or a JSON object's members).
    struct Parameters: Sendable {
        let query: Set<String>
        let body: Set<String>
    }

    /// The parameters `endpoint` defines; `nil` for what a client application does not call
    /// (the authenticate URL and the pages a user agent opens, the TempPass reset, the
    /// checklist, the TV provider's identity service a device's provider service asks),
    /// which the parameter and header rules leave alone. Path parameters are part of the
    /// route, not listed.
    static func parameters(of endpoint: SandboxEndpoint) -> Parameters? {
        switch endpoint {
        case .dcrRegister: Parameters(query: [], body: ["software_statement", "redirect_uri"])
        case .dcrToken: Parameters(query: [], body: ["client_id", "client_secret", "grant_type", "refresh_token"])
        case .configuration: Parameters(query: ["profile"], body: [])
        case .createSession, .resumeSession: Parameters(query: [], body: ["mvpd", "domainName", "redirectUrl"])
        case .partnerSession: Parameters(query: [], body: ["domainName", "redirectUrl"])
        case .partnerProfile: Parameters(query: [], body: ["SAMLResponse"])
        case .authorize, .preauthorize: Parameters(query: [], body: ["resources"])
        case .logout: Parameters(query: ["redirectUrl"], body: [])
        case .sessionInformation, .profiles, .profileForMVPD, .profileForCode: Parameters(query: [], body: [])
        case .authenticate, .login, .mvpdLogout, .activate, .resetTempPass, .checklist: nil
        case .householdDeviceCode, .householdToken, .householdSignIn, .householdSAML, .householdRevoke: nil
        }
    }

    /// Every header a REST API V2 or DCR page defines, lower case. The checklist asks for
    /// the device headers on every request, so a header one page lists is accepted on all.
    static let apiHeaders: Set<String> = [
        "authorization", "content-type", "accept", "user-agent", "ap-device-identifier", "x-device-info",
        "x-forwarded-for",
        "ad-service-token", "adobe-subject-token", "ap-partner-framework-status", "ap-temppass-identity",
        "ap-visitor-identifier",
        "x-roku-reserved-roku-connect-token",
    ]

    /// Headers HTTP itself, its caches, proxies and browsers add to any request, lower case:
    /// never a sign the application follows another API.
    static let standardHeaders: Set<String> = [
        "host", "accept-encoding", "accept-language", "accept-charset", "content-length", "content-encoding",
        "connection",
        "keep-alive", "expect", "transfer-encoding", "te", "trailer", "upgrade", "cache-control", "pragma", "date",
        "via",
        "forwarded", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "origin", "referer",
        "cookie",
        "dnt", "priority", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range",
        "proxy-authorization", "proxy-connection", "traceparent", "tracestate", "upgrade-insecure-requests",
    ]

    /// `true` for a header (lower case) neither the API nor HTTP defines. A browser's own
    /// `Sec-…` headers (fetch metadata, client hints) are HTTP's.
    static func isUndefined(header name: String) -> Bool {
        !apiHeaders.contains(name) && !standardHeaders.contains(name) && !name.hasPrefix("sec-")
    }
}
