import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// Cookbook step 4, `getAuthentication` with a partner framework: the whole outcome table,
/// the picker callbacks, the filter, and the continuation of every fallback.
@Suite struct PartnerGetAuthenticationTests {
    static let picker = "\(Partner.pickerIDs)|featured:"
    static let present = "presentTVProviderDialog(\(picker))"
    static let dismiss = "dismissTVProviderDialog(\(picker))"
    static let notSelected = "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))"

    /// A rig after setRequestor, signed in nowhere, with `picker` scripted.
    private func rig(
        _ wire: ScenarioRunner.Wire, picker: [Scenario.PickerEntry], _ more: (inout Scenario) -> Void = { _ in }
    ) async throws -> Rig {
        let rig = try Partner.rig(wire, signedIn: nil) { scenario in
            scenario.device.picker = picker
            more(&scenario)
        }
        #expect(try await rig.run(Partner.setRequestor).last == "setRequestorComplete(1)")
        #expect(rig.restCalls == Partner.launchCalls)
        return rig
    }

    /// The continuation of a fallback: the user backs out of the app's own picker.
    private func expectBackingOutEnds(_ rig: Rig) async throws {
        #expect(try await rig.run(.setSelectedProvider(nil)) == ["status(N005,info)", Self.notSelected])
        #expect(rig.restCalls.isEmpty)
    }

    // MARK: Partner SSO succeeds

