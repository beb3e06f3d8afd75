import Foundation

/// The identity tokens one app of a scenario presents right now: the JWS the sandbox signed
/// for its service token and for its platform identity, each `nil` when it presents none.
///
/// The app's configuration reads them at each request, so a `serviceToken` or
/// `platformIdentity` step changes what the app sends from its next request on, without a
/// relaunch — as an app whose identity service renewed its token would.
final class PresentedIdentityTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var currentServiceToken: String?
    private var currentPlatformIdentity: String?

    /// The JWS sent as `AD-Service-Token`, or `nil`.
    var serviceToken: String? {
        get { lock.withLock { currentServiceToken } }
        set { lock.withLock { currentServiceToken = newValue } }
    }

    /// The JWS sent as `Adobe-Subject-Token`, or `nil`.
    var platformIdentity: String? {
        get { lock.withLock { currentPlatformIdentity } }
        set { lock.withLock { currentPlatformIdentity = newValue } }
    }
}
