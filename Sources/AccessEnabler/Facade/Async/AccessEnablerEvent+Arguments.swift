import Foundation

// The arguments of the callbacks that carry more than one value, as an event holds them:
// structures, so that a later version can add a field without breaking an app.

extension AccessEnablerEvent {
    /// The arguments of `setAuthenticationStatus`.
    public struct AuthenticationStatusArguments: Sendable, Equatable {
        /// ``ACCESS_ENABLER_STATUS_SUCCESS`` (authenticated) or ``ACCESS_ENABLER_STATUS_ERROR``.
        public var status: Int32
        /// Empty when authenticated, else the error code (``USER_NOT_AUTHENTICATED_ERROR``, …).
        public var errorCode: String

        /// Creates the arguments.
        public init(status: Int32, errorCode: String) {
            self.status = status
            self.errorCode = errorCode
        }
    }

    /// The arguments of `navigateToUrl`.
    public struct NavigationArguments: Sendable, Equatable {
        /// The page to open.
        public var url: String
        /// `useSVC` of `navigateToUrl(_:useSVC:)`; `nil` for the one-argument form.
        public var useSVC: Bool?

        /// Creates the arguments.
        public init(url: String, useSVC: Bool?) {
            self.url = url
            self.useSVC = useSVC
        }
    }

    /// The arguments of `tokenRequestFailed`.
    public struct TokenRequestFailedArguments: Sendable, Equatable {
        /// The resource that was not authorized.
        public var resource: String
        /// The error code (``USER_NOT_AUTHORIZED_ERROR``, …).
        public var errorCode: String
        /// A sentence that says why.
        public var description: String

        /// Creates the arguments.
        public init(resource: String, errorCode: String, description: String) {
            self.resource = resource
            self.errorCode = errorCode
            self.description = description
        }
    }

    /// The argument of `selectedProvider`.
    public struct SelectedProviderArguments: Sendable, Equatable {
        /// The selected MVPD, or `nil` when none is.
        public var mvpd: MVPD?

        /// Creates the argument.
        public init(mvpd: MVPD?) {
            self.mvpd = mvpd
        }
    }

    /// The arguments of `sendTrackingData`.
    public struct TrackingDataArguments: Sendable, Equatable {
        /// The event's data, in the documented order.
        public var data: [String]
        /// ``TRACKING_AUTHENTICATION``, ``TRACKING_AUTHORIZATION`` or
        /// ``TRACKING_GET_SELECTED_PROVIDER``.
        public var event: Int32

        /// Creates the arguments.
        public init(data: [String], event: Int32) {
            self.data = data
            self.event = event
        }
    }

    /// The Preauthorize API's answer.
    public struct PreauthorizeResultArguments: Sendable, Equatable {
        /// The answer.
        public var response: PreauthorizeResponse
        /// Whether it went to `onFailure` rather than `onResponse`.
        public var failure: Bool

        /// Creates the arguments.
        public init(response: PreauthorizeResponse, failure: Bool) {
            self.response = response
            self.failure = failure
        }
    }
}
