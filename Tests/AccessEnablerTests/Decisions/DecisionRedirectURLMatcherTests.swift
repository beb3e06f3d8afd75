import Foundation
import Testing

@testable import AccessEnabler

/// Only the configured redirect URL (or below it) completes a flow.
@Suite struct DecisionRedirectURLMatcherTests {
    static let defaultMatcher = RedirectURLMatcher(redirectURL: "adobepass://ios.app")

    @Test(arguments: [
        "adobepass://ios.app", "adobepass://ios.app/", "adobepass://ios.app?code=1", "ADOBEPASS://IOS.APP",
        "adobepass://ios.app/anything/below", "  adobepass://ios.app  ", "adobepass://ios.app#fragment",
    ])
    func acceptsTheRedirectURL(url: String) {
        #expect(Self.defaultMatcher.matches(url))
    }

    @Test(arguments: [
        "", "not a url", "https://ios.app", "adobepass://ios.app.evil.com", "adobepass://other.app",
        "adobepass:ios.app",
        "https://evil.example/?r=adobepass://ios.app", "adobepass://",
    ])
    func refusesEverythingElse(url: String) {
        #expect(!Self.defaultMatcher.matches(url))
    }

    @Test func aRedirectURLWithAPathAcceptsOnlyThatPathAndBelow() {
        let matcher = RedirectURLMatcher(redirectURL: "adbe.u-XFXJeTSDuJiIQs0HVRAg://adobe.com/done/")
        #expect(matcher.matches("adbe.u-XFXJeTSDuJiIQs0HVRAg://adobe.com/done"))
        #expect(matcher.matches("adbe.u-xfxjetsduJiIQs0HVRAg://ADOBE.com/done/step?x=1"))
        #expect(!matcher.matches("adbe.u-XFXJeTSDuJiIQs0HVRAg://adobe.com/doneX"))
        #expect(!matcher.matches("adbe.u-XFXJeTSDuJiIQs0HVRAg://adobe.com/"))
    }

    @Test(arguments: [
        "adobepass://evil@ios.app", "adobepass://user:secret@ios.app/", "adobepass://ios.app:8080",
        "adobepass://ios.app:0/path",
    ])
    func refusesUserInformationAndPortsTheRedirectURLDoesNotHave(url: String) {
        #expect(!Self.defaultMatcher.matches(url))
    }

    @Test func aLoopbackRedirectURLMustKeepItsPort() {
        let matcher = RedirectURLMatcher(redirectURL: "http://127.0.0.1:8123/callback")
        #expect(matcher.matches("http://127.0.0.1:8123/callback?code=1"))
        #expect(!matcher.matches("http://127.0.0.1:8124/callback"))
        #expect(!matcher.matches("http://127.0.0.1/callback"))
        #expect(!matcher.matches("http://attacker@127.0.0.1:8123/callback"))
        let https = RedirectURLMatcher(redirectURL: "https://app.example/done")
        #expect(https.matches("https://app.example:443/done"))
        #expect(!https.matches("https://app.example:8443/done"))
    }

    @Test func anUnparsableRedirectURLMatchesNothing() {
        #expect(!RedirectURLMatcher(redirectURL: "no scheme").matches("no scheme"))
    }
}
