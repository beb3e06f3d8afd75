import AccessEnabler
import Foundation

/// A delegate that implements every callback in both spellings, today's and the legacy
/// one, recording which one received it. Each callback must arrive once,
/// in today's spelling: a legacy entry in its log means a callback was delivered twice.
///
/// `selectedProvider` has one spelling here: Swift treats `MVPD?` and `MVPD!` as one type,
/// so no class can declare both.
///
/// It is a class of its own, not a subclass of ``CurrentSpellingDelegate``: Swift fixes a
/// protocol's implementations where the conformance is declared, so methods a subclass adds
/// are never called through the protocol.
final class BothSpellingsDelegate: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    let log = CallbackLog()

    // MARK: Today's spellings

    func setRequestorComplete(_ status: Int32) {
        log.record("setRequestorComplete", "\(status)", .current)
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        log.record("setAuthenticationStatus", "\(status),\(code)", .current)
    }

    func displayProviderDialog(_ mvpds: [MVPD]) {
        log.record("displayProviderDialog", mvpds.map(\.id).joined(separator: ","), .current)
    }

    func navigateToUrl(_ url: String) {
        log.record("navigateToUrl", url, .current)
    }

    func navigateToUrl(_ url: String, useSVC: Bool) {
        log.record("navigateToUrl:useSVC:", "\(url),\(useSVC)", .current)
    }

    func presentTVProviderDialog(_ dialog: TVProviderDialog) {
        log.record("presentTVProviderDialog", dialog.providers.joined(separator: ","), .current)
    }

    func dismissTVProviderDialog(_ dialog: TVProviderDialog) {
        log.record("dismissTVProviderDialog", dialog.providers.joined(separator: ","), .current)
    }

    func setToken(_ token: String, forResource resource: String) {
        log.record("setToken", "\(token.isEmpty ? "empty" : "token"),\(resource)", .current)
    }

    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
        log.record("tokenRequestFailed", "\(resource),\(code)", .current)
    }

    func selectedProvider(_ mvpd: MVPD?) {
        log.record("selectedProvider", mvpd?.id ?? "nil", .current)
    }

    func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any])
    {
        let asked = arguments[METADATA_USER_META_KEY] as? String ?? ""
        log.record("setMetadataStatus", "\(key),\(encrypted),\(asked)=\(metadata.map { "\($0)" } ?? "nil")", .current)
    }

    func preauthorizedResources(_ resources: [String]) {
        log.record("preauthorizedResources", resources.joined(separator: ","), .current)
    }

    func sendTrackingData(_ data: [String], forEventType event: Int32) {
        log.record("sendTrackingData", "\(event),\(data.first ?? "")", .current)
    }

    func status(_ status: AdvancedStatus) {
        log.record("status", "\(status.errorId),\(status.level.rawValue)", .current)
    }

    // MARK: Legacy spellings

    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) {
        log.record("setAuthenticationStatus", "\(status),\(code!)", .legacy)
    }

    func displayProviderDialog(_ mvpds: [Any]!) {
        log.record("displayProviderDialog", (mvpds as! [MVPD]).map { $0.ID }.joined(separator: ","), .legacy)
    }

    func navigate(toUrl url: String!) {
        log.record("navigateToUrl", url, .legacy)
    }

    func navigate(toUrl url: String!, useSVC: Bool) {
        log.record("navigateToUrl:useSVC:", "\(url!),\(useSVC)", .legacy)
    }

    func presentTvProviderDialog(_ viewController: UIViewController!) {
        log.record("presentTVProviderDialog", viewController.providers.joined(separator: ","), .legacy)
    }

    func dismissTvProviderDialog(_ viewController: UIViewController!) {
        log.record("dismissTVProviderDialog", viewController.providers.joined(separator: ","), .legacy)
    }

    func setToken(_ token: String!, forResource resource: String!) {
        log.record("setToken", "\(token.isEmpty ? "empty" : "token"),\(resource!)", .legacy)
    }

    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {
        log.record("tokenRequestFailed", "\(resource!),\(code!)", .legacy)
    }

    func setMetadataStatus(
        _ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!
    ) {
        log.record("setMetadataStatus", "\(key)", .legacy)
    }

    func preauthorizedResources(_ resources: [Any]!) {
        log.record("preauthorizedResources", (resources as! [String]).joined(separator: ","), .legacy)
    }

    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {
        log.record("sendTrackingData", "\(event),\((data as! [String]).first ?? "")", .legacy)
    }

    func status(_ statusDictionary: [AnyHashable: Any]!) {
        log.record("status", "\(statusDictionary["errorId"] as! String)", .legacy)
    }
}
