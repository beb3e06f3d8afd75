/// The `actionName` of an authentication session or a partner authentication session:
/// what the application does next.
enum ActionName: WireVocabulary {
    /// Sign in at the MVPD with the session's code and URL.
    case authenticate
    /// Supply the parameters the session still misses, then continue.
    case resume
    /// Try the same request again.
    case retry
    /// A profile exists (or a temporary or degraded access applies): ask for decisions.
    case authorize
    /// A partner (Apple) sign-in can create the profile from the partner's response.
    case partnerProfile
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [ActionName] = [.authenticate, .resume, .retry, .authorize, .partnerProfile]

    var rawValue: String {
        switch self {
        case .authenticate: "authenticate"
        case .resume: "resume"
        case .retry: "retry"
        case .authorize: "authorize"
        case .partnerProfile: "partner_profile"
        case .unknown(let spelling): spelling
        }
    }
}
