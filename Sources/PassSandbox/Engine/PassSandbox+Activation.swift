import Foundation

extension PassSandbox {
    /// The second screen's address: the page where a person types the code a TV shows
    /// (`{baseURLForLinks}/activate`), absolute so it can be printed, linked or opened in a
    /// browser.
    public var activationURL: URL {
        var base = baseURLForLinks.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + SandboxRoute.activatePath)!
    }
}
