import Foundation

// The legacy SDK's global constants, with the names and values integrations already use.

/// The URL the MVPD login and logout pages end on by default: when the web view reaches it,
/// hand it to `handleExternalURL`. It is the default of
/// ``AccessEnablerConfiguration/redirectURL``; compare with the configured value when you change it.
public let ADOBEPASS_REDIRECT_URL = "adobepass://ios.app"

/// The operation succeeded (`setRequestorComplete`, `setAuthenticationStatus`).
public let ACCESS_ENABLER_STATUS_SUCCESS: Int32 = 1
/// The operation failed.
public let ACCESS_ENABLER_STATUS_ERROR: Int32 = 0

/// `setAuthenticationStatus` error code when the user is authenticated: the empty string.
public let USER_AUTHENTICATED = ""
/// The user is not authenticated.
public let USER_NOT_AUTHENTICATED_ERROR = "User Not Authenticated Error"
/// The user backed out of provider selection (`setSelectedProvider(nil)`).
public let PROVIDER_NOT_SELECTED_ERROR = "Provider not Selected Error"
/// The provider asked for is not available to this requestor.
public let PROVIDER_NOT_AVAILABLE_ERROR = "Provider not Available Error"
/// Authentication failed for a reason that cannot be published (network, server, cancelled).
public let GENERIC_AUTHENTICATION_ERROR = "Generic Authentication Error"
/// Authentication failed because of a system error.
public let INTERNAL_AUTHENTICATION_ERROR = "Internal Authentication Error"
/// The user is not authorized for the resource.
public let USER_NOT_AUTHORIZED_ERROR = "User not Authorized Error"
/// Authorization failed for a reason that cannot be published.
public let GENERIC_AUTHORIZATION_ERROR = "Generic Authorization Error"
/// Authorization failed because of a system error.
public let INTERNAL_AUTHORIZATION_ERROR = "Internal Authorization Error"

/// `getMetadata` dictionary key holding the operation code.
public let METADATA_OPCODE_KEY = "METADATA_OPCODE_KEY"
/// `getMetadata` dictionary key holding the resource id (with ``METADATA_AUTHORIZATION``).
public let METADATA_RESOURCE_ID_KEY = "METADATA_RESOURCE_ID_KEY"
/// `getMetadata` dictionary key holding the user metadata name (with ``METADATA_USER_META``).
public let METADATA_USER_META_KEY = "METADATA_USER_META_KEY"
/// Operation code: the authentication token's expiry.
public let METADATA_AUTHENTICATION: Int32 = 0
/// Operation code: an authorization token's expiry (needs ``METADATA_RESOURCE_ID_KEY``).
public let METADATA_AUTHORIZATION: Int32 = 1
/// Operation code: the device identifier.
public let METADATA_DEVICE_ID: Int32 = 2
/// Operation code: a user metadata value (needs ``METADATA_USER_META_KEY``).
public let METADATA_USER_META: Int32 = 3

/// `sendTrackingData` event: an authentication check or flow ended.
public let TRACKING_AUTHENTICATION: Int32 = 0
/// `sendTrackingData` event: an authorization request returned.
public let TRACKING_AUTHORIZATION: Int32 = 1
/// `sendTrackingData` event: the user selected an MVPD.
public let TRACKING_GET_SELECTED_PROVIDER: Int32 = 2
