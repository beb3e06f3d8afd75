import Foundation

/// Which endpoint a request path names, with the path parameters; parsed before any
/// handler runs so faults and the request log know the endpoint.
enum SandboxRoute: Equatable, Sendable {
    case dcrRegister
    case dcrToken
    case configuration(serviceProvider: String)
    case createSession(serviceProvider: String)
    case resumeSession(serviceProvider: String, code: String)
    case sessionInformation(serviceProvider: String, code: String)
    case authenticate(serviceProvider: String, code: String)
    case login(mvpd: String)
    case profiles(serviceProvider: String)
    case profileForMVPD(serviceProvider: String, mvpd: String)
    case profileForCode(serviceProvider: String, code: String)
    case partnerSession(serviceProvider: String, partner: String)
    case partnerProfile(serviceProvider: String, partner: String)
    case authorize(serviceProvider: String, mvpd: String)
    case preauthorize(serviceProvider: String, mvpd: String)
    case logout(serviceProvider: String, mvpd: String)
    case mvpdLogout
    case activate
    case resetTempPass
    case checklist
    case householdDeviceCode
    case householdToken
    case householdSignIn
    case householdSAML
    case householdRevoke

    /// The endpoint, for faults and logs.
    var endpoint: SandboxEndpoint {
        switch self {
        case .dcrRegister: .dcrRegister
        case .dcrToken: .dcrToken
        case .configuration: .configuration
        case .createSession: .createSession
        case .resumeSession: .resumeSession
        case .sessionInformation: .sessionInformation
        case .authenticate: .authenticate
        case .login: .login
        case .profiles: .profiles
        case .profileForMVPD: .profileForMVPD
        case .profileForCode: .profileForCode
        case .partnerSession: .partnerSession
        case .partnerProfile: .partnerProfile
        case .authorize: .authorize
        case .preauthorize: .preauthorize
        case .logout: .logout
        case .mvpdLogout: .mvpdLogout
        case .activate: .activate
        case .resetTempPass: .resetTempPass
        case .checklist: .checklist
        case .householdDeviceCode: .householdDeviceCode
        case .householdToken: .householdToken
        case .householdSignIn: .householdSignIn
        case .householdSAML: .householdSAML
        case .householdRevoke: .householdRevoke
        }
    }

    /// The methods the endpoint accepts. Every `GET` resource answers `HEAD` too, with the
    /// head of its `GET` answer (RFC 9110 §9.3.2).
    var allowedMethods: [String] {
        switch self {
        case .dcrRegister, .dcrToken, .createSession, .resumeSession, .partnerSession, .partnerProfile, .authorize,
            .preauthorize:
            ["POST"]
        case .householdDeviceCode, .householdToken, .householdSAML, .householdRevoke: ["POST"]
        case .login, .activate, .householdSignIn: ["GET", "HEAD", "POST"]
        case .sessionInformation, .configuration, .authenticate, .profiles, .profileForMVPD, .profileForCode, .logout,
            .mvpdLogout:
            ["GET", "HEAD"]
        case .resetTempPass: ["DELETE"]
        case .checklist: ["GET", "HEAD", "DELETE"]
        }
    }

    /// The methods served on `path`, whichever endpoint each method reaches there (GET,
    /// HEAD and POST on `/api/v2/{sp}/sessions/{code}`): what a 405's `Allow` lists.
    static func allowedMethods(forPath path: String) -> [String] {
        ["GET", "HEAD", "POST", "DELETE"].filter { method in
            SandboxRoute(method: method, path: path)?.allowedMethods.contains(method) == true
        }
    }

    /// `true` for the endpoints Adobe's throttling covers (`/o/client/…` and `/api/v2/…`),
    /// `false` for the pages a user agent opens (the authenticate URL, MVPD pages), the
    /// TempPass reset (a management API, not a device's) and the checklist report.
    var isThrottled: Bool {
        switch self {
        case .authenticate, .login, .mvpdLogout, .resetTempPass, .checklist: false
        // The TV provider's identity service is not Adobe Pass.
        case .householdDeviceCode, .householdToken, .householdSignIn, .householdSAML, .householdRevoke: false
        default: true
        }
    }

