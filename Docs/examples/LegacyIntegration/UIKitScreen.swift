// The iOS screens of the legacy integration in EntitlementController.swift: the part of an
// app that is UIKit, not AccessEnabler. A Linux port replaces it with its own user
// interface; the tests replace it with a simulated user (PortedSample/SimulatedScreen.swift).

import AccessEnabler
import SafariServices
import UIKit
import WebKit

final class UIKitScreen: NSObject, Screen, WKNavigationDelegate {
    weak var root: UIViewController!
    var controller: EntitlementController!
    private var browser: UIViewController?

    func showSignedIn(_ signedIn: Bool) { NotificationCenter.default.post(name: .signedInChanged, object: signedIn) }

    func showProviderPicker(_ mvpds: [MVPD]) {
        let sheet = UIAlertController(title: "Choose your TV provider", message: nil, preferredStyle: .actionSheet)
        for mvpd in mvpds { sheet.addAction(UIAlertAction(title: mvpd.displayName, style: .default) { _ in self.controller.choose(mvpd) }) }
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in self.controller.choose(nil) })
        root.present(sheet, animated: true)
    }

    func openBrowser(_ url: URL) {
        let web = WKWebView()
        web.navigationDelegate = self
        let page = UIViewController()
        page.view = web
        web.load(URLRequest(url: url))
        browser = page
        root.present(page, animated: true)
    }

    func webView(_ webView: WKWebView, decidePolicyFor action: WKNavigationAction, decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
        decisionHandler(controller.browserWillLoad(action.request.url!) ? .allow : .cancel)
    }

    func openSafariViewController(_ url: URL) {
        let safari = SFSafariViewController(url: url)
        browser = safari
        root.present(safari, animated: true)
        // AppDelegate.application(_:open:options:) hands the custom-scheme URL to controller.browserWillLoad.
    }

    func closeBrowser() { browser?.dismiss(animated: true) }
    func present(_ picker: UIViewController) { root.present(picker, animated: true) }
    func dismiss(_ picker: UIViewController) { picker.dismiss(animated: true) }
    func play(_ resource: String, mediaToken: String) { /* verify the token, start the player */ }
    func showLocked(_ resource: String, reason: String) { showMessage(reason) }
    func unlock(_ resources: [String]) { NotificationCenter.default.post(name: .unlocked, object: resources) }
    func showAccount(provider: String?, logo: URL?, userID: String?) { /* fill in the account screen */ }
    func track(_ event: Int32, _ data: [String]) { /* hand to the analytics library */ }

    func showMessage(_ text: String) {
        let alert = UIAlertController(title: nil, message: text, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        root.present(alert, animated: true)
    }
}

extension Notification.Name {
    static let signedInChanged = Notification.Name("signedInChanged")
    static let unlocked = Notification.Name("unlocked")
}
