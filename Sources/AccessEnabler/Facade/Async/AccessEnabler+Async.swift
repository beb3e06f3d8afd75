import Foundation

/// The async API: every facade call as `try await`, returning its terminal outcome.
///
/// It runs on the same engine as the callback API, in the same call order, and the
/// delegates still receive every callback, so the two can be mixed. The names differ from
/// the callback API's on purpose: a legacy `ae.checkAuthentication()` written inside an
/// `async` function must keep calling the callback API, and Swift would pick a same-named
/// `async` method there instead.
///
/// | callback API | async API | returns |
/// |---|---|---|
/// | `setRequestor` | ``configure(requestor:serviceProviders:)`` | (throws on failure) |
/// | `checkAuthentication` | ``authenticationStatus()`` | ``AuthenticationStatus`` |
/// | `getAuthentication` | ``authenticate(forceAuthn:filter:featured:withData:)`` | ``AuthenticationStep`` |
/// | `setSelectedProvider` | ``selectProvider(_:)`` | ``AuthenticationStep`` |
/// | (second screen) | ``secondScreenSignIn()`` | ``AuthenticationStep`` |
/// | `handleExternalURL` | ``handleRedirect(_:)`` | ``AuthenticationStatus`` |
/// | `checkAuthorization` | ``mediaToken(for:withData:)`` | ``MediaToken`` |
/// | `getAuthorization` | ``authorize(_:withData:)`` | ``MediaToken`` |
/// | `checkPreauthorizedResources` | ``preauthorizedResources(_:cache:)`` | `[String]` |
/// | `logout` | ``signOut()`` | ``SignOutStep`` |
/// | `getSelectedProvider` | ``selectedProvider()`` | `MVPD?` |
/// | `getMetadata` | ``metadata(_:)`` | ``MetadataResult`` |
///
/// Failures throw ``AccessEnablerError``, and ``AccessEnablerThrottledError`` (with the
/// seconds to wait) when Adobe Pass throttled the call; a cancelled task throws
/// `CancellationError` at once. Cancelling a wait for a person (the picker, a login page, a second-screen code)
/// also backs out of that authentication, as `setSelectedProvider(nil)` would.
extension AccessEnabler {
    /// Every callback from now on, as values, in delivery order. Each access starts a new
    /// stream; it ends when the AccessEnabler goes away or the consumer stops iterating.
    public var events: AsyncStream<AccessEnablerEvent> { eventHub.subscribe() }

    // MARK: Requestor

    /// `setRequestor`: loads the requestor's configuration (and, with a partner framework,
    /// the silent sign-in). Throws ``AccessEnablerError`` with the status (CFG400, CFG404,
    /// CFG429, R400, …) when it fails.
    public func configure(requestor: String, serviceProviders: [String]? = nil) async throws {
        setupAdvice.requestorSet()
        let reply = try await ask(.setRequestor(requestor, serviceProviders: serviceProviders)) {
            if case .setRequestorComplete = $0 { .terminal } else { .more }
        }
        guard case .setRequestorComplete(ACCESS_ENABLER_STATUS_SUCCESS) = reply.terminal else {
            let status = reply.statuses.last
            throw AccessEnablerThrottledError.failure(
                errorCode: "REQUESTOR_ERROR", status: status, message: status?.message ?? "setRequestor failed.")
        }
    }

    // MARK: Authentication

    /// `checkAuthentication`: whether the user is authenticated, from storage (no network).
    public func authenticationStatus() async throws -> AuthenticationStatus {
        let reply = try await ask(.checkAuthentication, until: Self.authenticationStatusEnds)
        return try Self.authenticationStatus(reply)
    }

    /// `getAuthentication`: the user is authenticated, or the next step for the app or the
    /// person. `filter` and `featured` shape the system TV provider picker. `data` is the
    /// legacy `withData:` dictionary: the identity of a promotional TempPass (for example
    /// `["email": "…"]`), sent as `AP-TempPass-Identity` with the TempPass requests.
    public func authenticate(
        forceAuthn: Bool = false, filter: [String]? = nil, featured: [String] = [],
        withData data: [String: String]? = nil
    ) async throws -> AuthenticationStep {
        let picker = filter.map { PickerFilter(providers: $0, featured: featured) }
        return try await step(.getAuthentication(forceAuthn: forceAuthn, data: data, filter: picker))
    }

