/// Why the headless browser could not do what a test asked, in words that say what to fix.
public enum BrowserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No Chromium on `PATH`.
    case notInstalled
    /// The browser could not be started, or quit at once.
    case launchFailed(String)
    /// A DevTools command got no answer in time.
    case timedOut(String)
    /// The browser answered a DevTools command with an error.
    case protocolError(method: String, message: String)
    /// The browser's pipe closed (it quit or crashed).
    case disconnected(String)
    /// The page did not get where the test waited for it to be.
    case pageDidNotArrive(String)
    /// No element matches the selector.
    case noSuchElement(String)
    /// A script on the page threw, or returned something unexpected.
    case scriptFailed(String)

    /// A sentence saying what went wrong and, where it can, what to do.
    public var description: String {
        switch self {
        case .notInstalled:
            "Chromium is not installed (no chromium, chromium-browser or google-chrome on PATH); on Debian: apt-get install -y chromium."
        case .launchFailed(let reason): "Chromium did not start: \(reason)"
        case .timedOut(let what): "The browser did not answer in time: \(what)"
        case .protocolError(let method, let message): "The browser refused \(method): \(message)"
        case .disconnected(let reason): "The browser went away: \(reason)"
        case .pageDidNotArrive(let what): "The page did not arrive: \(what)"
        case .noSuchElement(let selector): "No element matches \(selector) on the page."
        case .scriptFailed(let reason): "A script on the page failed: \(reason)"
        }
    }
}