    @Test(arguments: bothWires)
    func aBoardedProviderChosenInThePickerIsExchanged(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")])
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.getAuthentication)
        #expect(
            callbacks == [Self.present, Self.dismiss, "sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
        #expect(rig.restCalls == Partner.exchangeCalls)
        // The permission query may prompt; the picker and the SAML request may interrupt.
        #expect(calls.contains(.accessStatus(prompt: true)))
        let interactive = calls.compactMap(\.metadataRequest).filter(\.isInterruptionAllowed)
        #expect(interactive.count == 2, "the picker and the SAML request")
        #expect(
            interactive.first?.supportedAccountProviderIdentifiers == [
                "AppleBoarded", "PickerOnly", "SSODisabled", "Degraded",
            ])
        #expect(interactive.first?.samlRequest == nil)
        #expect(interactive.last?.samlRequest != nil)
        #expect(try await rig.run(Partner.tokenSource) == [#"setMetadataStatus(3,false,"Apple")"#])
    }

    @Test(arguments: bothWires)
    func alreadySignedInAtSystemLevelSkipsThePicker(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.cancel])
        try await rig.run(Partner.signIn("AppleBoarded"))
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.getAuthentication)
        #expect(callbacks == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated], "no picker callbacks")
        #expect(rig.restCalls == Partner.exchangeCalls)
        #expect(rig.device?.picker == [.cancel], "the picker was not opened")
        #expect(calls.compactMap(\.metadataRequest).contains { $0.samlRequest != nil && $0.isInterruptionAllowed })
    }

    @Test(arguments: bothWires)
    func aValidProfileAnswersAtOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire)
        try await rig.run(Partner.setRequestor)
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                "sendTrackingData(0,true,AppleBoarded)", Partner.authenticated,
            ])
        #expect(rig.restCalls.isEmpty)
    }

    @Test(arguments: bothWires)
    func aDegradedProviderIsAuthenticatedWithN010(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "Degraded", user: "alice")])
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(N010,warning)", "sendTrackingData(0,true,Degraded)",
                Partner.authenticated,
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions/sso/Apple", "GET /api/v2/REF30/profiles/Degraded"])
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,Degraded)", Partner.authenticated])
    }

    @Test(arguments: bothWires)
    func aDegradedProviderSignedInAtSystemLevelIsAuthenticatedWithN010(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "Degraded")
        try await rig.run(Partner.setRequestor)
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                "status(N010,warning)", "sendTrackingData(0,true,Degraded)", Partner.authenticated,
            ])
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions/sso/Apple", "GET /api/v2/REF30/profiles/Degraded"])
    }

    // MARK: Picker-only provider

    @Test(arguments: bothWires)
    func aPickerOnlyProviderGoesToItsLoginPageSilently(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "PickerOnly", user: "alice")])
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "sendTrackingData(2,PickerOnly)", "navigateToUrl(authenticate)",
            ], "no status code: setSelectedProvider is called by the SDK itself")
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions"])
        #expect(rig.device?.signedIn == nil, "a picker-only provider leaves no system-level sign-in")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,PickerOnly)", Partner.authenticated,
            ])
        #expect(try await rig.run(Partner.tokenSource) == ["setMetadataStatus(3,false,null)"])
    }

    // MARK: Fallbacks to the regular flow

    @Test(arguments: bothWires)
    func deniedPermissionFallsBackWithVSA403(wire: ScenarioRunner.Wire) async throws {
        for state in ["denied", "restricted"] {
            let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")]) {
                $0.device.accessStatus = state
            }
            #expect(
                try await rig.run(Partner.getAuthentication) == ["status(VSA403,info)", Partner.allMVPDs],
                "permission \(state)")
            #expect(rig.restCalls.isEmpty)
            try await expectBackingOutEnds(rig)
        }
    }

    @Test(arguments: bothWires)
    func undeterminedPermissionPromptsThenFallsBackWithVSA404(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")]) {
            $0.device.accessStatus = "notDetermined"
            $0.device.promptAnswer = "notDetermined"
        }
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.getAuthentication)
        #expect(callbacks == ["status(VSA404,info)", Partner.allMVPDs])
        #expect(calls.contains(.accessStatus(prompt: true)), "getAuthentication asks for the permission")
        #expect(rig.restCalls.isEmpty)
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func aPromptAnsweredGrantedOpensThePicker(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")]) {
            $0.device.accessStatus = "notDetermined"
            $0.device.promptAnswer = "granted"
        }
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "sendTrackingData(0,true,AppleBoarded)", Partner.authenticated,
            ])
        #expect(rig.restCalls == Partner.exchangeCalls)
    }

    @Test(arguments: bothWires)
    func aFailingMetadataRequestFallsBackWithVSA503(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")]) {
            $0.device.failure = "serviceTemporarilyUnavailable"
        }
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(VSA503,info)", Partner.allMVPDs,
            ])
        #expect(rig.restCalls.isEmpty)
        let status = rig.lastLines.first { $0.callback == "status" }
        #expect(status?["message"]?.stringValue?.isEmpty == false, "VSA503 gives its context in the message")
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func otherTVProviderFallsBackWithN003(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.other])
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(N003,info)", Partner.allMVPDs,
            ])
        #expect(rig.restCalls.isEmpty)
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func anSSODisabledProviderFallsBackWithN004(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "SSODisabled", user: "alice")])
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(N004,info)", Partner.allMVPDs,
            ])
        #expect(rig.restCalls.isEmpty, "no sessions/sso for a provider without single sign-on")
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func anInactiveIntegrationFallsBackWithN004(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: nil) {
            $0.device.picker = [.select(provider: "AppleBoarded", user: "alice")]
        }
        try await rig.run(.world(mvpd: "AppleBoarded", set: ["integrationActive": .bool(false)]))
        try await rig.run(Partner.setRequestor)
        let shown = "PickerOnly,SSODisabled,Degraded|featured:"
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                "presentTVProviderDialog(\(shown))", "dismissTVProviderDialog(\(shown))", "status(N004,info)",
                "displayProviderDialog(PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider)",
            ])
        #expect(rig.restCalls.isEmpty)
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func cancellingThePickerFallsBackWithN005(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.cancel])
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(N005,info)", Partner.allMVPDs,
            ])
        #expect(rig.restCalls.isEmpty)
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func aFallbackContinuesWithTheRegularLogin(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.other])
        try await rig.run(Partner.getAuthentication)
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
            ])
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123")) == [
                "sendTrackingData(0,true,NotBoarded)", Partner.authenticated,
            ])
        #expect(rig.restCalls.count == 1)
    }

    @Test(arguments: bothWires)
    func aSystemSignInToAnUnintegratedProviderFallsBackWithN004(wire: ScenarioRunner.Wire) async throws {
        for provider in ["UnknownTV", "SSODisabled"] {
            let rig = try Partner.rig(wire, signedIn: provider) { $0.device.picker = [.cancel] }
            try await rig.run(Partner.setRequestor)
            #expect(rig.restCalls == Partner.launchCalls)
            #expect(
                try await rig.run(Partner.getAuthentication) == ["status(N004,info)", Partner.allMVPDs],
                "\(provider): no picker, the app's own dialog")
            #expect(rig.restCalls.isEmpty)
            try await expectBackingOutEnds(rig)
        }
    }

    @Test(arguments: bothWires)
    func aFailingExchangeStillEndsInSetAuthenticationStatus(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.select(provider: "AppleBoarded", user: "alice")])
        try await rig.run(.fault(endpoint: .partnerSession, SandboxFault(status: 503)))
        #expect(
            try await rig.run(Partner.getAuthentication) == [
                Self.present, Self.dismiss, "status(N500,error)", "sendTrackingData(0,false,)",
                "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))",
            ])
        // internal_server_error advises no retry (action none): one request.
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions/sso/Apple"])
    }

    // MARK: Picker contents

    @Test(arguments: bothWires)
    func theFilterOrderAndFeaturedProvidersReachThePicker(wire: ScenarioRunner.Wire) async throws {
        let rig = try await rig(wire, picker: [.cancel])
        let filter = ["Degraded", "NotBoarded", "PickerOnly", "AppleBoarded"]
        let (callbacks, calls) = try await rig.runRecordingDevice(
            .getAuthentication(forceAuthn: false, filter: filter, featured: ["AppleBoarded"]))
        let shown = "Degraded,PickerOnly,AppleBoarded|featured:AppleBoarded"
        #expect(
            callbacks == [
                "presentTVProviderDialog(\(shown))", "dismissTVProviderDialog(\(shown))", "status(N005,info)",
                Partner.allMVPDs,
            ],
            "order kept; an MVPD without platform services is not shown")
        let pickerRequest = calls.compactMap(\.metadataRequest).first(where: \.isInterruptionAllowed)
        #expect(pickerRequest?.supportedAccountProviderIdentifiers == ["Degraded", "PickerOnly", "AppleBoarded"])
        #expect(pickerRequest?.featuredAccountProviderIdentifiers == ["AppleBoarded"])
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func withoutAPartnerFrameworkTheProviderDialogOpensAtOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire)
        try await rig.run(Partner.setRequestor)
        #expect(try await rig.run(Partner.getAuthentication) == [Partner.allMVPDs])
        #expect(rig.restCalls == ["GET /api/v2/REF30/configuration"], "the provider list")
        try await expectBackingOutEnds(rig)
    }

    @Test(arguments: bothWires)
    func withoutAnSSOCapableMVPDTheProviderDialogOpensAtOnce(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire, signedIn: "AppleBoarded") { $0.device.picker = [.cancel] }
        for mvpd in ["AppleBoarded", "PickerOnly", "Degraded"] {
            try await rig.run(.world(mvpd: mvpd, set: ["enablePlatformServices": .bool(false)]))
        }
        try await rig.run(Partner.setRequestor)
        #expect(rig.restCalls == Partner.launchCalls, "no partner query, no exchange")
        let (callbacks, calls) = try await rig.runRecordingDevice(Partner.getAuthentication)
        #expect(callbacks == [Partner.allMVPDs])
        #expect(calls.isEmpty)
        #expect(rig.device?.calls.isEmpty == true)
    }
}

/// `getAuthentication(forceAuthn: true)` over a partner sign-in.
@Suite struct PartnerForcedAuthenticationTests {
    @Test(arguments: bothWires)
    func forcingAuthenticationOverAnAppleSSOProfileKeepsItFromApple(wire: ScenarioRunner.Wire) async throws {
        let rig = try Partner.rig(wire) { $0.device.picker = [.cancel] }
        try await rig.run(Partner.setRequestor)
        #expect(
            try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [
                "sendTrackingData(0,true,AppleBoarded)", Partner.authenticated,
            ], "no picker: the user is signed in at system level")
        // Adobe Pass answers authorize/direct (a profile exists): it is fetched with the partner status.
        #expect(rig.restCalls == ["POST /api/v2/REF30/sessions/sso/Apple", "GET /api/v2/REF30/profiles/AppleBoarded"])
        #expect(try await rig.run(Partner.tokenSource) == [#"setMetadataStatus(3,false,"Apple")"#])
        #expect(
            try await rig.run(.checkAuthentication) == ["sendTrackingData(0,true,AppleBoarded)", Partner.authenticated])
    }
}
