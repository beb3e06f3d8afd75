/// The `code` of an enhanced error: what went wrong, as Adobe Pass names it.
///
/// The known words are REST API V2's list (the enhanced error codes page, with the action
/// each is documented under), the few codes of the legacy list that REST API V2 answers
/// still carry, and the OAuth `error` words of Dynamic Client Registration. What each one
/// means for the SDK is decided in one table, ``ServerAdvice``.
enum EnhancedErrorCode: WireVocabulary {
    // Action `none`: the request itself is wrong.
    case invalidParameterServiceProvider
    case invalidParameterMVPD
    case invalidParameterCode
    case invalidParameterResources
    case invalidParameterRedirectURL
    case invalidParameterPartner
    case invalidParameterSAMLResponse
    case invalidHeaderDeviceInfo
    case invalidHeaderDeviceIdentifier
    case invalidHeaderIdentityForTemporaryAccess
    case invalidHeaderPFSPermissionAccessNotPresent
    case invalidHeaderPFSPermissionAccessNotDetermined
    case invalidHeaderPFSPermissionAccessNotGranted
    case invalidHeaderPFSProviderIDNotDetermined
    case invalidHeaderPFSProviderIDMismatch
    case invalidHeaderPFSProviderInfoExpired
    // A single sign-on token refused (PassSandbox's words; Adobe's list names none).
    case invalidHeaderServiceToken
    case invalidHeaderSubjectToken
    case invalidIntegration
    case invalidAuthenticationSession
    case preauthorizationDeniedByMVPD
    case authorizationDeniedByMVPD
    case authorizationDeniedByParentalControls
    case authorizationDeniedByDegradationRule
    case internalServerError
    // Action `configuration`.
    case tooManyResources
    case invalidConfigurationUserMetadataCertificate
    case invalidConfigurationTemporaryAccess
    case invalidConfigurationPlatform
    case invalidConfigurationPlatformID
    case invalidConfigurationPlatformTrait
    case invalidConfigurationPlatformCategoryTrait
    case invalidConfigurationPlatformServices
    case invalidConfigurationMVPDPlatform
    case invalidConfigurationMVPDPlatformBoardingStatus
    case invalidConfigurationMVPDPlatformProfileExchange
    // Action `application-registration`.
    case invalidAccessTokenServiceProvider
    case invalidAccessTokenClientApplication
    // Action `authentication`.
    case authenticatedProfileMissing
    case authenticatedProfileExpired
    case authenticatedProfileInvalidated
    case temporaryAccessDurationLimitExceeded
    case temporaryAccessResourcesLimitExceeded
    case authorizationDeniedByHBAPolicies
    case authorizationDeniedBySessionInvalidated
    case identityNotRecognizedByMVPD
    // Action `retry`.
    case networkReceivedError
    case networkConnectionTimeout
    case maximumExecutionTimeExceeded
    // The legacy list's words for an authentication session that is gone, and its
    // generic server error.
    case authenticationSessionMissing
    case authenticationSessionExpired
    case authenticationSessionInvalidated
    case internalError
    // Dynamic Client Registration (OAuth `error`): the client credentials are unknown.
    case invalidClient
    /// A word this SDK does not know.
    case unknown(String)

    static let known: [EnhancedErrorCode] = [
        .invalidParameterServiceProvider, .invalidParameterMVPD, .invalidParameterCode, .invalidParameterResources,
        .invalidParameterRedirectURL, .invalidParameterPartner, .invalidParameterSAMLResponse, .invalidHeaderDeviceInfo,
        .invalidHeaderDeviceIdentifier, .invalidHeaderIdentityForTemporaryAccess,
        .invalidHeaderPFSPermissionAccessNotPresent,
        .invalidHeaderPFSPermissionAccessNotDetermined, .invalidHeaderPFSPermissionAccessNotGranted,
        .invalidHeaderPFSProviderIDNotDetermined, .invalidHeaderPFSProviderIDMismatch,
        .invalidHeaderPFSProviderInfoExpired,
        .invalidHeaderServiceToken, .invalidHeaderSubjectToken, .invalidIntegration, .invalidAuthenticationSession,
        .preauthorizationDeniedByMVPD, .authorizationDeniedByMVPD,
        .authorizationDeniedByParentalControls, .authorizationDeniedByDegradationRule, .internalServerError,
        .tooManyResources, .invalidConfigurationUserMetadataCertificate, .invalidConfigurationTemporaryAccess,
        .invalidConfigurationPlatform, .invalidConfigurationPlatformID, .invalidConfigurationPlatformTrait,
        .invalidConfigurationPlatformCategoryTrait, .invalidConfigurationPlatformServices,
        .invalidConfigurationMVPDPlatform,
        .invalidConfigurationMVPDPlatformBoardingStatus, .invalidConfigurationMVPDPlatformProfileExchange,
        .invalidAccessTokenServiceProvider, .invalidAccessTokenClientApplication,
        .authenticatedProfileMissing, .authenticatedProfileExpired, .authenticatedProfileInvalidated,
        .temporaryAccessDurationLimitExceeded, .temporaryAccessResourcesLimitExceeded,
        .authorizationDeniedByHBAPolicies,
        .authorizationDeniedBySessionInvalidated, .identityNotRecognizedByMVPD,
        .networkReceivedError, .networkConnectionTimeout, .maximumExecutionTimeExceeded,
        .authenticationSessionMissing, .authenticationSessionExpired, .authenticationSessionInvalidated, .internalError,
        .invalidClient,
    ]

