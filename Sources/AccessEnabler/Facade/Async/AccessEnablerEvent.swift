import Foundation

/// Every callback the SDK delivers, as a value: the async API's view of what the delegates
/// receive. ``AccessEnabler/events`` streams them.
///
/// A structure, not an enumeration: a callback added in a later version is a new ``Kind`` and
/// a new accessor, so an app's code keeps compiling. Read an event through the accessor of the
/// callback you want (each is `nil` for an event of another kind), or switch over its
/// ``kind`` (with a `default:`, as a `switch` over a structure has):
///
/// ```swift
/// for await event in accessEnabler.events {
///     if let status = event.status { log("\(status.errorId)") }
///     if event.kind == .authenticationStatus { refreshTheSignInButton() }
/// }
/// ```
///
/// The static functions that share the accessors' names (``status(_:)``,
/// ``authenticationStatus(status:errorCode:)``, …) make an event, to compare with `==` or to
/// feed an app's own tests.
public struct AccessEnablerEvent: Sendable, Equatable {
    /// What the event carries: one case per callback. Internal, so that a new callback is no
    /// break for apps; the SDK's own code switches over it with no `default`.
    enum Payload: Sendable, Equatable {
        case requestorComplete(status: Int32)
        case authenticationStatus(AuthenticationStatusArguments)
        case providerDialog([MVPD])
        case navigate(NavigationArguments)
        case tvProviderDialogPresented(TVProviderDialog)
        case tvProviderDialogDismissed(TVProviderDialog)
        case token(MediaToken)
        case tokenRequestFailed(TokenRequestFailedArguments)
        case selectedProvider(SelectedProviderArguments)
        case metadata(MetadataResult)
        case preauthorizedResources([String])
        case trackingData(TrackingDataArguments)
        case status(AdvancedStatus)
        case preauthorizeResult(PreauthorizeResultArguments)
    }

    /// What this event carries.
    let payload: Payload

    /// The event that carries `payload`.
    init(_ payload: Payload) {
        self.payload = payload
    }

    /// Which callback this event is.
    public var kind: Kind {
        switch payload {
        case .requestorComplete: .requestorComplete
        case .authenticationStatus: .authenticationStatus
        case .providerDialog: .providerDialog
        case .navigate: .navigate
        case .tvProviderDialogPresented: .tvProviderDialogPresented
        case .tvProviderDialogDismissed: .tvProviderDialogDismissed
        case .token: .token
        case .tokenRequestFailed: .tokenRequestFailed
        case .selectedProvider: .selectedProvider
        case .metadata: .metadata
        case .preauthorizedResources: .preauthorizedResources
        case .trackingData: .trackingData
        case .status: .status
        case .preauthorizeResult: .preauthorizeResult
        }
    }
}

// MARK: Reading an event

extension AccessEnablerEvent {
    /// `setRequestorComplete`'s status (``ACCESS_ENABLER_STATUS_SUCCESS`` or
    /// ``ACCESS_ENABLER_STATUS_ERROR``); `nil` for another callback.
    public var requestorComplete: Int32? {
        if case .requestorComplete(let status) = payload { status } else { nil }
    }

    /// `setAuthenticationStatus`'s arguments; `nil` for another callback.
    public var authenticationStatus: AuthenticationStatusArguments? {
        if case .authenticationStatus(let arguments) = payload { arguments } else { nil }
    }

    /// The MVPDs of `displayProviderDialog`; `nil` for another callback.
    public var providerDialog: [MVPD]? {
        if case .providerDialog(let mvpds) = payload { mvpds } else { nil }
    }

    /// `navigateToUrl`'s arguments (either form); `nil` for another callback.
    public var navigation: NavigationArguments? {
        if case .navigate(let arguments) = payload { arguments } else { nil }
    }

    /// The dialog of `presentTVProviderDialog`; `nil` for another callback.
    public var tvProviderDialogPresented: TVProviderDialog? {
        if case .tvProviderDialogPresented(let dialog) = payload { dialog } else { nil }
    }

    /// The dialog of `dismissTVProviderDialog`; `nil` for another callback.
    public var tvProviderDialogDismissed: TVProviderDialog? {
        if case .tvProviderDialogDismissed(let dialog) = payload { dialog } else { nil }
    }

    /// The media token of `setToken`; `nil` for another callback.
    public var token: MediaToken? {
        if case .token(let token) = payload { token } else { nil }
    }

