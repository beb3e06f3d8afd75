import AccessEnabler
import AccessEnablerScenarios
import BrowserHarness
import Foundation
import PassSandbox
import Testing

/// The whole second screen with a real browser and the real SDK: an AccessEnabler on a
/// "TV" (tvOS, no browser) gets a registration code and polls over loopback HTTP, while a
/// headless Chromium sized as a phone opens `/activate`, types the code, signs in at the
/// MVPD and reaches the "go back to your TV" page; the SDK's next poll finds the profile.
///
/// The SDK runs on the wall clock here (a real browser takes real time), with the shortest
/// poll interval REST API V2 allows. Skipped, with a printed warning, when Chromium is not
/// installed (`.ci/run` installs it where it can).
@Suite(
    "Second screen: the SDK polls while a person signs in with Chromium",
    .serialized,
    .enabled(if: HeadlessBrowser.isAvailableForTests, "Chromium is not installed (Debian: apt-get install -y chromium)")
)
struct SecondScreenBrowserTests {
    @Test func theSDKReportsStatusOneAfterAPersonSignsInOnTheirPhone() async throws {
        let sandbox = PassSandbox(world: .default, clock: .system)
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-browser-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }

        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .tvOS, storageDirectory: storage)
        configuration.secondScreenPollInterval = 3
        configuration.requestTimeout = SanitizerTiming.healthyRequestTimeout
        let recorder = CallbackRecorder()
        let tv = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        tv.delegate = recorder
        tv.statusDelegate = recorder
        #expect(configuration.loginScreen == .secondScreen, "tvOS signs in on a second screen by default")

        try await tv.configure(requestor: "REF30")
        guard case .chooseProvider(let mvpds) = try await tv.authenticate() else {
            Issue.record("expected the provider dialog")
            return
        }
        #expect(mvpds.map(\.id).contains("NotBoarded"))
        guard case .enterCodeOnSecondScreen(let code) = try await tv.selectProvider("NotBoarded") else {
            Issue.record("expected a registration code")
            return
        }
        #expect(recorder.callbacks.contains { $0.callback == "navigateToUrl" } == false, "a TV never opens a page")

        // The person, on their phone.
        try await HeadlessBrowser.withBrowser(width: 390, height: 844) { browser in
            try await browser.setViewport(width: 390, height: 844, mobile: true)
            try await browser.navigate(to: sandbox.activationURL)
            try await browser.fill("#code", with: code)
            try await browser.clickAndWaitForNewPage("#continue")
            #expect(try await browser.text(of: "h1") == "Sign in to Not Boarded Cable")
            try await browser.fill("#username", with: "alice")
            try await browser.fill("#password", with: "alice123")
            try await browser.clickAndWaitForNewPage("#sign-in")
            #expect(try await browser.text(of: "h1") == "You're signed in")
            if let directory = ProcessInfo.processInfo.environment["PASS_SANDBOX_SCREENSHOTS"] {
                try await browser.screenshot(to: "\(directory)/sdk-second-screen-signed-in.png")
            }
        }

        // Meanwhile the TV polls; its next poll finds the profile.
        let outcome = try await withThrowingTaskGroup(of: AuthenticationStep.self) { group in
            group.addTask { try await tv.secondScreenSignIn() }
            group.addTask {
                // A bound for a hang only: a poll every 3 s ends it in seconds, at any load.
                try await Task.sleep(nanoseconds: 120_000_000_000)
                throw AccessEnablerError(errorCode: GENERIC_AUTHENTICATION_ERROR, message: "no status within 120 s")
            }
            defer { group.cancelAll() }
            return try #require(try await group.next())
        }
        #expect(outcome == .authenticated)
        let statuses = recorder.callbacks.filter { $0.callback == "setAuthenticationStatus" }
        #expect(statuses.last?["status"] == .number(1))
        #expect(try await tv.authenticationStatus().isAuthenticated)
        #expect(try await tv.authorize("news").resource == "news")
    }
}