    var rawValue: String {
        switch self {
        case .invalidParameterServiceProvider: "invalid_parameter_service_provider"
        case .invalidParameterMVPD: "invalid_parameter_mvpd"
        case .invalidParameterCode: "invalid_parameter_code"
        case .invalidParameterResources: "invalid_parameter_resources"
        case .invalidParameterRedirectURL: "invalid_parameter_redirect_url"
        case .invalidParameterPartner: "invalid_parameter_partner"
        case .invalidParameterSAMLResponse: "invalid_parameter_saml_response"
        case .invalidHeaderDeviceInfo: "invalid_header_device_info"
        case .invalidHeaderDeviceIdentifier: "invalid_header_device_identifier"
        case .invalidHeaderIdentityForTemporaryAccess: "invalid_header_identity_for_temporary_access"
        case .invalidHeaderPFSPermissionAccessNotPresent: "invalid_header_pfs_permission_access_not_present"
        case .invalidHeaderPFSPermissionAccessNotDetermined: "invalid_header_pfs_permission_access_not_determined"
        case .invalidHeaderPFSPermissionAccessNotGranted: "invalid_header_pfs_permission_access_not_granted"
        case .invalidHeaderPFSProviderIDNotDetermined: "invalid_header_pfs_provider_id_not_determined"
        case .invalidHeaderPFSProviderIDMismatch: "invalid_header_pfs_provider_id_mismatch"
        case .invalidHeaderPFSProviderInfoExpired: "invalid_header_pfs_provider_info_expired"
        case .invalidHeaderServiceToken: "invalid_header_service_token"
        case .invalidHeaderSubjectToken: "invalid_header_subject_token"
        case .invalidIntegration: "invalid_integration"
        case .invalidAuthenticationSession: "invalid_authentication_session"
        case .preauthorizationDeniedByMVPD: "preauthorization_denied_by_mvpd"
        case .authorizationDeniedByMVPD: "authorization_denied_by_mvpd"
        case .authorizationDeniedByParentalControls: "authorization_denied_by_parental_controls"
        case .authorizationDeniedByDegradationRule: "authorization_denied_by_degradation_rule"
        case .internalServerError: "internal_server_error"
        case .tooManyResources: "too_many_resources"
        case .invalidConfigurationUserMetadataCertificate: "invalid_configuration_user_metadata_certificate"
        case .invalidConfigurationTemporaryAccess: "invalid_configuration_temporary_access"
        case .invalidConfigurationPlatform: "invalid_configuration_platform"
        case .invalidConfigurationPlatformID: "invalid_configuration_platform_id"
        case .invalidConfigurationPlatformTrait: "invalid_configuration_platform_trait"
        case .invalidConfigurationPlatformCategoryTrait: "invalid_configuration_platform_category_trait"
        case .invalidConfigurationPlatformServices: "invalid_configuration_platform_services"
        case .invalidConfigurationMVPDPlatform: "invalid_configuration_mvpd_platform"
        case .invalidConfigurationMVPDPlatformBoardingStatus: "invalid_configuration_mvpd_platform_boarding_status"
        case .invalidConfigurationMVPDPlatformProfileExchange: "invalid_configuration_mvpd_platform_profile_exchange"
        case .invalidAccessTokenServiceProvider: "invalid_access_token_service_provider"
        case .invalidAccessTokenClientApplication: "invalid_access_token_client_application"
        case .authenticatedProfileMissing: "authenticated_profile_missing"
        case .authenticatedProfileExpired: "authenticated_profile_expired"
        case .authenticatedProfileInvalidated: "authenticated_profile_invalidated"
        case .temporaryAccessDurationLimitExceeded: "temporary_access_duration_limit_exceeded"
        case .temporaryAccessResourcesLimitExceeded: "temporary_access_resources_limit_exceeded"
        case .authorizationDeniedByHBAPolicies: "authorization_denied_by_hba_policies"
        case .authorizationDeniedBySessionInvalidated: "authorization_denied_by_session_invalidated"
        case .identityNotRecognizedByMVPD: "identity_not_recognized_by_mvpd"
        case .networkReceivedError: "network_received_error"
        case .networkConnectionTimeout: "network_connection_timeout"
        case .maximumExecutionTimeExceeded: "maximum_execution_time_exceeded"
        case .authenticationSessionMissing: "authentication_session_missing"
        case .authenticationSessionExpired: "authentication_session_expired"
        case .authenticationSessionInvalidated: "authentication_session_invalidated"
        case .internalError: "internal_error"
        case .invalidClient: "invalid_client"
        case .unknown(let spelling): spelling
        }
    }
}
