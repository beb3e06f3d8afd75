import Foundation

/// Where interactive authentication (and the logout round trip) stands, and what each event
/// means for it. Pure: events in, the engine's actions out, no I/O. Part of
/// ``EngineStateMachine``, which forwards it the facade's calls and the child tasks' answers
/// as they came (a `POST sessions` answer, a poll's, a logout's), with the facts of the moment
/// in the event's ``EngineStateMachine/Step`` and what it decides by in an
/// ``AuthenticationContext``. It writes the engine's own actions into the step — callbacks,
/// child tasks, storage writes — and the engine's machine never reads its state to interpret
/// an answer, the way async-http-client's connection pool hands each event to its HTTP/1 or
/// HTTP/2 machine and runs the action it returns.
///
/// It knows which call each flow belongs to (``owner``: the last call that carried the
/// flow on), so every callback it delivers names the call it ends.
///
/// Its one invariant: **an authentication that has begun ends exactly once, and a
/// `getAuthorization` waiting for it always gets its own terminal callback.** Every
/// transition that abandons a flow delivers the callbacks that flow still owes:
/// - a picker that is open is cancelled and its `dismissTVProviderDialog` delivered;
/// - a session being opened (`POST sessions` under way) ends with its own caller's
///   `setAuthenticationStatus(0, …)`, since that caller has had no answer yet;
/// - an authentication in the SDK's hands (picker open, a code being polled) ends with
///   the abandoning call's own `setAuthenticationStatus` when that call ends in one
///   (`setSelectedProvider(nil)`, `logout`, a new `getAuthentication` or
///   `setSelectedProvider`, which carry the authentication on), otherwise
///   (`setRequestor`) with `setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)`;
/// - a waiting `getAuthorization` gets `tokenRequestFailed`, unless a new flow carries the
///   authentication on;
/// - a logout page still waiting for its redirect ends with the logout's
///   `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
///
/// Its transitions sit beside it, one file per phase: the provider choice and the
/// configuration it waits for (`+ProviderChoice`), the partner sign-in (`+PartnerSignIn`),
/// opening a session (`+Session`), the login page's redirect and the polls (`+Polling`), the
/// logout and its pages (`+Logout`), and how a flow ends and what it owes (`+Ending`). The
/// words a person reads are ``StatusSentences``'.
struct AuthenticationStateMachine: Sendable {
    typealias Step = EngineStateMachine.Step

    /// The states between events.
    // Indirect: every AccessEnabler holds one for its life, inline in its engine, and the
    // state is idle almost all of that time.
    indirect enum State: Sendable, Equatable {
        /// Nothing is waiting.
        case idle
        /// The requestor's configuration is being fetched for this flow (a provider list to
        /// show, the partner framework's supported providers, an MVPD the device does not
        /// know): like `POST sessions`, a wait for Adobe Pass that later calls may abandon.
        case awaitingConfiguration(FlowID, for: ConfigurationNeed)
        /// `displayProviderDialog` was delivered; the app answers with `setSelectedProvider`.
        case choosingProvider
        /// The partner sign-in (permission prompt, system picker, exchange) runs as a child
        /// task; `dialog` is the picker while it is on screen.
        case signingInThroughPartner(FlowID, dialog: TVProviderDialog?)
        /// `POST sessions` for this MVPD is under way, or the profile of its `authorize` answer;
        /// `mvpd` `nil`: a session without one, the person chooses on the second screen.
        case openingSession(FlowID, mvpd: String?, step: SessionStep)
        /// `navigateToUrl` opened the MVPD login page; the app answers with `handleExternalURL`.
        case awaitingRedirect(FlowID, AuthenticationSession)
        /// Waiting for the session's profile: a second-screen code, or after the redirect.
        case polling(FlowID, ProfilePolling)
        /// The logout requests are under way (the profiles are removed from the device already).
        case loggingOut(LogoutRequest)
        /// `navigateToUrl` opened `page`, an MVPD logout page of `ticket`'s logout;
        /// `handleExternalURL` opens the next of `remaining`, or completes the logout after the last.
        case awaitingLogoutRedirect(RequestTicket, page: LogoutPage, remaining: [LogoutPage])
    }

    /// What a flow waiting for the configuration does with it.
    enum ConfigurationNeed: Sendable, Equatable {
        /// Let the person choose: the partner framework's picker, or the app's provider
        /// dialog (`getAuthentication`, or `getAuthorization`'s authentication).
        case providerChoice(PickerFilter?)
        /// `setSelectedProvider` with an MVPD the device knows nothing about.
        case selectedProvider(String)
    }