    /// `tokenRequestFailed`'s arguments; `nil` for another callback.
    public var tokenRequestFailure: TokenRequestFailedArguments? {
        if case .tokenRequestFailed(let arguments) = payload { arguments } else { nil }
    }

    /// `selectedProvider`'s argument; `nil` for another callback.
    public var selectedProvider: SelectedProviderArguments? {
        if case .selectedProvider(let arguments) = payload { arguments } else { nil }
    }

    /// `setMetadataStatus`'s value (the caller's arguments are not repeated); `nil` for
    /// another callback.
    public var metadata: MetadataResult? {
        if case .metadata(let result) = payload { result } else { nil }
    }

    /// The resources of `preauthorizedResources`; `nil` for another callback.
    public var preauthorizedResources: [String]? {
        if case .preauthorizedResources(let resources) = payload { resources } else { nil }
    }

    /// `sendTrackingData`'s arguments; `nil` for another callback.
    public var trackingData: TrackingDataArguments? {
        if case .trackingData(let arguments) = payload { arguments } else { nil }
    }

    /// The advanced status of `status`; `nil` for another callback.
    public var status: AdvancedStatus? {
        if case .status(let status) = payload { status } else { nil }
    }

    /// The Preauthorize API's answer; `nil` for another callback.
    public var preauthorizeResult: PreauthorizeResultArguments? {
        if case .preauthorizeResult(let arguments) = payload { arguments } else { nil }
    }
}

// MARK: Making an event

extension AccessEnablerEvent {
    /// `setRequestorComplete(status)`.
    public static func requestorComplete(status: Int32) -> Self {
        Self(Payload.requestorComplete(status: status))
    }

    /// `setAuthenticationStatus(status, errorCode)`.
    public static func authenticationStatus(status: Int32, errorCode: String) -> Self {
        Self(Payload.authenticationStatus(AuthenticationStatusArguments(status: status, errorCode: errorCode)))
    }

    /// `displayProviderDialog(mvpds)`.
    public static func providerDialog(_ mvpds: [MVPD]) -> Self {
        Self(Payload.providerDialog(mvpds))
    }

    /// `navigateToUrl(url)` (`useSVC` `nil`) or `navigateToUrl(url, useSVC:)`.
    public static func navigate(url: String, useSVC: Bool?) -> Self {
        Self(Payload.navigate(NavigationArguments(url: url, useSVC: useSVC)))
    }

    /// `presentTVProviderDialog(dialog)`.
    public static func tvProviderDialogPresented(_ dialog: TVProviderDialog) -> Self {
        Self(Payload.tvProviderDialogPresented(dialog))
    }

    /// `dismissTVProviderDialog(dialog)`.
    public static func tvProviderDialogDismissed(_ dialog: TVProviderDialog) -> Self {
        Self(Payload.tvProviderDialogDismissed(dialog))
    }

    /// `setToken(token, forResource:)`.
    public static func token(_ token: MediaToken) -> Self {
        Self(Payload.token(token))
    }

    /// `tokenRequestFailed(resource, errorCode:, errorDescription:)`.
    public static func tokenRequestFailed(resource: String, errorCode: String, description: String) -> Self {
        let arguments = TokenRequestFailedArguments(resource: resource, errorCode: errorCode, description: description)
        return Self(Payload.tokenRequestFailed(arguments))
    }

    /// `selectedProvider(mvpd)`.
    public static func selectedProvider(_ mvpd: MVPD?) -> Self {
        Self(Payload.selectedProvider(SelectedProviderArguments(mvpd: mvpd)))
    }

    /// `setMetadataStatus` with this value.
    public static func metadata(_ result: MetadataResult) -> Self {
        Self(Payload.metadata(result))
    }

    /// `preauthorizedResources(resources)`.
    public static func preauthorizedResources(_ resources: [String]) -> Self {
        Self(Payload.preauthorizedResources(resources))
    }

    /// `sendTrackingData(data, forEventType: event)`.
    public static func trackingData(_ data: [String], event: Int32) -> Self {
        Self(Payload.trackingData(TrackingDataArguments(data: data, event: event)))
    }

    /// `status(status)`.
    public static func status(_ status: AdvancedStatus) -> Self {
        Self(Payload.status(status))
    }

    /// The Preauthorize API's answer (`failure`: it went to `onFailure`).
    public static func preauthorizeResult(_ response: PreauthorizeResponse, failure: Bool) -> Self {
        Self(Payload.preauthorizeResult(PreauthorizeResultArguments(response: response, failure: failure)))
    }
}
