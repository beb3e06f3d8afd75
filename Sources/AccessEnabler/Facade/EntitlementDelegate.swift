import Foundation

/// Receives the results of every AccessEnabler call. Every method has an empty default
/// implementation, as the Objective-C protocol's methods were optional.
///
/// Callbacks arrive on the configuration's `callbackQueue`, one at a time, in the order the
/// flow produced them.
public protocol EntitlementDelegate: AnyObject {
    /// `setRequestor` finished: ``ACCESS_ENABLER_STATUS_SUCCESS`` or ``ACCESS_ENABLER_STATUS_ERROR``.
    func setRequestorComplete(_ status: Int32)
    /// The authentication state: status 1 with ``USER_AUTHENTICATED``, or 0 with an error code.
    func setAuthenticationStatus(_ status: Int32, errorCode code: String)
    /// Show an MVPD picker; answer with `setSelectedProvider`.
    func displayProviderDialog(_ mvpds: [MVPD])
    /// Load `url` in a web view; when it reaches the redirect URL, call `handleExternalURL`.
    func navigateToUrl(_ url: String)
    /// As ``navigateToUrl(_:)``, when the option `handleSVC` is true and the MVPD needs a
    /// Safari View Controller.
    func navigateToUrl(_ url: String, useSVC: Bool)
    /// The system TV provider picker is about to open.
    func presentTVProviderDialog(_ dialog: TVProviderDialog)
    /// The system TV provider picker closed.
    func dismissTVProviderDialog(_ dialog: TVProviderDialog)
    /// Authorization succeeded: the short-lived media token for `resource`.
    func setToken(_ token: String, forResource resource: String)
    /// Authorization failed for `resource`.
    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String)
    /// The currently selected MVPD, or `nil`.
    func selectedProvider(_ mvpd: MVPD?)
    /// The metadata asked for with `getMetadata`; `arguments` is the caller's dictionary.
    func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any])
    /// The resources among those asked that the user may play.
    func preauthorizedResources(_ resources: [String])
    /// A tracking event (``TRACKING_AUTHENTICATION``, ``TRACKING_AUTHORIZATION``,
    /// ``TRACKING_GET_SELECTED_PROVIDER``) with its documented data fields.
    func sendTrackingData(_ data: [String], forEventType event: Int32)
}

extension EntitlementDelegate {
    /// Does nothing unless implemented.
    public func setRequestorComplete(_ status: Int32) {}
    /// Does nothing unless implemented.
    public func setAuthenticationStatus(_ status: Int32, errorCode code: String) {}
    /// Does nothing unless implemented.
    public func displayProviderDialog(_ mvpds: [MVPD]) {}
    /// Does nothing unless implemented.
    public func navigateToUrl(_ url: String) {}
    /// Does nothing unless implemented.
    public func navigateToUrl(_ url: String, useSVC: Bool) {}
    /// Does nothing unless implemented.
    public func presentTVProviderDialog(_ dialog: TVProviderDialog) {}
    /// Does nothing unless implemented.
    public func dismissTVProviderDialog(_ dialog: TVProviderDialog) {}
    /// Does nothing unless implemented.
    public func setToken(_ token: String, forResource resource: String) {}
    /// Does nothing unless implemented.
    public func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {}
    /// Does nothing unless implemented.
    public func selectedProvider(_ mvpd: MVPD?) {}
    /// Does nothing unless implemented.
    public func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any]) {}
    /// Does nothing unless implemented.
    public func preauthorizedResources(_ resources: [String]) {}
    /// Does nothing unless implemented.
    public func sendTrackingData(_ data: [String], forEventType event: Int32) {}
}

/// Receives advanced statuses (the `status:` callback of the legacy `EntitlementStatus`
/// protocol): informational, warning and error codes such as N003, VSA403 or Z100.
public protocol EntitlementStatus: AnyObject {
    /// One advanced status.
    func status(_ status: AdvancedStatus)
}
