import AccessEnabler
import Foundation
import Testing

@testable import PassSandbox

@Suite("Simulated partner framework")
struct SandboxPartnerFrameworkTests {
    private let silent = PartnerMetadataRequest(isInterruptionAllowed: false)
    private let interactive = PartnerMetadataRequest(
        isInterruptionAllowed: true, supportedAccountProviderIdentifiers: ["AppleBoarded", "PickerOnly"])

    @Test func promptingResolvesAnUndeterminedPermission() async {
        let device = SimulatedPartnerFramework(
            sandbox: PassSandbox(), accessStatus: .notDetermined, promptAnswer: .denied)
        #expect(await device.accessStatus(prompt: false) == .notDetermined)
        #expect(await device.accessStatus(prompt: true) == .denied)
        // The answer is remembered.
        #expect(await device.accessStatus(prompt: false) == .denied)
        #expect(device.accessStatus == .denied)
        #expect(
            device.calls == [.accessStatus(prompt: false), .accessStatus(prompt: true), .accessStatus(prompt: false)])

        let dismissed = SimulatedPartnerFramework(
            sandbox: PassSandbox(), accessStatus: .notDetermined, promptAnswer: .notDetermined)
        #expect(await dismissed.accessStatus(prompt: true) == .notDetermined)
        let granted = SimulatedPartnerFramework(sandbox: PassSandbox(), accessStatus: .denied, promptAnswer: .granted)
        #expect(await granted.accessStatus(prompt: true) == .denied)
        let failing = SimulatedPartnerFramework(sandbox: PassSandbox(), accessStatus: .error)
        guard case .error = await failing.accessStatus(prompt: true) else {
            Issue.record("expected an error status")
            return
        }
    }

    @Test func metadataNeedsPermissionAndHonoursInjectedFailures() async {
        let sandbox = PassSandbox()
        let denied = SimulatedPartnerFramework(
            sandbox: sandbox, accessStatus: .denied, picker: [.select(provider: "AppleBoarded", user: "alice")])
        await #expect(throws: PartnerFrameworkError.accessNotGranted) {
            try await denied.accountMetadata(self.interactive)
        }
        #expect(denied.picker.count == 1)
        let failing = SimulatedPartnerFramework(sandbox: sandbox, failure: .serviceTemporarilyUnavailable)
        await #expect(throws: PartnerFrameworkError.serviceTemporarilyUnavailable) {
            try await failing.accountMetadata(self.silent)
        }
    }

    @Test func anExpiredSignInStillNamesItsProviderToSilentReads() async throws {
        let sandbox = PassSandbox()
        let expiry = sandbox.clock.now.addingTimeInterval(600)
        let device = SimulatedPartnerFramework(
            sandbox: sandbox, signedIn: SystemSignIn(provider: "AppleBoarded", username: "alice", expiresAt: expiry))
        let metadata = try await device.accountMetadata(silent)
        #expect(metadata.accountProviderIdentifier == "AppleBoarded")
        #expect(metadata.authenticationExpirationDate == expiry)
        #expect(metadata.samlResponse == nil)

        // The device token expired; the account is still there, with its past expiry.
        sandbox.clock.advance(by: 600)
        let expired = try await device.accountMetadata(silent)
        #expect(expired.accountProviderIdentifier == "AppleBoarded")
        #expect(expired.authenticationExpirationDate == expiry)
        #expect(device.signedIn?.provider == "AppleBoarded")

        device.signedIn = SystemSignIn(
            provider: "Unboarded-Elsewhere", username: "zed", expiresAt: sandbox.clock.now.addingTimeInterval(60))
        #expect(try await device.accountMetadata(silent).accountProviderIdentifier == "Unboarded-Elsewhere")
        device.signOut()
        #expect(try await device.accountMetadata(silent).accountProviderIdentifier == nil)
    }

    @Test func thePickerScriptIsConsumedInOrder() async throws {
        let sandbox = PassSandbox()
        let device = SimulatedPartnerFramework(
            sandbox: sandbox, picker: [.cancel, .other, .select(provider: "AppleBoarded", user: "bob")])
        #expect(try await device.accountMetadata(silent).accountProviderIdentifier == nil)
        await #expect(throws: PartnerFrameworkError.userCancelled) {
            try await device.accountMetadata(self.interactive)
        }
        await #expect(throws: PartnerFrameworkError.otherProviderSelected) {
            try await device.accountMetadata(self.interactive)
        }
        let chosen = try await device.accountMetadata(interactive)
        #expect(chosen.accountProviderIdentifier == "AppleBoarded")
        #expect(chosen.authenticationExpirationDate == sandbox.clock.now.addingTimeInterval(86_400))
        #expect(device.signedIn?.username == "bob")
        #expect(device.picker.isEmpty)
        // Signed in now: no picker needed.
        #expect(try await device.accountMetadata(interactive).accountProviderIdentifier == "AppleBoarded")
        // An empty script means the user closes the picker.
        device.signOut()
        await #expect(throws: PartnerFrameworkError.userCancelled) {
            try await device.accountMetadata(self.interactive)
        }
        #expect(device.calls.count == 6)
    }

    @Test func aPickerOnlyProviderIsHandedBackWithoutASystemSignIn() async throws {
        let device = SimulatedPartnerFramework(
            sandbox: PassSandbox(), picker: [.select(provider: "PickerOnly", user: "alice")])
        #expect(try await device.accountMetadata(interactive).accountProviderIdentifier == "PickerOnly")
        #expect(device.signedIn == nil)
    }

    @Test func samlResponsesAreMintedOnlyForRequestsTheSandboxIssued() async throws {
        let sandbox = PassSandbox()
        let device = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(600)))
        let forged = Data(#"<samlp:AuthnRequest ID="_forged"/>"#.utf8).base64EncodedString()
        await #expect(throws: PartnerFrameworkError.invalidVerificationToken) {
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: forged))
        }

        let client = try await SandboxTestClient(sandbox: sandbox)
        let pfs = SandboxTestClient.partnerStatus(expiresAt: sandbox.clock.now.addingTimeInterval(600))
        let session = try SandboxTestClient.object(
            await client.postForm(
                "/api/v2/REF30/sessions/sso/Apple", "domainName=adobe.com&redirectUrl=x%3A%2F%2Fy", partnerStatus: pfs))
        let request = try #require(session.object("authenticationRequest").string("request"))
        let saml = try #require(
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
                .samlResponse)
        #expect(saml.hasPrefix("<samlp:Response"))
        #expect(saml.contains("<saml:NameID>u-alice</saml:NameID>"))

        device.signedIn = SystemSignIn(
            provider: "AppleBoarded", username: "mallory", expiresAt: sandbox.clock.now.addingTimeInterval(600))
        await #expect(throws: PartnerFrameworkError.providerRejected) {
            try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false, samlRequest: request))
        }
    }
}
