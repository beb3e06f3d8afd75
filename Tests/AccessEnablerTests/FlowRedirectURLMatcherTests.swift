import Foundation
import Testing
@testable import AccessEnabler

/// Only the configured redirect URL (or below it) completes a flow.
@Suite struct FlowRedirectURLMatcherTests {
    static let defaultMatcher = RedirectURLMatcher(redirectURL: "adobepass://ios.app")

    @Test(arguments: [
        "adobepass://ios.app", "adobepass://ios.app/", "adobepass://ios.app?code=1", "ADOBEPASS://IOS.APP",
        "adobepass://ios.app/anything/below", "  adobepass://ios.app  ", "adobepass://ios.app#fragment",
    ])
    func acceptsTheRedirectURL(url: String) {
        #expect(Self.defaultMatcher.matches(url))
    }

    @Test(arguments: [
        "", "not a url", "https://ios.app", "adobepass://ios.app.evil.com", "adobepass://other.app", "adobepass:ios.app",
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

    @Test func anUnparsableRedirectURLMatchesNothing() {
        #expect(!RedirectURLMatcher(redirectURL: "no scheme").matches("no scheme"))
    }
}
