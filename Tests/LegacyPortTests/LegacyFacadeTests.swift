import AccessEnabler
import Foundation
import PassSandbox
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The initialisers, constants, MVPD properties and calls spelled as Adobe's iOS/tvOS
/// documentation spells them compile and do what the documentation says.
@Suite struct LegacyFacadeTests {
    @Test func theUnlabelledInitialiserOfTheMigrationGuideIsTheDefaultConfiguration() {
        let accessEnabler = AccessEnabler("STATEMENT")
        #expect(accessEnabler.configuration.environment == .production)
        #expect(accessEnabler.configuration.platform == .iOS)
        #expect(accessEnabler.configuration.partnerFramework == nil)
    }

    @Test func theStorageCheckInitialiserNeedsNoConfiguration() {
        let accessEnabler = AccessEnabler(
            storageCheck: IntegrityCheckType.INTEGRITY_CHECK_ALL, softwareStatement: "STATEMENT")
        #expect(accessEnabler.configuration.environment == .production)
        #expect(accessEnabler.configuration.redirectURL == ADOBEPASS_REDIRECT_URL)
    }

    @Test func theRedirectURLConstantIsTheDocumentedOne() {
        #expect(ADOBEPASS_REDIRECT_URL == "adobepass://ios.app")
        #expect(AccessEnablerConfiguration().redirectURL == ADOBEPASS_REDIRECT_URL)
    }

    @Test func mvpdPropertiesHaveTheirLegacySpellingsAndTypes() throws {
        let mvpd = MVPD(id: "NotBoarded", displayName: "Not Boarded Cable", logoURL: "https://example.com/logo.png")
        #expect(mvpd.ID == "NotBoarded")
        if let id = mvpd.ID { #expect(id == mvpd.id) }
        // NSString properties were implicitly unwrapped: they pass where a String is needed.
        let logo: URL? = URL(string: mvpd.logoURL)
        #expect(logo?.host == "example.com")
        let plain = MVPD(id: "A", displayName: "A")
        #expect(plain.logoURL == nil && plain.boardingStatus == nil)
        // An `[Any]` of the legacy `displayProviderDialog` casts back to MVPDs.
        let legacyList: [Any] = [mvpd, plain]
        #expect((legacyList as! [MVPD]).map { $0.ID } == ["NotBoarded", "A"])
    }

    @Test func getVersionAnswersStaticallyAndOnAnInstance() throws {
        let version = AccessEnabler.getVersion()
        #expect(!version.isEmpty)
        #expect(version.split(separator: ".").allSatisfy { Int($0) != nil }, "dotted numbers: \(version)")
    }

    @Test func handleExternalURLTakesAnOptionalAndAnswersNilLikeAForeignURL() async throws {
        let delegate = LegacySpellingDelegate()
        let rig = try LegacyPortRig(delegate: delegate, statusDelegate: delegate)
        await rig.run { $0.setRequestor("REF30") }
        #expect(rig.accessEnabler.getVersion() == AccessEnabler.getVersion())
        _ = delegate.log.take()

        // As the migration guide writes it: `handleExternalURL(request.url?.description)`.
        let request = URLRequest(url: URL(string: "https://elsewhere.example/")!)
        var noURL = request
        noURL.url = nil
        await rig.run { $0.handleExternalURL(noURL.url?.description) }
        let nilAnswer = delegate.log.take()
        await rig.run { $0.handleExternalURL(request.url?.description) }
        let foreignAnswer = delegate.log.take()
        #expect(nilAnswer == ["status(N500,error)", FullFlow.notAuthenticated])
        #expect(nilAnswer == foreignAnswer)
        // A real redirect with nothing pending still gets N130, as before.
        let redirect: String? = ADOBEPASS_REDIRECT_URL + "?code=none"
        await rig.run { $0.handleExternalURL(redirect) }
        #expect(delegate.log.take() == ["status(N130,error)", FullFlow.notAuthenticated])
    }

    @Test func theSignedRequestorFormsOfSDKsBeforeV3StillSetTheRequestor() async throws {
        let delegate = LegacySpellingDelegate()
        let rig = try LegacyPortRig(delegate: delegate, statusDelegate: delegate)
        await rig.run { $0.setRequestor("REF30", setSignedRequestorId: "c2lnbmVk") }
        #expect(delegate.log.take() == ["setRequestorComplete(1)"])
        await rig.run {
            $0.setRequestor("REF30", setSignedRequestorId: "c2lnbmVk", secret: "secret", publicKey: "public_key")
        }
        #expect(delegate.log.take() == ["setRequestorComplete(1)"])
        let provider = rig.baseURL.absoluteString
        await rig.run { $0.setRequestor("REF30", setSignedRequestorId: "c2lnbmVk", serviceProviders: [provider]) }
        #expect(delegate.log.take() == ["setRequestorComplete(1)"])
        await rig.run {
            $0.setRequestor(
                "NOPE", setSignedRequestorId: "c2lnbmVk", serviceProviders: [provider], secret: "s", publicKey: "k")
        }
        #expect(delegate.log.take().last == "setRequestorComplete(0)")
    }

    @Test func theUnlabelledFilterFormsOfGetAuthenticationFilterThePicker() async throws {
        let delegate = LegacySpellingDelegate()
        let rig = try LegacyPortRig(picker: [.cancel, .cancel, .cancel], delegate: delegate, statusDelegate: delegate)
        await rig.run { $0.setRequestor("REF30") }
        _ = delegate.log.take()

        // v2.4: a dictionary with TV_PROVIDERS (order kept) and FEATURED_TV_PROVIDERS.
        let filter: [AnyHashable: Any] = [
            TV_PROVIDERS: ["Degraded", "AppleBoarded", 7], FEATURED_TV_PROVIDERS: ["AppleBoarded"],
        ]
        await rig.run { $0.getAuthentication(filter) }
        #expect(delegate.log.take().first == "presentTVProviderDialog(Degraded,AppleBoarded)")
        let asked = try #require(rig.device.calls.compactMap(\.metadataRequest).last)
        #expect(asked.supportedAccountProviderIdentifiers == ["Degraded", "AppleBoarded"])
        #expect(asked.featuredAccountProviderIdentifiers == ["AppleBoarded"])
        await rig.run { $0.setSelectedProvider(nil) }
        #expect(delegate.log.take().last == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")

        // v2.0: a list.
        let list: [Any] = ["PickerOnly"]
        await rig.run { $0.getAuthentication(list) }
        #expect(delegate.log.take().first == "presentTVProviderDialog(PickerOnly)")
    }
}

extension PartnerCall {
    /// The metadata request, when this call is one.
    var metadataRequest: PartnerMetadataRequest? {
        if case .accountMetadata(let request) = self { return request }
        return nil
    }
}
