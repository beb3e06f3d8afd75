import BrowserHarness
import Foundation
import Testing

@testable import PassSandbox

/// The second screen as a person uses it: a TV opens a session over REST, then a headless
/// Chromium, sized as a phone, opens `/activate`, types the code, chooses the TV provider
/// when the TV did not, and logs in; the TV's poll then finds the profile.
///
/// Skipped (with a printed warning) when Chromium is not installed: the harness needs a
/// real browser, and `.ci/run` installs one where it can.
@Suite(
    "Second screen in a real browser",
    .serialized,
    .enabled(if: HeadlessBrowser.isAvailableForTests, "Chromium is not installed (Debian: apt-get install -y chromium)")
)
struct BrowserSecondScreenTests {
    @Test func aPersonActivatesATVWhoseProviderIsChosenAlready() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let tv = try await rig.registerTV()
        let code = try await tv.code(mvpd: "NotBoarded")
        #expect(try await tv.profiles(forCode: code).isEmpty)

        try await HeadlessBrowser.withBrowser(width: 390, height: 844) { browser in
            try await browser.setViewport(width: 390, height: 844, mobile: true)
            try await browser.navigate(to: rig.sandbox.activationURL)
            #expect(try await browser.text(of: "h1") == "Activate your TV")
            // Typed as a person might: lower case, with stray spaces.
            try await browser.fill("#code", with: "  \(code.lowercased()) ")
            try await browser.clickAndWaitForNewPage("#continue")

            #expect(try await browser.currentURL().hasPrefix(rig.baseURL.absoluteString + "/mvpd/NotBoarded/login"))
            #expect(try await browser.text(of: "h1") == "Sign in to Not Boarded Cable")
            let testUsers = try await browser.text(of: "#test-users")
            #expect(testUsers.contains("alice") && testUsers.contains("alice123"))
            try await browser.fill("#username", with: "alice")
            try await browser.fill("#password", with: "alice123")
            try await browser.clickAndWaitForNewPage("#sign-in")

            #expect(try await browser.text(of: "h1") == "You're signed in")
            #expect(try await browser.text().contains("Go back to your TV"))
        }
        let profile = try await tv.profiles(forCode: code).object("NotBoarded")
        #expect(profile.string("type") == "regular")
        #expect(profile.object("attributes").object("userID").string("value") == "u-alice")
    }

    @Test func aPersonChoosesTheProviderAndRetriesAWrongPassword() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let tv = try await rig.registerTV()
        let code = try await tv.code(mvpd: nil)

        try await HeadlessBrowser.withBrowser(width: 390, height: 844) { browser in
            try await browser.setViewport(width: 390, height: 844, mobile: true)
            try await browser.navigate(to: rig.sandbox.activationURL)
            try await browser.fill("#code", with: code)
            try await browser.pressEnterAndWaitForNewPage()

            #expect(try await browser.text(of: "h1") == "Choose your TV provider")
            let choices = try await browser.text(of: "#provider-choice")
            #expect(choices.contains("Not Boarded Cable") && choices.contains("Apple Boarded TV"))
            #expect(!choices.contains("Inactive Cable"))
            try await browser.clickAndWaitForNewPage(#"button[value="SVCProvider"]"#)

            #expect(try await browser.text(of: "h1") == "Sign in to Secure Browser Cable")
            try await browser.fill("#username", with: "bob")
            try await browser.fill("#password", with: "not-bobs")
            try await browser.clickAndWaitForNewPage("#sign-in")
            #expect(try await browser.text(of: "#login-error") == "The username or password is incorrect.")
            #expect(try await tv.profiles(forCode: code).isEmpty)

            try await browser.fill("#username", with: "bob")
            try await browser.fill("#password", with: "bob123")
            try await browser.clickAndWaitForNewPage("#sign-in")
            #expect(try await browser.text(of: "#signed-in-provider") == "with Secure Browser Cable")
        }
        let profiles = try await tv.profiles(forCode: code)
        #expect(Array(profiles.keys) == ["SVCProvider"])
        #expect(profiles.object("SVCProvider").object("attributes").object("userID").string("value") == "u-bob")
    }

    @Test func anUnknownCodeIsRefusedAndTheTypedCodeKept() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        try await HeadlessBrowser.withBrowser(width: 1280, height: 800) { browser in
            try await browser.navigate(to: rig.sandbox.activationURL)
            try await browser.fill("#code", with: "nope123")
            try await browser.clickAndWaitForNewPage("#continue")
            #expect(try await browser.text(of: "h1") == "Activate your TV")
            #expect(
                try await browser.text(of: "#activation-error").contains("No sign-in is waiting for the code NOPE123"))
            #expect(try await browser.evaluateString("document.querySelector('#code').value") == "nope123")
        }
    }
}
