import AccessEnabler
import Foundation
import PassSandbox
import Testing

/// The small iOS integration of Docs/examples/LegacyIntegration, ported to Linux by
/// changing only its configuration lines, signs a user in through the system picker's
/// fallback and an MVPD page, decorates, plays, is refused, shows the account, signs out,
/// and signs in again through a Safari View Controller MVPD.
@Suite struct PortedSampleTests {
    @Test func thePortedIntegrationRunsTheWholeFlow() async throws {
        let fixture = try SandboxFixture(picker: [.other, .cancel])
        let screen = SimulatedScreen()
        let app = EntitlementController(
            softwareStatement: "STATEMENT", configuration: fixture.configuration, screen: screen)
        func settle() async { await app.accessEnabler.waitUntilIdle() }
        let providers =
            "Apple Boarded TV,Picker Only TV,Not Boarded Cable,SSO Disabled TV,Degraded TV,Temp Pass 30 min,Secure Browser Cable"

        await settle()
        #expect(screen.take() == ["track(0)", "signedIn(false)"])

        app.signIn()
        await settle()
        #expect(
            screen.take() == [
                "presentSystemPicker(4 providers)", "dismissSystemPicker", "providerPicker(\(providers))",
            ])

        app.choose(screen.offeredProviders.first { $0.ID == "NotBoarded" })
        await settle()
        #expect(screen.take() == ["track(2)", "browser"])
        let landing = try await fixture.logIn(at: try #require(screen.openPage).absoluteString)
        #expect(app.browserWillLoad(try #require(URL(string: landing))) == false, "the redirect URL is not loaded")
        await settle()
        #expect(screen.take() == ["closeBrowser", "track(0)", "signedIn(true)"])

        app.browse(["news", "sports"])
        app.watch("news")
        app.watch("sports")
        await settle()
        #expect(screen.take() == ["unlock(news)", "track(1)", "play(news,token)", "track(1)", "locked(sports)"])

        app.openAccount()
        await settle()
        #expect(screen.take() == ["account(Not Boarded Cable,-)", "account(Not Boarded Cable,u-bob)"])

        app.signOut()
        await settle()
        #expect(screen.take() == ["browser"])
        let loggedOut = try await fixture.followLogout(try #require(screen.openPage).absoluteString)
        #expect(app.browserWillLoad(try #require(URL(string: loggedOut))) == false)
        await settle()
        #expect(screen.take() == ["closeBrowser", "signedIn(false)"])

        // The option handleSVC is on: this MVPD's page opens in a Safari View Controller.
        app.signIn()
        await settle()
        #expect(
            screen.take() == [
                "presentSystemPicker(4 providers)", "dismissSystemPicker", "providerPicker(\(providers))",
            ])
        app.choose(screen.offeredProviders.first { $0.ID == "SVCProvider" })
        await settle()
        #expect(screen.take() == ["track(2)", "safariViewController"])
        let svcLanding = try await fixture.logIn(at: try #require(screen.openPage).absoluteString)
        #expect(app.browserWillLoad(try #require(URL(string: svcLanding))) == false)
        await settle()
        #expect(screen.take() == ["closeBrowser", "track(0)", "signedIn(true)"])
    }

    @Test func aPageThatIsNotTheRedirectURLLoadsNormally() async throws {
        let fixture = try SandboxFixture()
        let screen = SimulatedScreen()
        let app = EntitlementController(
            softwareStatement: "STATEMENT", configuration: fixture.configuration, screen: screen)
        #expect(app.browserWillLoad(fixture.baseURL))
        await app.accessEnabler.waitUntilIdle()
        #expect(!screen.take().contains("closeBrowser"))
    }
}
