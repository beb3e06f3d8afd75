import Foundation

/// Why a sign-in link or code cannot be used, in words a person can act on.
enum SignInRefusal: Error, Equatable, Sendable {
    /// No session has the code.
    case unknownCode(String)
    /// The session's window (the world's `authenticationSessionTTL`, in seconds) is over.
    case expired(String, lifetime: TimeInterval = SandboxEngine.authenticationSessionTTL)
    /// Someone already signed in with the code.
    case alreadyUsed(String)
    /// The session still misses parameters the application must give first.
    case incomplete(String)
    /// The session's MVPD no longer has an active integration with the requestor.
    case providerUnavailable(String)

    /// The page's heading.
    var headline: String {
        switch self {
        case .unknownCode: "This sign-in link does not work"
        case .expired: "This sign-in link has expired"
        case .alreadyUsed: "This sign-in link was already used"
        case .incomplete: "This sign-in is not ready yet"
        case .providerUnavailable: "This TV provider is not available"
        }
    }

    /// One sentence saying what is wrong (also what the simulated user agent reports).
    var message: String {
        switch self {
        case .unknownCode(let code) where code.isEmpty: "The link carries no sign-in code."
        case .unknownCode(let code): "No sign-in is waiting for the code \(Self.shown(code))."
        case .expired(let code, let lifetime):
            "The code \(Self.shown(code)) has expired: a code lasts \(Self.lifetime(lifetime))."
        case .alreadyUsed(let code): "The code \(Self.shown(code)) was already used to sign in."
        case .incomplete(let code):
            "The sign-in with the code \(Self.shown(code)) still misses parameters the application must give first."
        case .providerUnavailable(let name): "\(Self.shown(name)) can no longer be used to sign in to this application."
        }
    }

    /// A code's lifetime in words: `30 minutes`, `1 minute`, `90 seconds`.
    static func lifetime(_ seconds: TimeInterval) -> String {
        let whole = Int(max(0, min(seconds, 1e9)).rounded())
        if whole % 60 == 0, whole >= 60 { return whole == 60 ? "1 minute" : "\(whole / 60) minutes" }
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }

    /// `text` as a page shows it: at most 32 characters, so a pasted page of text does not
    /// flood the answer.
    static func shown(_ text: String) -> String {
        text.count <= 32 ? text : String(text.prefix(32)) + "…"
    }

    /// What the person can do next.
    var advice: String {
        switch self {
        case .alreadyUsed:
            "If that was you, go back to the application: it is signed in. Otherwise start the sign-in again there."
        default: "Start the sign-in again from the application to get a new code."
        }
    }
}
