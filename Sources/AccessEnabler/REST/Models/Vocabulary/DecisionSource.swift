/// The `source` of an authorization or preauthorization decision: who decided.
enum DecisionSource: WireVocabulary {
    /// The MVPD.
    case mvpd
    /// Adobe Pass, while the MVPD is degraded.
    case degradation
    /// A temporary access (TempPass).
    case temppass
    /// A dummy decision of a test integration.
    case dummy
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [DecisionSource] = [.mvpd, .degradation, .temppass, .dummy]

    var rawValue: String {
        switch self {
        case .mvpd: "mvpd"
        case .degradation: "degradation"
        case .temppass: "temppass"
        case .dummy: "dummy"
        case .unknown(let spelling): spelling
        }
    }
}
