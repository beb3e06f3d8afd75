import Foundation
import Testing

@testable import AccessEnabler

/// The pure pieces of partner single sign-on: the picker's outcome table, the validation
/// that guards `AP-Partner-Framework-Status`, the partner snapshot, profile validity for
/// `appleSSO` profiles, and the deadline that bounds every partner query.
@Suite struct PartnerFlowTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let boarded = MVPD(
        id: "Boarded", displayName: "Boarded", enablePlatformServices: true, boardingStatus: "SUPPORTED",
        displayInPlatformPicker: true, platformMappingId: "boarded-map")
    static let pickerOnly = MVPD(
        id: "PickerOnly", displayName: "Picker Only", enablePlatformServices: true, boardingStatus: "PICKER",
        displayInPlatformPicker: true, platformMappingId: "picker-map")
    static let ssoOff = MVPD(
        id: "SSOOff", displayName: "SSO Off", enablePlatformServices: false, boardingStatus: "SUPPORTED",
        displayInPlatformPicker: true, platformMappingId: "off-map")
    static let mvpds = [boarded, pickerOnly, ssoOff]
    static let byID = Dictionary(uniqueKeysWithValues: mvpds.map { ($0.id, $0) })

    // MARK: PickerOutcome.classify

    private func statusID(_ outcome: PickerOutcome) -> String? {
        if case .fallBack(let id, _, _) = outcome { return id.description }
        return nil
    }

    @Test(arguments: [
        (PartnerFrameworkError.userCancelled, "N005"),
        (.otherProviderSelected, "N003"),
        (.unsupportedProvider, "N004"),
        (.accessNotGranted, "VSA403"),
        (.serviceTemporarilyUnavailable, "VSA503"),
        (.providerRejected, "VSA503"),
        (.invalidVerificationToken, "VSA503"),
        (.rejected, "VSA503"),
        (.other(code: "-7", message: "boom"), "VSA503"),
    ])
    func pickerFailuresFallBack(error: PartnerFrameworkError, expected: String) {
        #expect(statusID(PickerOutcome.classify(.failure(error), mvpds: Self.mvpds)) == expected)
    }

    @Test func aFailedMetadataRequestGivesItsContextInTheMessage() {
        guard
            case .fallBack(_, let message, let details) = PickerOutcome.classify(
                .failure(.other(code: "-7", message: "the framework broke")), mvpds: Self.mvpds)
        else {
            Issue.record("expected a fallback")
            return
        }
        #expect(message.contains("the framework broke"))
        #expect(details == "-7")
    }

    @Test func aPickerClosedWithoutAProviderIsCancelled() {
        #expect(
            statusID(
                PickerOutcome.classify(
                    .success(PartnerAccountMetadata(accountProviderIdentifier: nil)), mvpds: Self.mvpds)) == "N005")
        #expect(
            statusID(
                PickerOutcome.classify(
                    .success(PartnerAccountMetadata(accountProviderIdentifier: "")), mvpds: Self.mvpds)) == "N005")
    }

    @Test func providersAreClassifiedByMappingID() {
        #expect(
            PickerOutcome.classify(providerID: "boarded-map", mvpds: Self.mvpds)
                == .partnerExchange(Self.boarded, providerID: "boarded-map"))
        #expect(PickerOutcome.classify(providerID: "picker-map", mvpds: Self.mvpds) == .regularLogin(Self.pickerOnly))
        #expect(statusID(PickerOutcome.classify(providerID: "off-map", mvpds: Self.mvpds)) == "N004", "SSO disabled")
        #expect(
            statusID(PickerOutcome.classify(providerID: "nobody-map", mvpds: Self.mvpds)) == "N004",
            "no active integration")
        #expect(
            statusID(PickerOutcome.classify(providerID: "Boarded", mvpds: Self.mvpds)) == "N004",
            "the MVPD id is not its mapping id")
        #expect(
            PickerOutcome.classify(
                .success(PartnerAccountMetadata(accountProviderIdentifier: "boarded-map")), mvpds: Self.mvpds)
                == .partnerExchange(Self.boarded, providerID: "boarded-map"))
    }

    // MARK: PartnerStatusValidation

    private func validated(_ access: PartnerAccessResult, _ id: String?, expiresIn: TimeInterval?)
        -> PartnerFrameworkStatus?
    {
        let account = PartnerAccountMetadata(
            accountProviderIdentifier: id,
            authenticationExpirationDate: expiresIn.map { Self.now.addingTimeInterval($0) })
        return PartnerStatusValidation.validatedStatus(
            access: access, account: account, knownMappingIDs: ["boarded-map", "picker-map"], now: Self.now)
    }

    @Test func onlyAGrantedKnownUnexpiredProviderIsEncoded() {
        let status = validated(.granted, "boarded-map", expiresIn: 60)
        #expect(
            status
                == PartnerFrameworkStatus(
                    accessStatus: "granted", providerID: "boarded-map", expirationDate: Self.now.addingTimeInterval(60))
        )
        #expect(validated(.denied, "boarded-map", expiresIn: 60) == nil)
        #expect(validated(.restricted, "boarded-map", expiresIn: 60) == nil)
        #expect(validated(.notDetermined, "boarded-map", expiresIn: 60) == nil)
        #expect(validated(.error(code: "x", message: "y"), "boarded-map", expiresIn: 60) == nil)
        #expect(validated(.granted, nil, expiresIn: 60) == nil, "provider id missing")
        #expect(validated(.granted, "unknown-map", expiresIn: 60) == nil, "provider unknown to the configuration")
        #expect(validated(.granted, "boarded-map", expiresIn: 0) == nil, "expires now")
        #expect(validated(.granted, "boarded-map", expiresIn: -1) == nil, "expired")
        #expect(
            PartnerStatusValidation.validatedStatus(
                access: .granted, account: nil, knownMappingIDs: ["boarded-map"], now: Self.now) == nil)
    }

    @Test func anExpirationIsOptional() {
        #expect(
            validated(.granted, "boarded-map", expiresIn: nil)?.providerID == "boarded-map",
            "the expiration is checked only when available")
    }

    @Test func theEncodedHeaderCarriesTheValidatedValues() throws {
        let status = try #require(validated(.granted, "boarded-map", expiresIn: 60))
        let data = try #require(Data(base64Encoded: status.headerValue))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let permission = object["frameworkPermissionInfo"] as? [String: Any]
        let provider = object["frameworkProviderInfo"] as? [String: Any]
        #expect(permission?["accessStatus"] as? String == "granted")
        #expect(permission?["error"] == nil)
        #expect(provider?["id"] as? String == "boarded-map")
        #expect(provider?["expirationDate"] as? String == String(Int64(Self.now.timeIntervalSince1970 * 1000) + 60_000))
    }

    // MARK: PartnerSnapshot

    @Test func theSignedInProviderNeedsPermissionAndAnUnexpiredSignIn() {
        func snapshot(_ access: PartnerAccessResult, _ id: String?, _ expiresIn: TimeInterval?) -> PartnerSnapshot {
            PartnerSnapshot(
                access: access,
                account: PartnerAccountMetadata(
                    accountProviderIdentifier: id,
                    authenticationExpirationDate: expiresIn.map { Self.now.addingTimeInterval($0) }),
                metadataError: nil)
        }
        #expect(snapshot(.granted, "boarded-map", 60).signedInProvider(at: Self.now) == "boarded-map")
        #expect(snapshot(.granted, "boarded-map", nil).signedInProvider(at: Self.now) == "boarded-map")
        #expect(snapshot(.granted, "boarded-map", -60).signedInProvider(at: Self.now) == nil)
        #expect(
            snapshot(.granted, "boarded-map", -60).accountProviderID == "boarded-map",
            "the expired device token's account is still there")
        #expect(snapshot(.denied, "boarded-map", 60).signedInProvider(at: Self.now) == nil)
        #expect(snapshot(.denied, "boarded-map", 60).accountProviderID == nil)
        #expect(snapshot(.granted, "", 60).signedInProvider(at: Self.now) == nil)
        #expect(snapshot(.granted, nil, 60).accountProviderID == nil)
        #expect(
            PartnerSnapshot(access: .granted, account: nil, metadataError: .rejected).signedInProvider(at: Self.now)
                == nil)
    }

    // MARK: ProfileValidity

    private func profile(_ type: StoredProfileType, mvpd: String = "Boarded", expiresIn: TimeInterval = 3_600)
        -> StoredProfile
    {
        StoredProfile(
            requestor: "REF", mvpd: mvpd, type: type, notBefore: Self.now.addingTimeInterval(-60),
            notAfter: Self.now.addingTimeInterval(expiresIn),
            attributes: [:], tokenSource: type == .appleSSO ? "Apple" : nil,
            partnerProviderID: type == .appleSSO ? "boarded-map" : nil, serviceProviderURL: nil)
    }

    private func partner(
        _ access: PartnerAccessResult = .granted, _ id: String? = "boarded-map", expiresIn: TimeInterval = 600
    ) -> PartnerSnapshot {
        PartnerSnapshot(
            access: access,
            account: PartnerAccountMetadata(
                accountProviderIdentifier: id, authenticationExpirationDate: Self.now.addingTimeInterval(expiresIn)),
            metadataError: nil
        )
    }

    private func verdict(_ profile: StoredProfile, _ partner: PartnerSnapshot?, mvpds: [String: MVPD] = Self.byID)
        -> ProfileValidity.Verdict
    {
        ProfileValidity.evaluate(profile, configuredMVPDs: mvpds, partner: partner, now: Self.now)
    }

    @Test func anAppleSSOProfileNeedsTheSameAccountGrantedAndSSOEnabled() {
        #expect(verdict(profile(.appleSSO), partner()) == .valid)
        #expect(
            verdict(profile(.appleSSO), partner(expiresIn: -60)) == .valid,
            "Apple token expired, Adobe TTL valid: still authenticated")
        #expect(verdict(profile(.appleSSO, expiresIn: -1), partner()) == .expired, "Adobe TTL passed")
        #expect(verdict(profile(.appleSSO), partner(.denied)) == .partnerSignInGone)
        #expect(verdict(profile(.appleSSO), partner(.notDetermined)) == .partnerSignInGone)
        #expect(verdict(profile(.appleSSO), partner(.error(code: "x", message: "y"))) == .partnerSignInGone)
        #expect(verdict(profile(.appleSSO), partner(.granted, nil)) == .partnerSignInGone, "signed out at system level")
        #expect(
            verdict(profile(.appleSSO), partner(.granted, "picker-map")) == .partnerSignInGone,
            "another provider signed in")
        #expect(verdict(profile(.appleSSO), nil) == .partnerSignInGone, "no partner answer")
        #expect(verdict(profile(.appleSSO), partner(), mvpds: [:]) == .integrationInactive)
        var ssoDisabled = Self.byID
        ssoDisabled["Boarded"]?.enablePlatformServices = false
        #expect(verdict(profile(.appleSSO), partner(), mvpds: ssoDisabled) == .ssoDisabled)
    }

    @Test func aRegularProfileIgnoresThePartner() {
        #expect(verdict(profile(.regular), nil) == .valid)
        #expect(verdict(profile(.regular), partner(.denied)) == .valid)
        #expect(verdict(profile(.regular, expiresIn: -1), partner()) == .expired)
        #expect(verdict(profile(.regular), nil, mvpds: [:]) == .integrationInactive)
        #expect(ProfileValidity.needsPartner(profile(.appleSSO)))
        #expect(!ProfileValidity.needsPartner(profile(.regular)))
        #expect(!ProfileValidity.needsPartner(nil))
    }

    // MARK: withDeadline

    @Test func aPromptAnswerIsReturned() async {
        // The deadline is generous: storage tests running beside this one block Swift's
        // cooperative threads while a busy disk syncs, and the answer needs one of them.
        let value = await withDeadline(seconds: 60, fallback: -1) { 42 }
        #expect(value == 42)
    }

    @Test func aSilentPartnerYieldsTheFallback() async throws {
        let late = LateAnswer()
        // Detached: the slow answer ignores the cancellation withDeadline sends it.
        let value = await withDeadline(seconds: 0.05, fallback: -1) {
            await Task.detached {
                // Far past the deadline, however late a loaded machine fires the deadline.
                try? await Task.sleep(nanoseconds: 5_000_000_000)
                late.arrived()
                return 42
            }.value
        }
        #expect(value == -1)
        // The late answer arrives after the deadline and is dropped without harm.
        for _ in 0..<6_000 where !late.hasArrived { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(late.hasArrived)
    }

    @Test func aCallerAlreadyCancelledStartsTheOperationCancelled() async {
        let caller = Task { () -> Bool in
            while !Task.isCancelled { await Task.yield() }
            // The operation of a cancelled caller is a task of its own, queued behind every
            // other test's work on Swift's cooperative pool: one CI run kept it waiting over
            // 60 s. The deadline must not decide this test, so it is an hour away.
            return await withDeadline(seconds: 3600, fallback: false) { Task.isCancelled }
        }
        caller.cancel()
        #expect(await caller.value, "the operation ran uncancelled for a cancelled caller")
    }
}

/// Notes that a slow operation finished after its deadline.
private final class LateAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func arrived() { lock.withLock { flag = true } }
    var hasArrived: Bool { lock.withLock { flag } }
}
