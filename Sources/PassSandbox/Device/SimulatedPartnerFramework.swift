import AccessEnabler
import Foundation

/// A simulated device's TV-provider account service (the Video Subscriber Account
/// framework stand-in) backed by a ``PassSandbox``: permission state with a prompt
/// answer, a system-level sign-in with expiry, a scripted provider picker, injected
/// failures, and SAML responses the sandbox verifies.
///
/// Every property may change between steps of a scenario; calls are recorded in ``calls``.
public final class SimulatedPartnerFramework: PartnerFramework, @unchecked Sendable {
    private let lock = NSLock()
    private let sandbox: PassSandbox
    private var state: State

    private struct State {
        var accessStatus: SimulatedAccessStatus
        var promptAnswer: SimulatedAccessStatus
        var signedIn: SystemSignIn?
        var picker: [PickerChoice]
        var failure: PartnerFrameworkError?
        var calls: [PartnerCall] = []
        var answersAtHand = true
    }

    /// Creates a device.
    /// - Parameters:
    ///   - accessStatus: the permission state.
    ///   - promptAnswer: what the user answers when prompted while `notDetermined`.
    ///   - signedIn: the system-level sign-in, if any.
    ///   - picker: the picker script, consumed one entry per interactive request.
    ///   - failure: when set, every metadata request fails with it.
    public init(
        sandbox: PassSandbox, accessStatus: SimulatedAccessStatus = .granted,
        promptAnswer: SimulatedAccessStatus = .granted,
        signedIn: SystemSignIn? = nil, picker: [PickerChoice] = [], failure: PartnerFrameworkError? = nil
    ) {
        self.sandbox = sandbox
        state = State(
            accessStatus: accessStatus, promptAnswer: promptAnswer, signedIn: signedIn, picker: picker, failure: failure
        )
    }

    /// The permission state.
    public var accessStatus: SimulatedAccessStatus {
        get { lock.withLock { state.accessStatus } }
        set { lock.withLock { state.accessStatus = newValue } }
    }

    /// What the user answers when prompted while the permission is `notDetermined`.
    public var promptAnswer: SimulatedAccessStatus {
        get { lock.withLock { state.promptAnswer } }
        set { lock.withLock { state.promptAnswer = newValue } }
    }

    /// The system-level sign-in, if any (an expired one still shows here, and to silent
    /// metadata reads, until an interactive or SAML request replaces it).
    public var signedIn: SystemSignIn? {
        get { lock.withLock { state.signedIn } }
        set { lock.withLock { state.signedIn = newValue } }
    }

    /// The picker script still to be consumed.
    public var picker: [PickerChoice] {
        get { lock.withLock { state.picker } }
        set { lock.withLock { state.picker = newValue } }
    }

    /// The failure every metadata request ends with, if any.
    public var failure: PartnerFrameworkError? {
        get { lock.withLock { state.failure } }
        set { lock.withLock { state.failure = newValue } }
    }

    /// The calls received so far, in order.
    public var calls: [PartnerCall] { lock.withLock { state.calls } }

    /// Signs out at system level.
    public func signOut() {
        lock.withLock { state.signedIn = nil }
    }

    // MARK: PartnerFramework

    /// The permission state; when `notDetermined` and `prompt` is `true`, the user answers
    /// ``promptAnswer`` and that answer is remembered.
    public func accessStatus(prompt: Bool) async -> PartnerAccessResult {
        answerAccessStatus(prompt: prompt)
    }

    /// Whether the device answers the silent questions at hand
    /// (``accessStatusAtHand()``, ``accountMetadataAtHand(_:)``), as a device that keeps
    /// them in memory does; `false` makes the SDK ask them through the `async` methods, as it
    /// asks a framework that must wait for its answers. `true` by default.
    public var answersAtHand: Bool {
        get { lock.withLock { state.answersAtHand } }
        set { lock.withLock { state.answersAtHand = newValue } }
    }

    /// ``accessStatus(prompt:)`` without a prompt, answered at once (recorded as that call),
    /// unless ``answersAtHand`` is `false`.
    public func accessStatusAtHand() -> PartnerAccessResult? {
        guard answersAtHand else { return nil }
        return answerAccessStatus(prompt: false)
    }

