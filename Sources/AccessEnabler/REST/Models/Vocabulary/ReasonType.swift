/// The `reasonType` of a session answer: why Adobe Pass chose its `actionName`.
enum ReasonType: WireVocabulary {
    /// No particular reason: the regular path.
    case noReason
    /// A profile for the MVPD already exists.
    case authenticated
    /// A single sign-on profile already exists.
    case authenticatedSSO
    /// A temporary access (TempPass) applies.
    case temporary
    /// The MVPD is degraded; access is granted without it.
    case degraded
    /// The partner sign-in could not continue; fall back to the MVPD's own sign-in.
    case partnerFrameworkStatusFallback
    /// The partner sign-in is not configured for the MVPD; fall back to its own sign-in.
    case configurationFallback
    /// The partner sign-in lacked parameters; fall back to its own sign-in.
    case missingParametersFallback
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [ReasonType] = [
        .noReason, .authenticated, .authenticatedSSO, .temporary, .degraded,
        .partnerFrameworkStatusFallback, .configurationFallback, .missingParametersFallback,
    ]

    var rawValue: String {
        switch self {
        case .noReason: "none"
        case .authenticated: "authenticated"
        case .authenticatedSSO: "authenticatedSSO"
        case .temporary: "temporary"
        case .degraded: "degraded"
        case .partnerFrameworkStatusFallback: "pfs_fallback"
        case .configurationFallback: "configuration_fallback"
        case .missingParametersFallback: "missing_parameters_fallback"
        case .unknown(let spelling): spelling
        }
    }
}
