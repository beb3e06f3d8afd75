import BrowserHarness
import Foundation
import Testing

@testable import PassSandbox

/// The device-level TV provider sign-in as a person does it: a device (here this test, as
/// `accessenabler provider-service` would) asks for a code, and a headless Chromium sized
/// as a phone opens the page, types the code, chooses the provider, mistypes the password
/// once, and signs in; the device's poll then finds the household's credential.
///
/// With `ACCESSENABLER_SCREENSHOTS=DIR` in the environment each page is saved there as a PNG,
/// to be looked at.
@Suite(
    "The TV provider sign-in of a device in a real browser",
    .serialized,
    .enabled(if: HeadlessBrowser.isAvailableForTests, "Chromium is not installed (Debian: apt-get install -y chromium)")
)
struct BrowserHouseholdSignInTests {
    private static let screenshots = ProcessInfo.processInfo.environment["ACCESSENABLER_SCREENSHOTS"]

    private func keep(_ browser: HeadlessBrowser, _ name: String) async throws {
        guard let directory = Self.screenshots else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await browser.screenshot(to: directory + "/\(name).png")
    }

    /// A code for `supported` (comma-separated): the answer's fields.
    private func code(_ rig: LoopbackRig, supported: String) async throws -> [String: Any] {
        let answer = try await rig.send(
            "POST", "/tv-provider/device/code", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "supported=" + supported)
        #expect(answer.status == 200)
        return try #require((try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any])
    }

    @Test func aPersonSignsTheTVInOnAPhone() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let issued = try await code(rig, supported: "AppleBoarded,PickerOnly,SSODisabled,Degraded")
        let typed = try #require(issued["user_code"] as? String)

        try await HeadlessBrowser.withBrowser(width: 390, height: 844) { browser in
            try await browser.setViewport(width: 390, height: 844, mobile: true, deviceScaleFactor: 2)
            let page = try #require(issued["verification_uri"] as? String)
            try await browser.navigate(to: try #require(URL(string: page)))
            #expect(try await browser.text(of: "h1") == "Sign your TV in to your TV provider")
            try await keep(browser, "tv-provider-code")
            // Typed as a person might: lower case, without the dash.
            try await browser.fill("#code", with: typed.lowercased().replacingOccurrences(of: "-", with: ""))
            try await browser.clickAndWaitForNewPage("#continue")

            #expect(try await browser.text(of: "h1") == "Choose your TV provider")
            let choices = try await browser.text(of: "#tv-provider-choice")
            for name in [
                "Apple Boarded TV", "Picker Only TV", "SSO Disabled TV", "Degraded TV", "Other TV Provider", "Cancel",
            ] {
                #expect(choices.contains(name), "\(name) is offered")
            }
            try await keep(browser, "tv-provider-choice")
            try await browser.clickAndWaitForNewPage(#"button[value="AppleBoarded"]"#)

            #expect(try await browser.text(of: "h1") == "Sign in to Apple Boarded TV")
            try await browser.fill("#username", with: "alice")
            try await browser.fill("#password", with: "not-alices")
            try await browser.clickAndWaitForNewPage("#sign-in")
            #expect(try await browser.text(of: "#login-error") == "Wrong username or password. Try again.")
            try await keep(browser, "tv-provider-login")
            try await browser.fill("#username", with: "alice")
            try await browser.fill("#password", with: "alice123")
            try await browser.clickAndWaitForNewPage("#sign-in")

            #expect(try await browser.text(of: "h1") == "Your TV is signed in")
            #expect(try await browser.text(of: "#signed-in-provider") == "to Apple Boarded TV")
            try await keep(browser, "tv-provider-signed-in")
        }
        let token = try await rig.send(
            "POST", "/tv-provider/device/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "device_code=" + (issued["device_code"] as? String ?? ""))
        #expect(token.status == 200)
        let credential = try #require((try? JSONSerialization.jsonObject(with: token.body)) as? [String: Any])
        #expect(credential["provider"] as? String == "AppleBoarded")
        #expect((credential["access_token"] as? String)?.isEmpty == false)
    }

    @Test func aPersonCancels() async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        let issued = try await code(rig, supported: "AppleBoarded")
        try await HeadlessBrowser.withBrowser(width: 390, height: 844) { browser in
            try await browser.setViewport(width: 390, height: 844, mobile: true)
            let page = try #require(issued["verification_uri_complete"] as? String)
            try await browser.navigate(to: try #require(URL(string: page)))
            #expect(
                try await browser.evaluateString("document.querySelector('#code').value") == issued["user_code"]
                    as? String)
            try await browser.clickAndWaitForNewPage("#continue")
            try await browser.clickAndWaitForNewPage("#cancel")
            #expect(try await browser.text(of: "h1") == "Sign-in cancelled")
        }
        let token = try await rig.send(
            "POST", "/tv-provider/device/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "device_code=" + (issued["device_code"] as? String ?? ""))
        #expect(String(decoding: token.body, as: UTF8.self).contains("access_denied"))
    }
}
