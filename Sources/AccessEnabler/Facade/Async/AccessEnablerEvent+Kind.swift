import Foundation

extension AccessEnablerEvent {
    /// Which callback an event is, without its arguments.
    ///
    /// A structure with a static member per callback, not an enumeration: a callback added
    /// in a later version is a new member, and an app's `switch` over kinds (which has a
    /// `default:`) keeps compiling. Its description is the callback's name as Adobe's
    /// documentation writes it (`setAuthenticationStatus`, `navigateToUrl`, …).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The callback: the SDK's own name for it (both forms of `navigateToUrl` are one kind).
        let callback: DelegateCall.Name

        /// `setRequestorComplete`.
        public static let requestorComplete = Kind(callback: .setRequestorComplete)
        /// `setAuthenticationStatus`.
        public static let authenticationStatus = Kind(callback: .setAuthenticationStatus)
        /// `displayProviderDialog`.
        public static let providerDialog = Kind(callback: .displayProviderDialog)
        /// `navigateToUrl`, in either form.
        public static let navigate = Kind(callback: .navigateToUrl)
        /// `presentTVProviderDialog`.
        public static let tvProviderDialogPresented = Kind(callback: .presentTVProviderDialog)
        /// `dismissTVProviderDialog`.
        public static let tvProviderDialogDismissed = Kind(callback: .dismissTVProviderDialog)
        /// `setToken`.
        public static let token = Kind(callback: .setToken)
        /// `tokenRequestFailed`.
        public static let tokenRequestFailed = Kind(callback: .tokenRequestFailed)
        /// `selectedProvider`.
        public static let selectedProvider = Kind(callback: .selectedProvider)
        /// `setMetadataStatus`.
        public static let metadata = Kind(callback: .setMetadataStatus)
        /// `preauthorizedResources`.
        public static let preauthorizedResources = Kind(callback: .preauthorizedResources)
        /// `sendTrackingData`.
        public static let trackingData = Kind(callback: .sendTrackingData)
        /// `status` (``EntitlementStatus``).
        public static let status = Kind(callback: .status)
        /// The Preauthorize API's answer to its callback object.
        public static let preauthorizeResult = Kind(callback: .preauthorizeResult)

        /// The callback's name as Adobe's documentation writes it.
        public var description: String { callback.callbackName }
    }
}
