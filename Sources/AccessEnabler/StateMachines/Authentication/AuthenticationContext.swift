import Foundation

/// What the authentication machine decides by besides its own state and the facts of the
/// moment (``EngineStateMachine/Step/facts``: the clocks, the profiles, the configuration and
/// the providers the device knows): the engine's state machine hands it in with every event it
/// forwards, and never reads the authentication machine back.
struct AuthenticationContext: Sendable {
    /// Where each request goes (and the current requestor: ``RequestTargets/requestor``).
    var targets: RequestTargets
    /// The engine's settings: the login screen, the poll interval, how long a logout page may
    /// stay open, the platform, the tracking fields, whether a partner framework is configured.
    var settings: EngineSettings
    /// Whether the app handles Safari View Controllers (``SDKOptions/handleSVC``).
    var handlesSVC: Bool

    /// The current requestor; `nil` before setRequestor named one.
    var requestor: String? { targets.requestor }

    /// Whether the partner framework signs the user in (else the app's provider dialog):
    /// one is configured and the requestor's configuration has an MVPD with platform services.
    func partnerSignInApplies(_ facts: EngineFacts) -> Bool { settings.partnerSignInApplies(facts) }

    /// `navigateToUrl`, or its SVC form when the app handles Safari View Controllers and the
    /// MVPD needs one.
    func navigation(to url: String, mvpd: String, _ facts: EngineFacts) -> DelegateCall {
        if handlesSVC && facts.knownProvider(mvpd)?.requiresSVC == true {
            return .navigateToUrlUsingSVC(url, useSVC: true)
        }
        return .navigateToUrl(url)
    }
}
