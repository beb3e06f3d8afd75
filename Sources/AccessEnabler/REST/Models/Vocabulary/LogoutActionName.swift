/// The `actionName` of one MVPD's entry in a logout answer.
enum LogoutActionName: WireVocabulary {
    /// Open the MVPD's logout page at the entry's URL.
    case logout
    /// Sign out of the partner (Apple) account on the device as well.
    case partnerLogout
    /// Adobe Pass removed the profile; nothing else to do.
    case complete
    /// The logout could not be performed for this MVPD.
    case invalid
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [LogoutActionName] = [.logout, .partnerLogout, .complete, .invalid]

    var rawValue: String {
        switch self {
        case .logout: "logout"
        case .partnerLogout: "partner_logout"
        case .complete: "complete"
        case .invalid: "invalid"
        case .unknown(let spelling): spelling
        }
    }
}
