import AccessEnabler
import Foundation

/// A delegate written only with today's spellings; it records what it receives exactly as
/// ``LegacySpellingDelegate`` does, so the two logs compare entry for entry.
final class CurrentSpellingDelegate: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    let log = CallbackLog()

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
}
