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
}