    /// Path of the MVPD login page for `mvpd`.
    static func loginPath(mvpd: String) -> String { "/mvpd/\(mvpd)/login" }
    /// Path of the MVPD logout page.
    static let mvpdLogoutPath = "/adobe-services/logout"
    /// Path of the second screen's activation page.
    static let activatePath = "/activate"
    /// Path of the checklist monitor's report.
    static let checklistPath = "/checklist"
    /// Path of Adobe's TempPass reset.
    static let resetTempPassPath = "/reset-tempass/v3/reset"
    /// Path of the page where a person signs a device in to a TV provider.
    static let householdSignInPath = "/tv-provider"

    /// Parses a request path (query excluded) and method. `nil` for an unknown path.
    ///
    /// `/api/v2/{sp}/sessions/{code}` is a resume for POST and an information query for
    /// GET (and HEAD). The documentation's sample spellings `/api/v2/sessions/{sp}/{code}` and
    /// `/api/v2/logout/{sp}/{mvpd}` are accepted too, and a trailing slash is ignored.
    init?(method: String, path: String) {
        // Split on the bytes: splitting on Characters and Foundation's `contains` cost more
        // than the rest of routing.
        var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .map { String(Substring($0)).removingPercentEncodingIfPossible }
        guard !segments.isEmpty else { return nil }
        if segments == ["o", "client", "register"] { self = .dcrRegister; return }
        if segments == ["o", "client", "token"] { self = .dcrToken; return }
        if segments == ["adobe-services", "logout"] { self = .mvpdLogout; return }
        if segments == ["activate"] { self = .activate; return }
        if segments == ["checklist"] { self = .checklist; return }
        if segments == ["reset-tempass", "v3", "reset"] { self = .resetTempPass; return }
        if segments.first == "tv-provider", let route = Self.household(Array(segments.dropFirst())) {
            self = route
            return
        }
        if segments.count == 3, segments[0] == "mvpd", segments[2] == "login" {
            self = .login(mvpd: segments[1]); return
        }
        guard segments.count >= 3, segments[0] == "api", segments[1] == "v2" else { return nil }
        segments.removeFirst(2)
        switch segments.count {
        case 2:
            switch segments[1] {
            case "configuration": self = .configuration(serviceProvider: segments[0])
            case "sessions": self = .createSession(serviceProvider: segments[0])
            case "profiles": self = .profiles(serviceProvider: segments[0])
            default: return nil
            }
        case 3:
            let (first, second, third) = (segments[0], segments[1], segments[2])
            switch second {
            case "sessions" where method == "GET" || method == "HEAD":
                self = .sessionInformation(serviceProvider: first, code: third)
            case "sessions": self = .resumeSession(serviceProvider: first, code: third)
            case "profiles": self = .profileForMVPD(serviceProvider: first, mvpd: third)
            case "logout": self = .logout(serviceProvider: first, mvpd: third)
            default:
                switch first {
                case "authenticate": self = .authenticate(serviceProvider: second, code: third)
                case "sessions": self = .sessionInformation(serviceProvider: second, code: third)
                case "logout": self = .logout(serviceProvider: second, mvpd: third)
                default: return nil
                }
            }
        case 4:
            switch (segments[1], segments[2]) {
            case ("profiles", "code"): self = .profileForCode(serviceProvider: segments[0], code: segments[3])
            case ("sessions", "sso"): self = .partnerSession(serviceProvider: segments[0], partner: segments[3])
            case ("profiles", "sso"): self = .partnerProfile(serviceProvider: segments[0], partner: segments[3])
            case ("decisions", "authorize"): self = .authorize(serviceProvider: segments[0], mvpd: segments[3])
            case ("decisions", "preauthorize"): self = .preauthorize(serviceProvider: segments[0], mvpd: segments[3])
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The TV provider identity service's routes, by the segments after `tv-provider`.
    private static func household(_ rest: [String]) -> SandboxRoute? {
        switch rest {
        case []: .householdSignIn
        case ["device", "code"]: .householdDeviceCode
        case ["device", "token"]: .householdToken
        case ["saml"]: .householdSAML
        case ["revoke"]: .householdRevoke
        default: nil
        }
    }
}

extension String {
    /// The percent-decoded text, or the text itself when it is not valid percent-encoding.
    var removingPercentEncodingIfPossible: String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        return removingPercentEncoding ?? self
    }
}
