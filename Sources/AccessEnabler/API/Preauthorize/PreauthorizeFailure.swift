import Foundation

/// Why the SDK itself could not serve a Preauthorize API call: the failures the legacy
/// documentation lists, each with its code, a message a person can act on, and the
/// recommended action. Delivered to `onFailure` as a ``PreauthorizeStatus`` with status 0.
package enum PreauthorizeFailure: String, Sendable, CaseIterable {
    /// `setRequestor` has not completed successfully.
    case requestorNotConfigured = "requestor_not_configured"
    /// The stored authentication has expired.
    case authenticationSessionExpired = "authentication_session_expired"
    /// No authentication is stored.
    case authenticationSessionMissing = "authentication_session_missing"
    /// No access token could be obtained (registration or token request failed).
    case accessTokenUnavailable = "access_token_unavailable"
    /// Adobe Pass answered with a body the SDK cannot read.
    case serverResponseFormatUnknown = "server_response_format_unknown"
    /// Adobe Pass could not be reached.
    case networkError = "network_error"
    /// The app's service token or platform identity cannot be sent as a header value
    /// (empty, a control character): nothing was sent. This SDK's own code.
    case unsendableSingleSignOnToken = "invalid_single_sign_on_token"
    /// The app released the AccessEnabler before the call was answered. This SDK's own code.
    case accessEnablerReleased = "access_enabler_released"

    /// The Adobe Pass style error code.
    var code: String { rawValue }

    /// What happened and what to do about it.
    var message: String {
        switch self {
        case .requestorNotConfigured:
            "The requestor is not configured: call setRequestor and wait for setRequestorComplete(1) before preauthorizing."
        case .authenticationSessionExpired:
            "The user's authentication has expired: the user must sign in with their TV provider again."
        case .authenticationSessionMissing:
            "The user is not authenticated: the user must sign in with their TV provider first."
        case .accessTokenUnavailable:
            "No access token could be obtained from Adobe Pass: check the software statement and the network."
        case .serverResponseFormatUnknown:
            "Adobe Pass answered in a format the SDK cannot read. If it persists, contact support with the SDK's logs."
        case .networkError:
            "Adobe Pass could not be reached. Retry; if it persists, check the network and contact support with the SDK's logs."
        case .unsendableSingleSignOnToken:
            "The service token or platform identity the app's configuration gave cannot be sent as a header value (it is empty or holds a control character); status N500 names which. Fix the token the app presents, or present none."
        case .accessEnablerReleased:
            "The app released the AccessEnabler before this call was answered: keep the AccessEnabler while its calls are under way."
        }
    }

    /// The recommended action, as the legacy documentation gives it.
    var action: String {
        switch self {
        case .requestorNotConfigured: "retry"
        case .authenticationSessionExpired, .authenticationSessionMissing: "authentication"
        case .accessTokenUnavailable, .serverResponseFormatUnknown, .networkError, .unsendableSingleSignOnToken,
            .accessEnablerReleased:
            "none"
        }
    }

    /// The status delivered to `onFailure`.
    var status: PreauthorizeStatus {
        PreauthorizeStatus(status: 0, code: code, message: message, action: action)
    }
}
