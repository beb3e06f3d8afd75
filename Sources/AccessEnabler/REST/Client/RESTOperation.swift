import Foundation

/// The Adobe Pass REST API V2 and Dynamic Client Registration operations the SDK calls.
///
/// Each case knows what a person should read in an error message and which HTTP statuses
/// the documentation describes for it, so an answer outside that set can be reported as
/// undocumented instead of being guessed at.
enum RESTOperation: String, Sendable, CaseIterable {
    case dcrRegister
    case dcrToken
    case configuration
    case createSession
    case resumeSession
    case sessionInformation
    case profiles
    case profileForMVPD
    case profileForCode
    case partnerSession
    case partnerProfile
    case authorize
    case preauthorize
    case logout

    /// A short description used in error messages ("the configuration request").
    var displayName: String {
        switch self {
        case .dcrRegister: "client registration (POST /o/client/register)"
        case .dcrToken: "access token request (POST /o/client/token)"
        case .configuration: "configuration request (GET /api/v2/{serviceProvider}/configuration)"
        case .createSession: "create authentication session (POST /api/v2/{serviceProvider}/sessions)"
        case .resumeSession: "resume authentication session (POST /api/v2/{serviceProvider}/sessions/{code})"
        case .sessionInformation: "authentication session information (GET /api/v2/{serviceProvider}/sessions/{code})"
        case .profiles: "profiles request (GET /api/v2/{serviceProvider}/profiles)"
        case .profileForMVPD: "profile request for an MVPD (GET /api/v2/{serviceProvider}/profiles/{mvpd})"
        case .profileForCode: "profile request for a code (GET /api/v2/{serviceProvider}/profiles/code/{code})"
        case .partnerSession: "partner authentication request (POST /api/v2/{serviceProvider}/sessions/sso/{partner})"
        case .partnerProfile: "partner profile request (POST /api/v2/{serviceProvider}/profiles/sso/{partner})"
        case .authorize: "authorization decisions (POST /api/v2/{serviceProvider}/decisions/authorize/{mvpd})"
        case .preauthorize: "preauthorization decisions (POST /api/v2/{serviceProvider}/decisions/preauthorize/{mvpd})"
        case .logout: "logout (GET /api/v2/{serviceProvider}/logout/{mvpd})"
        }
    }

    /// ``displayName`` with the request's own service provider (the requestor id) in the path
    /// in place of `{serviceProvider}`, so a message names the id that was sent:
    /// "profiles request (GET /api/v2/REF30/profiles)". `nil` keeps the template.
    func displayName(serviceProvider: String?) -> String {
        guard let serviceProvider else { return displayName }
        return displayName.replacingOccurrences(of: "{serviceProvider}", with: serviceProvider)
    }

    /// Statuses that carry the documented success body.
    var successStatuses: Set<Int> {
        switch self {
        // DCR answers 201 Created; a 200 carries the same body.
        case .dcrRegister, .dcrToken: [200, 201]
        // The partner profile page documents 201 in its table and 200 in its degraded sample.
        case .partnerProfile: [200, 201]
        default: [200]
        }
    }

    /// Error statuses the documentation describes for this operation: the per-endpoint
    /// tables (400, 401, 403 for profiles by MVPD, 405, 500), the statuses the enhanced
    /// error codes can carry (404, 410, 412) and throttling (429). Any other 5xx is
    /// treated as a server failure as well (see ``RESTResponseClassifier``).
    var documentedErrorStatuses: Set<Int> {
        switch self {
        case .dcrRegister, .dcrToken: [400, 401, 405, 429, 500]
        default: [400, 401, 403, 404, 405, 410, 412, 429, 500]
        }
    }

    /// Whether the request carries `AP-Device-Identifier` and `X-Device-Info`: every REST API
    /// V2 request does. Adobe's checklist requires both "for every REST API v2 request", and
    /// that wins over the three pages that leave them out of their tables (resume a session,
    /// read a session, the profile for a code — the second screen's polls); DCR requests
    /// take `X-Device-Info` alone, from the registration's own description.
    var sendsDeviceHeaders: Bool {
        switch self {
        case .dcrRegister, .dcrToken: false
        case .configuration, .createSession, .resumeSession, .sessionInformation, .profiles, .profileForMVPD,
            .profileForCode, .partnerSession,
            .partnerProfile, .authorize, .preauthorize, .logout:
            true
        }
    }

    /// Whether the operation accepts `AP-Partner-Framework-Status`.
    var acceptsPartnerFrameworkStatus: Bool {
        switch self {
        case .profiles, .profileForMVPD, .partnerSession, .partnerProfile, .authorize, .preauthorize: true
        default: false
        }
    }

    /// Whether the operation accepts `AP-TempPass-Identity` (promotional TempPass): the
    /// decisions and the profile of one MVPD.
    var acceptsTempPassIdentity: Bool {
        switch self {
        case .authorize, .preauthorize, .profileForMVPD: true
        default: false
        }
    }

    /// Whether the operation's page lists `AD-Service-Token` and `Adobe-Subject-Token`
    /// (single sign-on with a service token or a platform identity).
    var acceptsSingleSignOnTokens: Bool {
        switch self {
        case .createSession, .profiles, .profileForMVPD, .authorize, .preauthorize, .logout: true
        default: false
        }
    }

    /// Whether the operation accepts `AP-Visitor-Identifier`.
    var acceptsVisitorIdentifier: Bool {
        switch self {
        case .dcrRegister, .dcrToken, .configuration: false
        default: true
        }
    }
}
