// swift-format-ignore-file
// The port to Linux of Docs/examples/LegacyIntegration/EntitlementController.swift, the
// small iOS integration written from Adobe's legacy documentation. Below the imports it is
// that file with three lines changed: `import UIKit` became `import Foundation`, and the
// initialiser takes the configuration that says where Adobe Pass is (here, a PassSandbox)
// and hands it to the AccessEnabler. The delegate methods keep the spellings Swift gives
// Adobe's Objective-C headers. PortedSampleTests drive it end to end.

import AccessEnabler
import Foundation

/// What the entitlement code asks of the app's screens.
protocol Screen: AnyObject {
    func showSignedIn(_ signedIn: Bool)
    func showProviderPicker(_ mvpds: [MVPD])
    func openBrowser(_ url: URL)
    func openSafariViewController(_ url: URL)
    func closeBrowser()
    func present(_ picker: UIViewController)
    func dismiss(_ picker: UIViewController)
    func play(_ resource: String, mediaToken: String)
    func showLocked(_ resource: String, reason: String)
    func unlock(_ resources: [String])
    func showAccount(provider: String?, logo: URL?, userID: String?)
    func showMessage(_ text: String)
    func track(_ event: Int32, _ data: [String])
}

/// The app's AccessEnabler and its delegates.
final class EntitlementController: NSObject, EntitlementDelegate, EntitlementStatus {
    let accessEnabler: AccessEnabler
    private weak var screen: Screen?
    private var provider: MVPD?

    init(softwareStatement: String, configuration: AccessEnablerConfiguration, screen: Screen) {
        self.screen = screen
        accessEnabler = AccessEnabler(softwareStatement: softwareStatement, configuration: configuration)  // SDK
        super.init()
        accessEnabler.delegate = self  // SDK
        accessEnabler.statusDelegate = self  // SDK
        accessEnabler.setOptions(["applicationProfile": "sample", "handleSVC": true])  // SDK
        accessEnabler.setRequestor("REF30")  // SDK
        accessEnabler.checkAuthentication()  // SDK
    }

    // MARK: What the user does

    func signIn() { accessEnabler.getAuthentication() }  // SDK
    func choose(_ mvpd: MVPD?) { accessEnabler.setSelectedProvider(mvpd?.ID) }  // SDK
    func watch(_ resource: String) { accessEnabler.checkAuthorization(resource) }  // SDK
    func browse(_ resources: [String]) { accessEnabler.checkPreauthorizedResources(resources) }  // SDK
    func signOut() { accessEnabler.logout() }  // SDK

    func openAccount() {
        accessEnabler.getSelectedProvider()  // SDK
        accessEnabler.getMetadata([METADATA_OPCODE_KEY: Int(METADATA_USER_META), METADATA_USER_META_KEY: "userID"])  // SDK
    }

    /// The web view (or Safari View Controller) is about to load `url`.
    func browserWillLoad(_ url: URL) -> Bool {
        guard url.absoluteString.hasPrefix(ADOBEPASS_REDIRECT_URL) else { return true }  // SDK
        screen?.closeBrowser()
        accessEnabler.handleExternalURL(url.absoluteString)  // SDK
        return false
    }

    // MARK: EntitlementDelegate

    func setRequestorComplete(_ status: Int32) {  // SDK
        if status != ACCESS_ENABLER_STATUS_SUCCESS { screen?.showMessage("Cannot reach the TV provider service.") }  // SDK
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) {  // SDK
        screen?.showSignedIn(status == ACCESS_ENABLER_STATUS_SUCCESS)  // SDK
        if code == GENERIC_AUTHENTICATION_ERROR { screen?.showMessage("Sign-in failed.") }  // SDK
    }

    func displayProviderDialog(_ mvpds: [Any]!) {  // SDK
        screen?.showProviderPicker(mvpds as! [MVPD])  // SDK
    }

    func navigate(toUrl url: String!) {  // SDK
        screen?.openBrowser(URL(string: url)!)
    }

    func navigate(toUrl url: String!, useSVC: Bool) {  // SDK
        screen?.openSafariViewController(URL(string: url)!)
    }

    func presentTvProviderDialog(_ viewController: UIViewController!) {  // SDK
        screen?.present(viewController)
    }

    func dismissTvProviderDialog(_ viewController: UIViewController!) {  // SDK
        screen?.dismiss(viewController)
    }

    func setToken(_ token: String!, forResource resource: String!) {  // SDK
        screen?.play(resource, mediaToken: token)
    }

    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {  // SDK
        screen?.showLocked(resource, reason: description.isEmpty ? code : description)
    }

    func selectedProvider(_ mvpd: MVPD!) {  // SDK
        provider = mvpd
        screen?.showAccount(provider: mvpd?.displayName, logo: mvpd?.logoURL.flatMap(URL.init(string:)), userID: nil)  // SDK
    }

    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {  // SDK
        guard key == METADATA_USER_META, arguments[METADATA_USER_META_KEY] as? String == "userID" else { return }  // SDK
        screen?.showAccount(provider: provider?.displayName, logo: nil, userID: metadata as? String)
    }

    func preauthorizedResources(_ resources: [Any]!) {  // SDK
        screen?.unlock(resources as! [String])
    }

    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {  // SDK
        screen?.track(event, data as! [String])
    }

    // MARK: EntitlementStatus

    func status(_ statusDictionary: [AnyHashable: Any]!) {  // SDK
        if statusDictionary["errorId"] as? String == "VSA203" {  // SDK
            screen?.showMessage("Also sign out of your TV provider in Settings.")
        }
    }
}
