import Foundation

/// Where the interactive part of authentication and logout stands between facade calls.
///
/// A pure state machine: the engine feeds it what happened (a provider dialog was shown,
/// a login page opened, a redirect came back) and asks it what a call means now. It does
/// no I/O, so every transition is testable on its own.
struct AuthenticationFlow: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Nothing is waiting for the application.
        case idle
        /// `displayProviderDialog` was delivered; waiting for `setSelectedProvider`.
        case choosingProvider
        /// `navigateToUrl` opened the MVPD login for a session; waiting for `handleExternalURL`.
        case awaitingLogin(mvpd: String, code: String)
        /// `navigateToUrl` opened the MVPD logout page; waiting for `handleExternalURL`.
        case awaitingLogoutRedirect
    }

    /// What a `handleExternalURL` completes.
    enum RedirectOutcome: Sendable, Equatable {
        case completeLogin(mvpd: String, code: String)
        case completeLogout
        case nothingPending
    }

    /// An authorization waiting for authentication to finish (`getAuthorization`).
    struct PendingAuthorization: Sendable, Equatable {
        var resource: String
        var data: [String: String]?
    }

    private(set) var state: State = .idle
    /// Set by `getAuthorization` when it had to start authentication first.
    var pendingAuthorization: PendingAuthorization?

    /// `true` while an authentication is waiting for the application.
    var isAuthenticationPending: Bool {
        switch state {
        case .choosingProvider, .awaitingLogin: true
        case .idle, .awaitingLogoutRedirect: false
        }
    }

    /// `true` while `setSelectedProvider` continues a flow.
    var isChoosingProvider: Bool { state == .choosingProvider }

    mutating func providerDialogShown() { state = .choosingProvider }

    mutating func loginPageOpened(mvpd: String, code: String) { state = .awaitingLogin(mvpd: mvpd, code: code) }

    mutating func logoutPageOpened() { state = .awaitingLogoutRedirect }

    /// Back to idle; a pending authorization is dropped with it.
    mutating func reset() {
        state = .idle
        pendingAuthorization = nil
    }

    /// A redirect arrived: says what it completes and returns to idle (a login redirect keeps
    /// the pending authorization so it can run once the profile is stored).
    mutating func redirectReceived() -> RedirectOutcome {
        switch state {
        case .awaitingLogin(let mvpd, let code):
            state = .idle
            return .completeLogin(mvpd: mvpd, code: code)
        case .awaitingLogoutRedirect:
            state = .idle
            return .completeLogout
        case .idle, .choosingProvider:
            return .nothingPending
        }
    }

    /// Takes the authorization that was waiting for authentication, if any.
    mutating func takePendingAuthorization() -> PendingAuthorization? {
        defer { pendingAuthorization = nil }
        return pendingAuthorization
    }
}
