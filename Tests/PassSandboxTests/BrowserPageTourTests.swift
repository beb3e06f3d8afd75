import BrowserHarness
import Foundation
import Testing

@testable import PassSandbox

/// Every page a person sees in the sandbox, opened in headless Chromium at a phone's size
/// (390 × 844, honouring the viewport tag) and at a desktop's (1280 × 800): each must be
/// the page expected, lay out without sideways scrolling, keep text fields at 16 px or
/// more (so a phone does not zoom into them), and make buttons big enough to tap.
///
/// With `PASS_SANDBOX_SCREENSHOTS=<directory>` in the environment it also saves a PNG of
/// each page there (`phone-activation.png`, `desktop-login.png`, …) for a person to look at.
@Suite(
    "Every sandbox page in a real browser",
    .serialized,
    .enabled(if: HeadlessBrowser.isAvailableForTests, "Chromium is not installed (Debian: apt-get install -y chromium)")
)
struct BrowserPageTourTests {
    private static let screenshotDirectory = ProcessInfo.processInfo.environment["PASS_SANDBOX_SCREENSHOTS"]

    @Test(arguments: [Screen.phone, Screen.desktop])
    func everyPageFitsTheScreen(_ screen: Screen) async throws {
        let rig = try LoopbackRig()
        defer { rig.shutdown() }
        try await HeadlessBrowser.withBrowser(width: screen.width, height: screen.height) { browser in
            try await browser.setViewport(width: screen.width, height: screen.height, mobile: screen.mobile)
            let visited = try await Self.tour(browser, rig, screen)
            #expect(
                visited == [
                    "activation", "activation-error", "expired-code", "provider-choice", "login", "login-error",
                    "signed-in",
                    "refused-used-code", "login-ending", "logout-ending", "service-unavailable", "checklist",
                ])
        }
    }

    /// Walks through every page, checking each; returns their names in order.
    private static func tour(_ browser: HeadlessBrowser, _ rig: LoopbackRig, _ screen: Screen) async throws -> [String]
    {
        var visited: [String] = []
        func check(_ name: String, _ kind: SandboxPageKind) async throws {
            try await Self.checkLayout(browser, name: name, kind: kind, screen: screen)
            visited.append(name)
        }

        // The second screen, with the choice of TV provider and a wrong password first.
        try await browser.navigate(to: rig.sandbox.activationURL)
        try await check("activation", .activate)
        try await browser.fill("#code", with: "WRONG12")
        try await browser.clickAndWaitForNewPage("#continue")
        try await check("activation-error", .activate)

        let expiring = try await rig.registerTV(deviceID: "expiring-\(screen.name)")
        let expiredCode = try await expiring.code(mvpd: "NotBoarded")
        rig.sandbox.clock.advance(by: SandboxEngine.authenticationSessionTTL)
        try await browser.fill("#code", with: expiredCode)
        try await browser.clickAndWaitForNewPage("#continue")
        #expect(try await browser.text(of: "#activation-error").contains("has expired"))
        try await check("expired-code", .activate)

        let tv = try await rig.registerTV(deviceID: "tour-\(screen.name)")
        let code = try await tv.code(mvpd: nil)
        try await browser.fill("#code", with: code)
        try await browser.clickAndWaitForNewPage("#continue")
        try await check("provider-choice", .providerChoice)
        try await browser.clickAndWaitForNewPage(#"button[value="NotBoarded"]"#)
        try await check("login", .login)
        try await browser.fill("#username", with: "alice")
        try await browser.fill("#password", with: "wrong")
        try await browser.clickAndWaitForNewPage("#sign-in")
        try await check("login-error", .login)
        try await browser.fill("#username", with: "alice")
        try await browser.fill("#password", with: "alice123")
        try await browser.clickAndWaitForNewPage("#sign-in")
        try await check("signed-in", .signedIn)

        // The same code's authenticate URL, opened again.
        try await browser.navigate(
            to: try #require(URL(string: rig.baseURL.absoluteString + "/api/v2/authenticate/REF30/\(code)")))
        try await check("refused-used-code", .refused)

        // Sign-in on the application's own device: the authenticate URL in a browser. The
        // login answers 302 to the application's custom-scheme redirect URL, which a desktop
        // browser cannot open: it stays on the form, which said beforehand what happens.
        let laptop = try await rig.registerTV(deviceID: "laptop-\(screen.name)")
        let session = try await laptop.createSession(mvpd: "NotBoarded")
        let authenticate = try #require(session["url"] as? String)
        let laptopCode = try #require(session["code"] as? String)
        try await browser.navigate(to: try #require(URL(string: rig.baseURL.absoluteString + authenticate)))
        #expect(try await browser.text(of: "#after-sign-in").contains("adobepass://tv.app"))
        try await browser.fill("#username", with: "bob")
        try await browser.fill("#password", with: "bob123")
        try await browser.click("#sign-in")
        try await Self.waitUntilSignedIn(laptop, code: laptopCode)
        #expect(try await browser.currentURL().contains("/mvpd/NotBoarded/login"), "the browser stays where it was")
        try await check("login-ending", .login)

        // The MVPD logout page the logout answer points at: a 302 to the custom scheme too,
        // so the navigation is handed away and the browser stays where it was.
        let logoutURL = try await laptop.logoutURL(mvpd: "NotBoarded")
        do {
            try await browser.navigate(to: try #require(URL(string: logoutURL)))
            Issue.record("a desktop browser cannot open the custom-scheme redirect URL of the logout page")
        } catch BrowserError.pageDidNotArrive(let reason) {
            #expect(reason.contains("ERR_ABORTED"), "\(reason)")
        }
        #expect(try await browser.currentURL().contains("/mvpd/NotBoarded/login"))
        #expect(try await laptop.profiles(forCode: laptopCode).isEmpty, "the logout reached the sandbox")
        try await check("logout-ending", .login)

        // A page failing (an injected 503).
        rig.sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .activate)
        try await browser.navigate(to: rig.sandbox.activationURL)
        try await check("service-unavailable", .error)

        // What the checklist monitor saw of the tour's clients.
        try await browser.navigate(to: try #require(URL(string: rig.baseURL.absoluteString + "/checklist")))
        #expect(
            try await browser.text(of: "#rule-poll-after-session-end").hasSuffix("1"),
            "the logout ending's check polled a finished code")
        try await check("checklist", .checklist)
        return visited
    }

    /// Waits (a bounded real time: the browser's form submission is asynchronous) until the
    /// session `code` signed `tv` in.
    private static func waitUntilSignedIn(_ tv: LoopbackTV, code: String) async throws {
        // Only a bound on a hang: a browser on a machine at load 20 takes seconds.
        let deadline = Date().addingTimeInterval(120)
        while try await tv.profiles(forCode: code).isEmpty {
            guard Date() < deadline else {
                throw TestFailure("the login form's submission did not sign in within 120 s")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// The page is `kind`, fits `screen`, and (when asked) is saved as a PNG.
    private static func checkLayout(_ browser: HeadlessBrowser, name: String, kind: SandboxPageKind, screen: Screen)
        async throws
    {
        let shown = try await browser.evaluateString("document.querySelector('main').dataset.page")
        #expect(shown == kind.rawValue, "\(name): expected the \(kind.rawValue) page")
        let innerWidth = try await browser.evaluateNumber("window.innerWidth")
        #expect(Int(innerWidth) == screen.width, "\(name): the page must lay out at the screen's width (viewport tag)")
        let overflow = try await browser.evaluateNumber("document.documentElement.scrollWidth - window.innerWidth")
        #expect(overflow <= 0, "\(name): the page scrolls sideways by \(overflow) px at \(screen.width) px")
        let smallestField = try await browser.evaluateNumber(
            """
            Math.min(1000, ...[...document.querySelectorAll('input:not([type=hidden])')].map(e => parseFloat(getComputedStyle(e).fontSize)))
            """)
        #expect(smallestField >= 16, "\(name): a text field's font is \(smallestField) px")
        let smallestTarget = try await browser.evaluateNumber(
            """
            Math.min(1000, ...[...document.querySelectorAll('button, a.button, input:not([type=hidden])')].map(e => e.getBoundingClientRect().height))
            """)
        #expect(smallestTarget >= 44, "\(name): a button or field is only \(smallestTarget) px tall")
        if let directory = screenshotDirectory {
            try await browser.screenshot(to: "\(directory)/\(screen.name)-\(name).png")
        }
    }
}

/// A screen size the pages are checked at.
struct Screen: Sendable, CustomTestStringConvertible {
    let name: String
    let width: Int
    let height: Int
    let mobile: Bool

    static let phone = Screen(name: "phone", width: 390, height: 844, mobile: true)
    static let desktop = Screen(name: "desktop", width: 1280, height: 800, mobile: false)

    var testDescription: String { "\(name) \(width)×\(height)" }
}
