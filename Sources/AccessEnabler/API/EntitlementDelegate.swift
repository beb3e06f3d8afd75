import Foundation

/// Receives the results of every AccessEnabler call.
///
/// Implement each callback in **either** of two spellings:
/// - today's spelling, declared here (`navigateToUrl(_:)`, `setToken(_:forResource:)` with
///   `String`, …), or
/// - the spelling Swift gives Adobe's Objective-C header (`navigate(toUrl:)`,
///   `setToken(_:forResource:)` with `String!`, …), declared in
///   ``EntitlementDelegateLegacySpellings`` — so a delegate ported from iOS compiles and is
///   called unchanged.
///
/// The SDK calls today's spelling. Its default implementation forwards to the legacy
/// spelling; the legacy spelling's default does nothing, except for the callbacks that end a
/// call (see ``EntitlementDelegateLegacySpellings``), where it prints one diagnostic to
/// standard error the first time, naming the callback and both spellings: a delegate whose
/// method matches neither spelling (a typo, a wrong type) would otherwise wait forever. A
/// delegate that implements both spellings of a callback receives it once, in today's
/// spelling. Every method is optional, as the Objective-C protocol's were.
///
/// `selectedProvider(_ mvpd: MVPD?)` is a requirement too; it is declared in
/// ``SelectedProviderDelegate`` because Swift treats `MVPD?` and the legacy `MVPD!` as one
/// type, so the two spellings must live in separate protocols to stay two methods.
///
/// Callbacks arrive on the configuration's `callbackQueue`, one at a time, in the order the
/// flow produced them.
public protocol EntitlementDelegate: EntitlementDelegateLegacySpellings, SelectedProviderDelegate {
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
    // selectedProvider(_ mvpd: MVPD?) — see SelectedProviderDelegate.
    /// The metadata asked for with `getMetadata`; `arguments` is the caller's dictionary.
    func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any])
    /// The resources among those asked that the user may play.
    func preauthorizedResources(_ resources: [String])
    /// A tracking event (``TRACKING_AUTHENTICATION``, ``TRACKING_AUTHORIZATION``,
    /// ``TRACKING_GET_SELECTED_PROVIDER``) with its documented data fields.
    func sendTrackingData(_ data: [String], forEventType event: Int32)
}

// Today's spellings forward to the legacy spellings. Each forward goes through a value typed
// `any EntitlementDelegateLegacySpellings`, where only the legacy spellings exist, so it can
// never come back here: there is no forwarding cycle.
extension EntitlementDelegate {
    private var legacy: any EntitlementDelegateLegacySpellings { self }

    /// Reports a delegate that implements no `setRequestorComplete` (it has one spelling only).
    public func setRequestorComplete(_ status: Int32) {
        CallbackDiagnostics.unimplemented(.setRequestorComplete, by: self)
    }

    /// Forwards to `setAuthenticationStatus(_:errorCode:)` with `String!`.
    public func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        legacy.setAuthenticationStatus(status, errorCode: Optional(code))
    }

    /// Forwards to `displayProviderDialog(_:)` with `[Any]!`.
    public func displayProviderDialog(_ mvpds: [MVPD]) {
        legacy.displayProviderDialog(Optional(mvpds.map { $0 as Any }))
    }

    /// Forwards to `navigate(toUrl:)`.
    public func navigateToUrl(_ url: String) {
        legacy.navigate(toUrl: Optional(url))
    }

    /// Forwards to `navigate(toUrl:useSVC:)`.
    public func navigateToUrl(_ url: String, useSVC: Bool) {
        legacy.navigate(toUrl: Optional(url), useSVC: useSVC)
    }

    /// Forwards to `presentTvProviderDialog(_:)`.
    public func presentTVProviderDialog(_ dialog: TVProviderDialog) {
        legacy.presentTvProviderDialog(Optional(dialog))
    }

    /// Forwards to `dismissTvProviderDialog(_:)`.
    public func dismissTVProviderDialog(_ dialog: TVProviderDialog) {
        legacy.dismissTvProviderDialog(Optional(dialog))
    }

    /// Forwards to `setToken(_:forResource:)` with `String!`.
    public func setToken(_ token: String, forResource resource: String) {
        legacy.setToken(Optional(token), forResource: Optional(resource))
    }

    /// Forwards to `tokenRequestFailed(_:errorCode:errorDescription:)` with `String!`.
    public func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
        legacy.tokenRequestFailed(
            Optional(resource), errorCode: Optional(code), errorDescription: Optional(description))
    }

    /// Forwards to `setMetadataStatus(_:encrypted:forKey:andArguments:)` with `Any!` and
    /// `[AnyHashable: Any]!`.
    public func setMetadataStatus(
        _ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any]
    ) {
        legacy.setMetadataStatus(
            metadata, encrypted: encrypted, forKey: key, andArguments: Optional(LegacyValues.dictionary(arguments)))
    }

    /// Forwards to `preauthorizedResources(_:)` with `[Any]!`.
    public func preauthorizedResources(_ resources: [String]) {
        legacy.preauthorizedResources(Optional(resources.map { $0 as Any }))
    }

    /// Forwards to `sendTrackingData(_:forEventType:)` with `[Any]!`, unless the delegate's
    /// type was found to implement neither spelling (then the event is dropped at once).
    public func sendTrackingData(_ data: [String], forEventType event: Int32) {
        guard !SilentTrackingDelegates.contains(ObjectIdentifier(type(of: self))) else { return }
        legacy.sendTrackingData(Optional(data.map { $0 as Any }), forEventType: event)
    }
}

extension SelectedProviderDelegate {
    /// Forwards to `selectedProvider(_:)` with `MVPD!`; a delegate that is not an
    /// ``EntitlementDelegate`` has nowhere to forward to.
    public func selectedProvider(_ mvpd: MVPD?) {
        guard let legacy = self as? any EntitlementDelegateLegacySpellings else { return }
        legacy.selectedProvider(mvpd)
    }
}
