import AccessEnabler
import Foundation

/// A delegate written only with the spellings Swift gives Adobe's Objective-C headers
/// (`EntitlementDelegate.h`, `EntitlementStatus.h`), as a legacy iOS app has them: every
/// `NSString *` a `String!`, every `NSArray *` an `[Any]!`, every `NSDictionary *` an
/// `[AnyHashable: Any]!`, `navigateToUrl:` imported as `navigate(toUrl:)`, the TV provider
/// dialog's `UIViewController *`. Nothing here uses today's spellings.
final class LegacySpellingDelegate: NSObject, EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    let log = CallbackLog()

    func setRequestorComplete(_ status: Int32) {
        log.record("setRequestorComplete", "\(status)", .legacy)
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) {
        log.record("setAuthenticationStatus", "\(status),\(code!)", .legacy)
    }

    func displayProviderDialog(_ mvpds: [Any]!) {
        let providers = mvpds as! [MVPD]
        log.record("displayProviderDialog", providers.map { $0.ID }.joined(separator: ","), .legacy)
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

    func selectedProvider(_ mvpd: MVPD!) {
        log.record("selectedProvider", mvpd?.ID ?? "nil", .legacy)
    }

    func setMetadataStatus(
        _ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!
    ) {
        let asked = arguments[METADATA_USER_META_KEY] as? String ?? ""
        log.record("setMetadataStatus", "\(key),\(encrypted),\(asked)=\(metadata.map { "\($0)" } ?? "nil")", .legacy)
    }

    func preauthorizedResources(_ resources: [Any]!) {
        log.record("preauthorizedResources", (resources as! [String]).joined(separator: ","), .legacy)
    }

    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {
        log.record("sendTrackingData", "\(event),\((data as! [String]).first ?? "")", .legacy)
    }

    func status(_ statusDictionary: [AnyHashable: Any]!) {
        log.keepStatusDictionary(statusDictionary)
        log.record(
            "status", "\(statusDictionary["errorId"] as! String),\(statusDictionary["level"] as! String)", .legacy)
    }
}
