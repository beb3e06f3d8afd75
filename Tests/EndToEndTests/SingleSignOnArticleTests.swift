// swift-format-ignore-file
// The article's snippets, line for line as the article prints them.
import AccessEnabler
import Foundation
import Testing

/// The app's own account service, as the "Single sign-on on Linux" article calls it.
struct ArticleAccounts: Sendable {
    let token: String?
    func currentServiceToken() -> String? { token }
}

/// The device platform's identity, as the article calls it.
struct ArticlePlatform: Sendable {
    let token: String?
    func subjectToken() -> String? { token }
}

/// The article's configuration, snippet by snippet (each compiled here, line for line).
func singleSignOnConfiguration(accounts: ArticleAccounts, platform: ArticlePlatform) -> AccessEnablerConfiguration {
    var configuration = AccessEnablerConfiguration()
    configuration.platform = .tvOS
    configuration.serviceToken = { accounts.currentServiceToken() }  // the JWS of the person signed in to your apps; nil: none
    configuration.platformIdentity = { platform.subjectToken() }  // the platform's token for its signed-in user; nil: none
    configuration.loginScreen = .secondScreen
    configuration.providerChoice = .onSecondScreen  // no provider list on the TV
    return configuration
}

/// The app's identity service as the article's `async` example calls it: it renews the
/// token before handing it over, and counts how often it was asked.
actor ArticleIdentityService {
    private var renewals = 0
    private(set) var asked = 0

    func validServiceToken() async -> String? {
        asked += 1
        await Task.yield()  // stands for the network round trip of a renewal
        renewals += 1
        return "renewed-\(renewals).jws"
    }
}

/// The article's `async` token provider, compiled here line for line.
func asyncServiceTokenConfiguration(identityService: ArticleIdentityService) -> AccessEnablerConfiguration {
    var configuration = AccessEnablerConfiguration()
    configuration.serviceToken = { await identityService.validServiceToken() }  // renews the token when it is about to expire
    return configuration
}

@Suite struct SingleSignOnArticleTests {
    @Test func theArticlesConfigurationHandsTheTokensOverAndChoosesOnTheSecondScreen() async {
        let configuration = singleSignOnConfiguration(accounts: ArticleAccounts(token: "service.jws"), platform: ArticlePlatform(token: "platform.jws"))
        #expect(configuration.platform == .tvOS)
        #expect(configuration.loginScreen == .secondScreen)
        #expect(configuration.providerChoice == .onSecondScreen)
        #expect(await configuration.serviceToken?() == "service.jws")
        #expect(await configuration.platformIdentity?() == "platform.jws")
        let none = singleSignOnConfiguration(accounts: ArticleAccounts(token: nil), platform: ArticlePlatform(token: nil))
        #expect(await none.serviceToken?() == nil)
        #expect(await none.platformIdentity?() == nil)
    }

    @Test func theArticlesAsyncProviderIsAskedBeforeEachRequestThatCarriesTheToken() async {
        let identityService = ArticleIdentityService()
        let configuration = asyncServiceTokenConfiguration(identityService: identityService)
        #expect(await configuration.serviceToken?() == "renewed-1.jws")
        #expect(await configuration.serviceToken?() == "renewed-2.jws", "asked again for each request: a renewed token is used at once")
        #expect(await identityService.asked == 2)
    }
}
