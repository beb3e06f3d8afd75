import AccessEnabler
import Foundation

/// The ported sample's user interface, played by the test: it records what the app shows
/// (one line per screen change) and remembers what the user can act on next.
final class SimulatedScreen: Screen, @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [String] = []
    private var providers: [MVPD] = []
    private var page: URL?

    /// Takes what was shown since the last call.
    func take() -> [String] {
        lock.withLock {
            defer { shown.removeAll() }
            return shown
        }
    }

    /// The providers of the last picker.
    var offeredProviders: [MVPD] { lock.withLock { providers } }
    /// The page the browser (web view or Safari View Controller) has open.
    var openPage: URL? { lock.withLock { page } }

    private func show(_ line: String) { lock.withLock { shown.append(line) } }

    func showSignedIn(_ signedIn: Bool) { show("signedIn(\(signedIn))") }

    func showProviderPicker(_ mvpds: [MVPD]) {
        lock.withLock { providers = mvpds }
        show("providerPicker(\(mvpds.map(\.displayName).joined(separator: ",")))")
    }

    func openBrowser(_ url: URL) {
        lock.withLock { page = url }
        show("browser")
    }

    func openSafariViewController(_ url: URL) {
        lock.withLock { page = url }
        show("safariViewController")
    }

    func closeBrowser() {
        lock.withLock { page = nil }
        show("closeBrowser")
    }

    func present(_ picker: UIViewController) { show("presentSystemPicker(\(picker.providers.count) providers)") }
    func dismiss(_ picker: UIViewController) { show("dismissSystemPicker") }
    func play(_ resource: String, mediaToken: String) {
        show("play(\(resource),\(mediaToken.isEmpty ? "no token" : "token"))")
    }
    func showLocked(_ resource: String, reason: String) { show("locked(\(resource))") }
    func unlock(_ resources: [String]) { show("unlock(\(resources.joined(separator: ",")))") }
    func showAccount(provider: String?, logo: URL?, userID: String?) {
        show("account(\(provider ?? "-"),\(userID ?? "-"))")
    }
    func showMessage(_ text: String) { show("message(\(text))") }
    func track(_ event: Int32, _ data: [String]) { show("track(\(event))") }
}