    /// How far a session being opened has come.
    enum SessionStep: Sendable, Equatable {
        /// `POST sessions` is under way.
        case creating
        /// The session answered `authorize`: its profile is being fetched; `note` is the
        /// status the sign-in carries (N011 for TempPass, N010 for a degraded MVPD).
        case fetchingProfile(note: AdvancedStatus?)
    }

    /// Who asked for authentication.
    enum Caller: Sendable, Equatable {
        /// `getAuthentication`: ends in `setAuthenticationStatus`.
        case getAuthentication(CallID?)
        /// `getAuthorization` of a user who is not authenticated: ends in `setToken` or
        /// `tokenRequestFailed`, after the authentication.
        case getAuthorization(PendingAuthorization)

        /// The call the callbacks of the request belong to.
        var call: CallID? {
            switch self {
            case .getAuthentication(let call): call
            case .getAuthorization(let pending): pending.owner
            }
        }
    }

    /// Where the MVPD login happens.
    enum LoginScreen: Sendable, Equatable {
        /// On this device: `navigateToUrl`.
        case thisDevice
        /// On another device, with a registration code: status `REGCODE`, then polling.
        case secondScreen(pollInterval: TimeInterval)
    }

    /// How the partner sign-in child task ended.
    enum PartnerSignInOutcome: Sendable, Equatable {
        /// Continue with the regular flow: the status that explains why (if any), then
        /// `displayProviderDialog`.
        case showProviderDialog(AdvancedStatus?)
        /// Continue with this MVPD's regular login, in the session Adobe Pass already
        /// opened when it opened one.
        case regularLogin(mvpd: String, opened: SessionAction?)
        /// The partner sign-in was exchanged for this profile (`degraded`: N010 applies).
        case signedIn(StoredProfile, status: AdvancedStatus?)
        /// Authentication failed.
        case failed(AdvancedStatus)
    }

    /// Why a session being opened is abandoned: by which call, and so with which code its
    /// own caller's `setAuthenticationStatus` ends.
    enum Abandonment: Sendable, Equatable {
        /// `setSelectedProvider(nil)`: the user backed out.
        case backedOut
        /// A new `getAuthentication` or `setSelectedProvider`.
        case replaced
        /// `logout`.
        case loggedOut
        /// `setRequestor` for another requestor.
        case requestorChanged
        /// The app released the AccessEnabler.
        case released
    }

    // Changed only by the transitions beside this file (they live in extensions of their
    // own files, so these setters cannot be private); the engine's machine reads none of it
    // but ``awaitsServer``.

    var state: State = .idle
    /// The authorization waiting for this authentication.
    var pendingAuthorization: PendingAuthorization?
    /// The call the flow in progress belongs to: the last call that carried it on.
    var owner: CallID?
    /// Calls whose flow a later call carried on (or ended) before they had any answer — a
    /// partner sign-in that setSelectedProvider or logout took over: the answer that ends
    /// the flow next ends them too (the delegate hears it once; each call's reply has it).
    var carriedOver: [CallID] = []
    /// Whether ``owner`` has had its answer (a hand-over or its status): a flow whose owner
    /// has not is owed to it when another call takes the flow over.
    var ownerAnswered = true
    private var flowCounter: UInt64 = 0

    /// Whether a request of the session (or the configuration it needs) or of the logout
    /// is under way: the calls made meanwhile wait for its answer (or abandon the session,
    /// see ``abandonOpeningSession(_:_:)``). The one thing the engine's machine asks of this
    /// one: whether its queue of calls must wait.
    var awaitsServer: Bool {
        switch state {
        case .awaitingConfiguration, .openingSession, .loggingOut: true
        case .idle, .choosingProvider, .signingInThroughPartner, .awaitingRedirect, .polling, .awaitingLogoutRedirect:
            false
        }
    }

    /// Whether a session is being opened, or the configuration it needs fetched.
    var isOpeningSession: Bool {
        switch state {
        case .awaitingConfiguration, .openingSession: true
        default: false
        }
    }

    /// A new flow's identity.
    mutating func newFlow() -> FlowID {
        flowCounter += 1
        return FlowID(value: flowCounter)
    }

    /// The waiting authorization, taken.
    mutating func takePending() -> PendingAuthorization? {
        defer { pendingAuthorization = nil }
        return pendingAuthorization
    }

    /// The calls the next answer of the authentication ends besides its own (see ``carriedOver``).
    mutating func takeCarriedOver() -> [CallID] {
        defer { carriedOver = [] }
        return carriedOver
    }
}
