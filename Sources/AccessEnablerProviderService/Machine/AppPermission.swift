/// An app's permission to use the household's TV provider sign-in: what Video Subscriber
/// Account's `VSAccountAccessStatus` reports for an app.
package enum AppPermission: String, Sendable, CaseIterable {
    /// The person allowed the app.
    case granted
    /// The person refused.
    case denied
    /// The app may not ask (parental controls, a device policy).
    case restricted
    /// Nobody has answered yet.
    case notDetermined
}
