/// The `action` of an enhanced error: the remedy Adobe Pass recommends.
enum ErrorAction: WireVocabulary {
    /// No predefined remedy; the request itself may be wrong.
    case noRemedy
    /// The integration's configuration must change (fetch it again).
    case configuration
    /// The application must register again (a new DCR client).
    case applicationRegistration
    /// The user must sign in again.
    case authentication
    /// The application must obtain a decision for the resource.
    case authorization
    /// The same request may succeed later.
    case retry
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [ErrorAction] = [
        .noRemedy, .configuration, .applicationRegistration, .authentication, .authorization, .retry,
    ]

    var rawValue: String {
        switch self {
        case .noRemedy: "none"
        case .configuration: "configuration"
        case .applicationRegistration: "application-registration"
        case .authentication: "authentication"
        case .authorization: "authorization"
        case .retry: "retry"
        case .unknown(let spelling): spelling
        }
    }
}
