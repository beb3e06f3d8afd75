import AccessEnabler
import Foundation
import PassSandbox
import Testing

@testable import AccessEnablerScenarios

/// Shared pieces of the partner (Apple) single sign-on end-to-end suites.
enum Partner {
    /// The DCR and configuration calls every first `setRequestor` makes.
    /// A first launch with a partner framework and no profile in force: registration, the
    /// profiles, then the configuration the partner framework's silent questions need.
    static let launchCalls = [
        "POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles",
        "GET /api/v2/REF30/configuration",
    ]
    /// A first launch without a partner framework: registration and the profiles.
    static let regularLaunchCalls = ["POST /o/client/register", "POST /o/client/token", "GET /api/v2/REF30/profiles"]
    /// The silent exchange of a system-level sign-in for an Adobe profile.
    static let exchangeCalls = ["POST /api/v2/REF30/sessions/sso/Apple", "POST /api/v2/REF30/profiles/sso/Apple"]
    /// Every MVPD of REF30 in configuration order (Inactive is absent: its integration is off).
    static let allMVPDs =
        "displayProviderDialog(AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider)"
    /// The default picker: the MVPDs shown in the platform picker, in configuration order.
    static let pickerIDs = "AppleBoarded,PickerOnly,SSODisabled,Degraded"
    static let notAuthenticated = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
    static let authenticated = "setAuthenticationStatus(1,)"

    /// A rig whose device is present, granted, and signed in at system level to `provider`
    /// (or to nobody) for `expiresIn` seconds.
    static func rig(
        _ wire: ScenarioRunner.Wire, signedIn provider: String? = "AppleBoarded", expiresIn: TimeInterval = 86_400,
        platform: AccessEnablerConfiguration.Platform = .tvOS,
        _ more: (inout Scenario) -> Void = { _ in }
    ) throws -> Rig {
        try Rig(wire) { scenario in
            scenario.platform = platform
            scenario.device.present = true
            scenario.device.signedIn = provider.map {
                Scenario.SignIn(provider: $0, user: "alice", expiresIn: expiresIn)
            }
            more(&scenario)
        }
    }

    /// A device change that signs in at system level (or out, with `nil`).
    static func signIn(_ provider: String?, expiresIn: TimeInterval = 86_400) -> Scenario.Step {
        .device(
            Scenario.DeviceChange(
                signedIn: .some(provider.map { Scenario.SignIn(provider: $0, user: "alice", expiresIn: expiresIn) })))
    }

    static func access(_ status: String, prompt: String? = nil) -> Scenario.Step {
        .device(Scenario.DeviceChange(accessStatus: status, promptAnswer: prompt))
    }

    static func picker(_ entries: [Scenario.PickerEntry]) -> Scenario.Step {
        .device(Scenario.DeviceChange(picker: entries))
    }

    static func failure(_ caseName: String?) -> Scenario.Step {
        .device(Scenario.DeviceChange(failure: .some(caseName)))
    }

    static let setRequestor = Scenario.Step.setRequestor("REF30", serviceProviders: nil)
    static let getAuthentication = Scenario.Step.getAuthentication(forceAuthn: false, filter: [], featured: [])
    static let forcedGetAuthentication = Scenario.Step.getAuthentication(forceAuthn: true, filter: [], featured: [])
    static let tokenSource = Scenario.Step.getMetadata(opCode: "userMeta", key: "tokenSource", resource: nil)
    static let authenticationExpiry = Scenario.Step.getMetadata(opCode: "authentication", key: nil, resource: nil)

    /// `getMetadata(METADATA_AUTHENTICATION)`'s value as a date, or `nil` when not authenticated.
    static func profileExpiry(_ rig: Rig) async throws -> Date? {
        try await rig.run(authenticationExpiry)
        guard let value = rig.lastLines.last?["metadata"]?.stringValue, let ms = Double(value) else { return nil }
        return Date(timeIntervalSince1970: ms / 1000)
    }
}

extension Rig {
    /// The partner calls the simulated device received since `start` (an index into `calls`).
    func deviceCalls(since start: Int) -> [PartnerCall] {
        Array((device?.calls ?? []).dropFirst(start))
    }

    var deviceCallCount: Int { device?.calls.count ?? 0 }

    /// Runs `step` and returns its callback signatures together with the partner calls it caused.
    func runRecordingDevice(_ step: Scenario.Step) async throws -> (callbacks: [String], device: [PartnerCall]) {
        let before = deviceCallCount
        let callbacks = try await run(step)
        return (callbacks, deviceCalls(since: before))
    }
}

extension PartnerCall {
    /// The metadata request, when this is one.
    var metadataRequest: PartnerMetadataRequest? {
        if case .accountMetadata(let request) = self { return request }
        return nil
    }

    /// `true` for a permission query that may prompt.
    var isPrompting: Bool { self == .accessStatus(prompt: true) }
}

/// The partner calls of a status check: a non-prompting permission query and, when granted,
/// non-interrupting metadata requests only.
func expectNoInterruption(_ calls: [PartnerCall], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!calls.isEmpty, "the partner framework should have been asked", sourceLocation: sourceLocation)
    for call in calls {
        switch call {
        case .accessStatus(let prompt):
            #expect(prompt == false, "a status check must not prompt", sourceLocation: sourceLocation)
        case .accountMetadata(let request):
            #expect(
                request.isInterruptionAllowed == false, "a status check must not interrupt the user",
                sourceLocation: sourceLocation)
        }
    }
}
