import Foundation

/// Where an authentication stands after an async call: signed in, or waiting for the
/// application (a provider choice, a login page) or for the person (a second-screen code).
public enum AuthenticationStep: Sendable, Equatable {
    /// The user is authenticated.
    case authenticated
    /// Show these MVPDs; answer with ``AccessEnabler/selectProvider(_:)``.
    case chooseProvider([MVPD])
    /// Open this MVPD login page in a web view; when it reaches the redirect URL, call
    /// ``AccessEnabler/handleRedirect(_:)``. `useSVC`: the MVPD needs a Safari View
    /// Controller (the `handleSVC` option).
    case openLoginPage(url: String, useSVC: Bool)
    /// Show this registration code: the person enters it on a phone or computer. The SDK
    /// polls meanwhile; ``AccessEnabler/secondScreenSignIn()`` waits for the end.
    case enterCodeOnSecondScreen(code: String)
}

/// The answer of ``AccessEnabler/authenticationStatus()``, ``AccessEnabler/handleRedirect(_:)``
/// and a completed sign-out: `setAuthenticationStatus` as a value.
public struct AuthenticationStatus: Sendable, Equatable {
    /// Whether the user is authenticated.
    public var isAuthenticated: Bool
    /// ``USER_AUTHENTICATED`` or the error code (``USER_NOT_AUTHENTICATED_ERROR``, …).
    public var errorCode: String
    /// The advanced status that explains the answer (N000, VSA403, VSA203, …), if any.
    public var status: AdvancedStatus?

    /// Creates an answer.
    public init(isAuthenticated: Bool, errorCode: String, status: AdvancedStatus? = nil) {
        self.isAuthenticated = isAuthenticated
        self.errorCode = errorCode
        self.status = status
    }
}

/// A media token for a resource: `setToken` as a value. Its description never shows the
/// token itself, so it is safe to log.
public struct MediaToken: Sendable, Equatable, CustomStringConvertible {
    /// The resource the token authorizes.
    public var resource: String
    /// The serialized short media token, for the media token verifier.
    public var serializedToken: String
    /// An advanced status that came with the grant (Z010 degradation, Z011 TempPass), if any.
    public var status: AdvancedStatus?

    /// Creates a token value.
    public init(resource: String, serializedToken: String, status: AdvancedStatus? = nil) {
        self.resource = resource
        self.serializedToken = serializedToken
        self.status = status
    }

    /// "media token for RESOURCE (N characters)".
    public var description: String { "media token for \(resource) (\(serializedToken.count) characters)" }
}

/// The value of ``AccessEnabler/metadata(_:)``: `setMetadataStatus` as a value.
public struct MetadataResult: Sendable, Equatable {
    /// The value, or `nil` when there is none (not authenticated, unknown key, throttled).
    public var value: JSONValue?
    /// Whether the MVPD sent the value encrypted (it is passed on as sent).
    public var encrypted: Bool
    /// The operation code echoed (``METADATA_AUTHENTICATION``, …).
    public var key: Int32

    /// Creates a metadata value.
    public init(value: JSONValue?, encrypted: Bool, key: Int32) {
        self.value = value
        self.encrypted = encrypted
        self.key = key
    }
}

/// Where a sign-out stands after ``AccessEnabler/signOut()``.
public enum SignOutStep: Sendable, Equatable {
    /// Signed out; `status` is the advanced status that came with it (VSA203: the user
    /// must also sign out of the TV provider in the system settings). `logoutPages`: on a
    /// platform that opens no page (tvOS), the MVPD logout pages Adobe Pass returned, in the
    /// order the `LOGOUT_PAGE` statuses gave them; nothing was opened: show each (its URL, a
    /// QR code) for the person to open on a phone or computer.
    case signedOut(status: AdvancedStatus?, logoutPages: [String] = [])
    /// Open this MVPD logout page (iOS, regular profile); when it reaches the redirect URL,
    /// call ``AccessEnabler/handleLogoutRedirect(_:)``, which answers the next page or the
    /// end of the sign-out.
    case openLogoutPage(url: String)
}

/// Why an async call did not end as asked: the failure callback as a value.
public struct AccessEnablerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The legacy error code (``GENERIC_AUTHENTICATION_ERROR``, ``USER_NOT_AUTHORIZED_ERROR``, …),
    /// or `"REQUESTOR_ERROR"` for a failed requestor set-up.
    public var errorCode: String
    /// The advanced status that explains it (CFG400, N130, Z100, …), if any.
    public var status: AdvancedStatus?
    /// A sentence a person can act on.
    public var message: String

    /// Creates an error.
    public init(errorCode: String, status: AdvancedStatus? = nil, message: String) {
        self.errorCode = errorCode
        self.status = status
        self.message = message
    }

    /// The error code, the status id and the message.
    public var description: String {
        [errorCode, status?.errorId.description, message].compactMap { $0 }.filter { !$0.isEmpty }.joined(
            separator: " — ")
    }
}
