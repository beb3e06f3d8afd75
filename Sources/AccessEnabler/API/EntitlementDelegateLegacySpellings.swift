import Foundation

/// The callbacks of ``EntitlementDelegate`` spelled the way Swift imports Adobe's
/// Objective-C `EntitlementDelegate.h`: `NSString *` becomes `String!`, `NSArray *` becomes
/// `[Any]!`, `NSDictionary *` becomes `[AnyHashable: Any]!`, `id` becomes `Any!`, `int`
/// becomes `Int32`, and `navigateToUrl:` becomes `navigate(toUrl:)`.
///
/// You do not conform to this protocol yourself: ``EntitlementDelegate`` inherits it, so a
/// delegate written against the iOS/tvOS SDK compiles and receives every callback as it is.
/// The SDK calls today's spelling, whose default implementation forwards here.
///
/// The values are the same as today's spelling carries: the `[Any]` of
/// `displayProviderDialog(_:)` holds ``MVPD`` values (`mvpds as! [MVPD]` works), those of
/// `preauthorizedResources(_:)` and `sendTrackingData(_:forEventType:)` hold `String`s, and
/// the legacy view controller of the TV provider dialog is a ``TVProviderDialog`` (Linux has
/// no UIKit; ``UIViewController`` names that type there).
///
/// The default implementations do nothing, except for the callbacks that end a call
/// (`setAuthenticationStatus`, `displayProviderDialog`, `navigate(toUrl:)`,
/// `navigate(toUrl:useSVC:)`, `setToken`, `tokenRequestFailed`, `selectedProvider`,
/// `setMetadataStatus`, `preauthorizedResources`). Reaching one of those defaults means
/// the delegate implements the callback in neither spelling, so the app would wait
/// forever; the first time per callback the SDK prints a diagnostic to standard error.
public protocol EntitlementDelegateLegacySpellings: AnyObject {
    /// `- (void) setAuthenticationStatus:(int)status errorCode:(NSString *)code;`
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!)
    /// `- (void) displayProviderDialog:(NSArray *)mvpds;` — the elements are ``MVPD`` values.
    func displayProviderDialog(_ mvpds: [Any]!)
    /// `- (void) navigateToUrl:(NSString *)url;`
    func navigate(toUrl url: String!)
    /// `- (void) navigateToUrl:(NSString *)url useSVC:(BOOL)useSVC;`
    func navigate(toUrl url: String!, useSVC: Bool)
    /// `- (void) presentTvProviderDialog:(UIViewController *)viewController;` — on Linux the
    /// value describes the system picker; ``UIViewController`` names ``TVProviderDialog``
    /// there, so the method compiles as written for iOS.
    func presentTvProviderDialog(_ viewController: TVProviderDialog!)
    /// `- (void) dismissTvProviderDialog:(UIViewController *)viewController;`
    func dismissTvProviderDialog(_ viewController: TVProviderDialog!)
    /// `- (void) setToken:(NSString *)token forResource:(NSString *)resource;`
    func setToken(_ token: String!, forResource resource: String!)
    /// `- (void) tokenRequestFailed:(NSString *)resource errorCode:(NSString *)code errorDescription:(NSString *)description;`
    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!)
    /// `- (void) selectedProvider:(MVPD *)mvpd;`
    func selectedProvider(_ mvpd: MVPD!)
    /// `- (void) setMetadataStatus:(id)metadata encrypted:(bool)encrypted forKey:(int)key andArguments:(NSDictionary *)arguments;`
    func setMetadataStatus(
        _ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!)
    /// `- (void) preauthorizedResources:(NSArray *)resources;` — the elements are `String`s.
    func preauthorizedResources(_ resources: [Any]!)
    /// `- (void) sendTrackingData:(NSArray *)data forEventType:(int)event;` — the elements are `String`s.
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32)
}

extension EntitlementDelegateLegacySpellings {
    /// Reached only when neither spelling is implemented: reports it.
    public func setAuthenticationStatus(_ status: Int32, errorCode code: String!) {
        CallbackDiagnostics.unimplemented(.setAuthenticationStatus, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func displayProviderDialog(_ mvpds: [Any]!) {
        CallbackDiagnostics.unimplemented(.displayProviderDialog, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func navigate(toUrl url: String!) {
        CallbackDiagnostics.unimplemented(.navigateToUrl, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func navigate(toUrl url: String!, useSVC: Bool) {
        CallbackDiagnostics.unimplemented(.navigateToUrlUsingSVC, by: self)
    }

    /// Does nothing unless implemented.
    public func presentTvProviderDialog(_ viewController: TVProviderDialog!) {}

    /// Does nothing unless implemented.
    public func dismissTvProviderDialog(_ viewController: TVProviderDialog!) {}

    /// Reached only when neither spelling is implemented: reports it.
    public func setToken(_ token: String!, forResource resource: String!) {
        CallbackDiagnostics.unimplemented(.setToken, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!)
    {
        CallbackDiagnostics.unimplemented(.tokenRequestFailed, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func selectedProvider(_ mvpd: MVPD!) {
        CallbackDiagnostics.unimplemented(.selectedProvider, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func setMetadataStatus(
        _ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!
    ) {
        CallbackDiagnostics.unimplemented(.setMetadataStatus, by: self)
    }

    /// Reached only when neither spelling is implemented: reports it.
    public func preauthorizedResources(_ resources: [Any]!) {
        CallbackDiagnostics.unimplemented(.preauthorizedResources, by: self)
    }

    /// Does nothing unless implemented; the SDK remembers the delegate's type, so it no
    /// longer builds this spelling's array for a delegate that listens in neither.
    public func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {
        SilentTrackingDelegates.insert(ObjectIdentifier(type(of: self)))
    }
}
