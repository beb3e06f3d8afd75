import Foundation

/// One request as the checklist monitor remembers it: what the client sent (method, path,
/// which of the headers every REST API V2 request needs it carried, its device and bearer
/// token), when, how the sandbox answered, and what the answer meant (``ObservedFacts``).
/// The monitor's rules read nothing else. Secrets are not kept: the bearer token is
/// remembered as a hash, enough to tell one token from another within the process.
struct ObservedRequest: Sendable {
    /// The request's place among every request the sandbox answered (1 for the first).
    var sequence: Int
    /// When it was answered, on the sandbox clock.
    var at: Date
    /// The method, upper case.
    var method: String
    /// The path, without the query.
    var path: String
    /// The endpoint the path names, `nil` for an unknown path.
    var route: SandboxRoute?
    /// The status answered (`0`: the connection was dropped).
    var status: Int
    /// The Base64 identifier of a well-formed `AP-Device-Identifier: fingerprint …` header.
    var deviceID: String?
    /// The headers every REST API V2 request carries (checklist: Parameters and Headers),
    /// present or not (a value the sandbox refused still counts as sent).
    var sentAuthorization: Bool
    var sentDeviceIdentifier: Bool
    var sentDeviceInfo: Bool
    /// A hash of the bearer token sent, if any.
    var bearer: Int?
    /// A hash of what makes two requests the same request: method, path, query and body.
    var signature: Int
    /// What the answer meant.
    var facts: ObservedFacts
    /// The names of the query parameters sent, in order.
    var queryNames: [String] = []
    /// The names of the body's parameters: the fields of a form, the members of a JSON object.
    var bodyNames: [String] = []
    /// The names of the header fields sent, lower case, in order.
    var headerNames: [String] = []
    /// For a DCR request: what its `X-Device-Info` says of the device, its connection left
    /// out (``describe(deviceInfo:)``); `nil` when not sent, and for every other request.
    var deviceDescription: String?

    /// The service provider the path names (`REF30`), for the REST API V2 endpoints.
    var serviceProvider: String? { route?.serviceProvider }

    /// The request as a violation names it: `GET /api/v2/REF30/configuration`.
    var label: String { "\(method) \(path)" }

    /// `true` for a REST API V2 request a client application sends: every path under
    /// `/api/v2/` except the authenticate URL, which the user agent opens.
    var isRESTV2: Bool {
        guard path.hasPrefix("/api/v2/") else { return false }
        if case .authenticate? = route { return false }
        return true
    }

    /// `true` when the answer was an error: a status of 400 or more, a dropped connection,
    /// or a success carrying an enhanced error (a decision denied inside a `200`).
    var answeredWithError: Bool { status >= 400 || status == 0 || !facts.errorActions.isEmpty }

    /// `true` when the answer was a success (a status below 400 that was not a dropped
    /// connection) with no enhanced error inside.
    var answeredWithSuccess: Bool { !answeredWithError }

    /// A hash of `token`, as ``bearer`` and ``ObservedFacts/IssuedToken/token`` hold it.
    static func hash(token: String) -> Int {
        var hasher = Hasher()
        hasher.combine(token)
        return hasher.finalize()
    }

    /// A hash of method, path, query and body: the same for a request sent again unchanged.
    static func signature(of request: SandboxRequest) -> Int {
        var hasher = Hasher()
        hasher.combine(HTTPASCII.uppercasedToken(request.method))
        hasher.combine(request.path)
        for item in request.query {
            hasher.combine(item.name)
            hasher.combine(item.value)
        }
        hasher.combine(request.body)
        return hasher.finalize()
    }
}

/// What an answer meant, as the endpoint that gave it saw it: the facts of the sandbox's
/// state the checklist rules need and a request alone does not show.
struct ObservedFacts: Sendable {
    /// Client credentials issued by `POST /o/client/register`.
    struct IssuedRegistration: Sendable {
        var clientID: String
        var statement: String
        var expiresAt: Date
    }

    /// An access token issued by `POST /o/client/token`.
    struct IssuedToken: Sendable {
        /// A hash of the token (``ObservedRequest/hash(token:)``).
        var token: Int
        var clientID: String
        /// Its whole life (`expires_in`), in seconds.
        var lifetime: TimeInterval
        var expiresAt: Date
    }

    /// An authentication session (its code) opened for a device.
    struct IssuedCode: Sendable {
        var code: String
        var deviceID: String?
        var serviceProvider: String
        var expiresAt: Date
    }

    /// How a poll found its code's session.
    enum CodeState: Sendable {
        /// Open, nobody signed in yet.
        case pending
        /// Signed in: the answer carried the profile.
        case authenticated
        /// Its time was over.
        case expired
        /// No such session (never opened, or forgotten).
        case unknown
    }

    /// The client the request acted for: its access token's, or the `client_id` a token
    /// request named.
    var clientID: String?
    /// The software statement of that client, when the sandbox knows it.
    var statement: String?
    var issuedRegistration: IssuedRegistration?
    var issuedToken: IssuedToken?
    var issuedCode: IssuedCode?
    /// For a configuration request naming its device: whether that device held a valid
    /// profile for the service provider (any MVPD, TempPass and degraded access included).
    var heldProfile: Bool?
    /// For `GET profiles/code/{code}`: the session's state when polled.
    var codeState: CodeState?
    /// The `action` of every enhanced error in the answer, top level or item level.
    var errorActions: [String] = []
    /// The `code` of a top-level enhanced error the answer carried, if any.
    var errorCode: String?
    /// For decisions: nothing asked was authorized (every decision denied, or the request
    /// refused).
    var denied = false
    /// The token endpoint refused the client credentials (`invalid_client`).
    var clientRefused = false
    /// For a logout: the MVPD logout page its answer named (``logoutPageKey(mvpd:serviceProvider:redirect:)``).
    var issuedLogoutPage: String?
    /// For the MVPD logout page: which page a user agent opened (the same key).
    var openedLogoutPage: String?

    /// What identifies an MVPD logout page: the MVPD, the service provider and the redirect
    /// URL its address carries (the address names no device, so two devices signing out of
    /// one MVPD with one redirect URL share it).
    static func logoutPageKey(mvpd: String, serviceProvider: String, redirect: String) -> String {
        [mvpd, serviceProvider, redirect].joined(separator: "\u{1F}")
    }
}

extension SandboxRoute {
    /// The service provider a REST API V2 path names.
    var serviceProvider: String? {
        switch self {
        case .configuration(let sp), .createSession(let sp), .profiles(let sp): sp
        case .resumeSession(let sp, _), .sessionInformation(let sp, _), .authenticate(let sp, _),
            .profileForMVPD(let sp, _),
            .profileForCode(let sp, _), .partnerSession(let sp, _), .partnerProfile(let sp, _), .authorize(let sp, _),
            .preauthorize(let sp, _), .logout(let sp, _):
            sp
        default: nil
        }
    }
}
