/// The `actionType` beside an `actionName`: how the next step is taken.
enum ActionType: WireVocabulary {
    /// In a user agent, with the user.
    case interactive
    /// By the application alone, with no user.
    case direct
    /// No step is needed.
    case noStep
    /// In the partner's (Apple's) sign-in, with the user.
    case partnerInteractive
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [ActionType] = [.interactive, .direct, .noStep, .partnerInteractive]

    var rawValue: String {
        switch self {
        case .interactive: "interactive"
        case .direct: "direct"
        case .noStep: "none"
        case .partnerInteractive: "partner_interactive"
        case .unknown(let spelling): spelling
        }
    }
}