    /// `setSelectedProvider`: continues with the MVPD the user chose (`nil`: the user backed
    /// out, which throws with `PROVIDER_NOT_SELECTED_ERROR`).
    public func selectProvider(_ mvpdID: String?) async throws -> AuthenticationStep {
        try await step(.setSelectedProvider(mvpdID))
    }

    /// Waits for the second-screen sign-in that the last ``AuthenticationStep/enterCodeOnSecondScreen(code:)``
    /// started: ``AuthenticationStep/authenticated``, or throws when the code expired or the
    /// flow ended another way. Cancelling the task backs out of the sign-in.
    public func secondScreenSignIn() async throws -> AuthenticationStep {
        guard let call = asyncState.withLock({ $0.secondScreenCall }), replies.hasStage(1, of: call) else {
            throw AccessEnablerError(
                errorCode: GENERIC_AUTHENTICATION_ERROR,
                message: "No second-screen sign-in is waiting: call authenticate() or selectProvider(_:) first.")
        }
        let reply = await replies.reply(for: call, stage: 1)
        if reply.cancelled {
            setSelectedProvider(nil)
            throw CancellationError()
        }
        return try Self.step(from: reply)
    }

    /// `handleExternalURL`: the web view reached the redirect URL. Completes a login (the
    /// SDK polls for the profile until it is there) or a logout's last page; for a logout
    /// page, ``handleLogoutRedirect(_:)`` also answers the next page to open.
    public func handleRedirect(_ url: String) async throws -> AuthenticationStatus {
        let reply = try await ask(.handleExternalURL(url), until: Self.authenticationStatusEnds)
        return try Self.authenticationStatus(reply)
    }

    // MARK: Authorization

    /// `checkAuthorization`: the media token for `resource`, for an authenticated user.
    /// `data` is the legacy `withData:` dictionary (a promotional TempPass's identity).
    public func mediaToken(for resource: String, withData data: [String: String]? = nil) async throws -> MediaToken {
        try Self.token(try await ask(.checkAuthorization(resource, data: data), until: Self.authorizationEnds))
    }

    /// `getAuthorization`: the media token for `resource`, authenticating first when
    /// needed (the provider dialog or login page then reaches the app through ``events``
    /// and the delegates, and the app answers with ``selectProvider(_:)``).
    /// `data` is the legacy `withData:` dictionary (a promotional TempPass's identity).
    public func authorize(_ resource: String, withData data: [String: String]? = nil) async throws -> MediaToken {
        try Self.token(try await ask(.getAuthorization(resource, data: data), until: Self.authorizationEnds))
    }

    /// `checkPreauthorizedResources`: which of `resources` the user may play. Throws
    /// ``AccessEnablerThrottledError`` when Adobe Pass throttled the preauthorization (the
    /// callback API's `preauthorizedResources([])` with P100): nothing was decided.
    public func preauthorizedResources(_ resources: [String], cache: Bool = true) async throws -> [String] {
        let reply = try await ask(.checkPreauthorizedResources(resources, cache: cache)) {
            if case .preauthorizedResources = $0 { .terminal } else { .more }
        }
        if let throttled = reply.statuses.last(where: { $0.retryAfter != nil }) {
            throw AccessEnablerThrottledError.failure(
                errorCode: GENERIC_AUTHORIZATION_ERROR, status: throttled, message: throttled.message ?? "Throttled.")
        }
        guard case .preauthorizedResources(let permitted) = reply.terminal else { return [] }
        return permitted
    }