    /// ``accountMetadata(_:)`` for a request that allows no interruption, answered at once
    /// (recorded as that call), unless ``answersAtHand`` is `false`.
    public func accountMetadataAtHand(_ request: PartnerMetadataRequest) -> Result<
        PartnerAccountMetadata, PartnerFrameworkError
    >? {
        guard answersAtHand, !request.isInterruptionAllowed else { return nil }
        do throws(PartnerFrameworkError) {
            return .success(try answerAccountMetadata(request))
        } catch {
            return .failure(error)
        }
    }

    private func answerAccessStatus(prompt: Bool) -> PartnerAccessResult {
        lock.withLock {
            state.calls.append(.accessStatus(prompt: prompt))
            if prompt, state.accessStatus == .notDetermined { state.accessStatus = state.promptAnswer }
            return state.accessStatus.result
        }
    }

    /// Reads the system-level account:
    /// - ``failure`` set → throws it; permission not granted → `.accessNotGranted`;
    /// - signed in and not expired → the provider, expiry and (when the request carries a
    ///   SAML request) a SAML response the sandbox mints for that user;
    /// - signed in but expired, read without interruption or SAML request → the provider
    ///   with its past expiry (the device token expired; the account is still there);
    /// - nobody signed in and no interruption allowed → metadata without a provider;
    /// - otherwise the next picker entry: `.select` signs in at system level (for the
    ///   MVPD's authentication TTL, or 24 hours) and answers; `.other` throws
    ///   `.otherProviderSelected`; `.cancel` or an empty script throws `.userCancelled`.
    ///
    /// A provider the requestor does not support is answered as it is. Selecting a provider
    /// whose MVPD is only in the picker (`boardingStatus` not `SUPPORTED`) answers its id
    /// without a lasting system-level sign-in, as the real picker hands such a choice back
    /// to the application.
    public func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        try answerAccountMetadata(request)
    }

    private func answerAccountMetadata(_ request: PartnerMetadataRequest) throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
    {
        let now = sandbox.clock.now
        let signIn: SystemSignIn
        let outcome: Result<SystemSignIn?, PartnerFrameworkError> = lock.withLock {
            state.calls.append(.accountMetadata(request))
            if let failure = state.failure { return .failure(failure) }
            guard state.accessStatus == .granted else { return .failure(.accessNotGranted) }
            if let current = state.signedIn {
                if now < current.expiresAt { return .success(current) }
                // An expired device token still names its provider (with its past expiry) to
                // a silent read; the application decides what it is worth.
                if !request.isInterruptionAllowed, request.samlRequest == nil { return .success(current) }
                state.signedIn = nil
            }
            guard request.isInterruptionAllowed else { return .success(nil) }
            guard !state.picker.isEmpty else { return .failure(.userCancelled) }
            switch state.picker.removeFirst() {
            case .other: return .failure(.otherProviderSelected)
            case .cancel: return .failure(.userCancelled)
            case .select(let provider, let user):
                let choice = SystemSignIn(
                    provider: provider, username: user, expiresAt: now.addingTimeInterval(signInLifetime(provider)))
                if boarded(provider) { state.signedIn = choice }
                return .success(choice)
            }
        }
        switch outcome {
        case .failure(let error): throw error
        case .success(nil): return PartnerAccountMetadata(accountProviderIdentifier: nil)
        case .success(let found?): signIn = found
        }
        var samlResponse: String?
        if let samlRequest = request.samlRequest {
            switch sandbox.mintSAMLResponse(
                samlRequest: samlRequest, providerMappingID: signIn.provider, username: signIn.username)
            {
            case .success(let response): samlResponse = response
            case .failure(let error): throw error
            }
        }
        return PartnerAccountMetadata(
            accountProviderIdentifier: request.includeAccountProviderIdentifier ? signIn.provider : nil,
            authenticationExpirationDate: request.includeAuthenticationExpirationDate ? signIn.expiresAt : nil,
            samlResponse: samlResponse)
    }

    /// The MVPDs (any requestor) whose platform mapping id is `provider`.
    private func mvpds(for provider: String) -> [SandboxMVPDConfig] {
        sandbox.world.serviceProviders.flatMap(\.mvpds).filter { $0.platformMappingId == provider }
    }

    private func signInLifetime(_ provider: String) -> TimeInterval {
        TimeInterval(mvpds(for: provider).first?.authenticationTTL ?? 86_400)
    }

    /// A provider the platform does not know (no MVPD maps to it) counts as boarded: the
    /// system-level sign-in is kept, and the application decides it is unsupported.
    private func boarded(_ provider: String) -> Bool {
        let known = mvpds(for: provider)
        return known.isEmpty || known.contains { $0.boardingStatus == "SUPPORTED" }
    }
}
