import AccessEnabler
import Foundation

/// A delegate whose methods match neither accepted spelling — the mistakes a port makes:
/// a wrong integer type, `String?` where the header gives `String!`, a capitalisation
/// typo, an implicitly unwrapped array of `MVPD`, a non-optional parameter. Each compiles
/// without a warning and is never called; the SDK must say so.
final class NeitherSpellingDelegate: EntitlementDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0

    /// How many of the methods below were called (it must stay 0).
    var misspelledCalls: Int { lock.withLock { calls } }
    private func called() { lock.withLock { calls += 1 } }

    func setRequestorComplete(_ status: Int) { called() }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String?) { called() }
    func displayProviderDialog(_ mvpds: [MVPD]!) { called() }
    func navigateToURL(_ url: String) { called() }
    func setToken(_ token: String, forResource resource: String?) { called() }
    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String?) {
        called()
    }
    func selectedProvider(_ mvpd: MVPD) { called() }
    func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int, andArguments arguments: [String: Any]) {
        called()
    }
    func preauthorizedResources(_ resources: [String]?) { called() }
}