    /// The Preauthorize API: the decisions (with their reasons) or the Adobe Pass error as
    /// a response; throws ``AccessEnablerError`` (`errorCode` = the failure's code) when the
    /// SDK could not ask.
    public func preauthorize(_ request: PreauthorizeRequest) async throws -> PreauthorizeResponse {
        let reply = try await ask(
            .preauthorize(request, AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in }))
        ) {
            if case .preauthorizeResult = $0 { .terminal } else { .more }
        }
        guard case .preauthorizeResult(let outcome, _) = reply.terminal else { return PreauthorizeResponse() }
        if case .throttled(let wait) = outcome {
            let message = outcome.response.status?.message ?? "Adobe Pass throttled this device."
            let p100 = StatusCatalog.status(.p100, message: message, details: ThrottleNotice.details(seconds: wait))
            let status = ThrottleNotice.withWait(p100, seconds: wait)
            throw AccessEnablerThrottledError(
                retryAfter: wait, errorCode: "too_many_requests", status: status, message: message)
        }
        if outcome.isFailure {
            let status = outcome.response.status
            throw AccessEnablerError(
                errorCode: status?.code ?? "preauthorization_failed",
                message: status?.message ?? "The preauthorization could not be requested.")
        }
        return outcome.response
    }

    // MARK: Session

    /// `logout`: signs the user out (on iOS a regular MVPD's logout page may need opening first).
    public func signOut() async throws -> SignOutStep {
        Self.signOutStep(try await ask(.logout, until: Self.signOutStepEnds))
    }

    /// `handleExternalURL` for a logout page: its web view reached the redirect URL. Answers
    /// the next MVPD logout page to open (iOS, when the device held several profiles with a
    /// page each), or the end of the sign-out.
    public func handleLogoutRedirect(_ url: String) async throws -> SignOutStep {
        Self.signOutStep(try await ask(.handleExternalURL(url), until: Self.signOutStepEnds))
    }

    private static let signOutStepEnds: @Sendable (DelegateCall) -> ReplyRouter.Disposition = { call in
        switch call {
        case .setAuthenticationStatus, .navigateToUrl, .navigateToUrlUsingSVC: .terminal
        default: .more
        }
    }

    private static func signOutStep(_ reply: ReplyRouter.Reply) -> SignOutStep {
        switch reply.terminal {
        case .navigateToUrl(let url), .navigateToUrlUsingSVC(let url, _): .openLogoutPage(url: url)
        default:
            .signedOut(
                status: reply.statuses.last { $0.errorId != .logoutPage },
                logoutPages: reply.statuses.filter { $0.errorId == .logoutPage }.compactMap(\.details))
        }
    }

    /// `getSelectedProvider`: the MVPD of the current authentication, or `nil`.
    public func selectedProvider() async throws -> MVPD? {
        let reply = try await ask(.getSelectedProvider) { if case .selectedProvider = $0 { .terminal } else { .more } }
        guard case .selectedProvider(let mvpd) = reply.terminal else { return nil }
        return mvpd
    }

    /// `getMetadata`: the value for the legacy keys dictionary (`METADATA_OPCODE_KEY`, …).
    public func metadata(_ keys: [String: Any]) async throws -> MetadataResult {
        let command = Command.getMetadata(
            MetadataQuery(dictionary: keys), arguments: MetadataArguments(dictionary: keys))
        let reply = try await ask(command) { if case .setMetadataStatus = $0 { .terminal } else { .more } }
        guard case .setMetadataStatus(let value, let encrypted, let key, _) = reply.terminal else {
            return MetadataResult(value: nil, encrypted: false, key: -1)
        }
        return MetadataResult(value: value, encrypted: encrypted, key: key)
    }

    // MARK: Plumbing

    /// How many async calls are waiting for their reply now (for test rigs: a call is known
    /// to be in the SDK's hands once this counts it).
    package var callsAwaitingReply: Int { replies.waitingCount }

    /// Submits `command` as a call of its own and waits for its terminal callback.
    func ask(_ command: Command, until disposition: @escaping @Sendable (DelegateCall) -> ReplyRouter.Disposition)
        async throws -> ReplyRouter.Reply
    {
        try Task.checkCancellation()
        let call = replies.newCall()
        replies.expect(call, until: disposition)
        submit(command, call: call)
        let reply = await replies.reply(for: call)
        if reply.cancelled { throw CancellationError() }
        return reply
    }

    /// An authentication call: its step, backing out of the flow when the task is cancelled
    /// while the flow waits for a person.
    private func step(_ command: Command) async throws -> AuthenticationStep {
        let call = replies.newCall()
        replies.expect(call, until: Self.authenticationStepEnds)
        submit(command, call: call)
        let reply = await replies.reply(for: call)
        if reply.cancelled {
            setSelectedProvider(nil)
            throw CancellationError()
        }
        if replies.hasStage(1, of: call) {
            asyncState.withLock { $0.secondScreenCall = call }
        }
        return try Self.step(from: reply)
    }

    private static let authenticationStatusEnds: @Sendable (DelegateCall) -> ReplyRouter.Disposition = {
        if case .setAuthenticationStatus = $0 { .terminal } else { .more }
    }

    private static let authorizationEnds: @Sendable (DelegateCall) -> ReplyRouter.Disposition = { call in
        switch call {
        case .setToken, .tokenRequestFailed: .terminal
        default: .more
        }
    }

    /// Where an authentication call ends: a hand-over to the app, a registration code (the
    /// SDK carries on to `setAuthenticationStatus`), or `setAuthenticationStatus`.
    static let authenticationStepEnds: @Sendable (DelegateCall) -> ReplyRouter.Disposition = { call in
        switch call {
        case .setAuthenticationStatus, .displayProviderDialog, .navigateToUrl, .navigateToUrlUsingSVC:
            return .terminal
        case .status(let status) where status.errorId == .regcode:
            return .handOver(next: authenticationStatusEnds)
        default:
            return .more
        }
    }

    static func step(from reply: ReplyRouter.Reply) throws -> AuthenticationStep {
        switch reply.terminal {
        case .setAuthenticationStatus(ACCESS_ENABLER_STATUS_SUCCESS, _): return .authenticated
        case .setAuthenticationStatus(_, let code):
            let status = reply.statuses.last
            throw AccessEnablerThrottledError.failure(errorCode: code, status: status, message: status?.message ?? code)
        case .displayProviderDialog(let mvpds): return .chooseProvider(mvpds)
        case .navigateToUrl(let url): return .openLoginPage(url: url, useSVC: false)
        case .navigateToUrlUsingSVC(let url, let svc): return .openLoginPage(url: url, useSVC: svc)
        case .status(let status) where status.errorId == .regcode:
            return .enterCodeOnSecondScreen(code: status.details ?? "")
        default:
            throw AccessEnablerError(
                errorCode: GENERIC_AUTHENTICATION_ERROR, message: "The authentication ended without an answer.")
        }
    }

    private static func authenticationStatus(_ reply: ReplyRouter.Reply) throws -> AuthenticationStatus {
        guard case .setAuthenticationStatus(let status, let code) = reply.terminal else {
            throw AccessEnablerError(
                errorCode: GENERIC_AUTHENTICATION_ERROR, message: "The call ended without an authentication status.")
        }
        return AuthenticationStatus(
            isAuthenticated: status == ACCESS_ENABLER_STATUS_SUCCESS, errorCode: code, status: reply.statuses.last)
    }

    private static func token(_ reply: ReplyRouter.Reply) throws -> MediaToken {
        switch reply.terminal {
        case .setToken(let token, let resource):
            return MediaToken(resource: resource, serializedToken: token, status: reply.statuses.last)
        case .tokenRequestFailed(_, let code, let description):
            let status = reply.statuses.last
            throw AccessEnablerThrottledError.failure(
                errorCode: code, status: status, message: description.isEmpty ? (status?.message ?? code) : description)
        default:
            throw AccessEnablerError(
                errorCode: GENERIC_AUTHORIZATION_ERROR, message: "The authorization ended without an answer.")
        }
    }
}
