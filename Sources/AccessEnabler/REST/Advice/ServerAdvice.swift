/// What an enhanced error of Adobe Pass means for the SDK: the one table that reads an
/// error's `code` and `action`.
///
/// Everything that reacts to Adobe's advice switches over this value, with no `default`: the
/// REST chain (``BackOffPolicy`` sends a ``transient`` answer once more; a `401` renews the
/// access token once, and only the token endpoint's ``clientUnknown`` registers the
/// application again), and the flows (``ErrorClassification`` turns it into a legacy status;
/// the state machine drops a profile whose sign-in ended, refetches a changed
/// configuration, splits a request with too many resources).
///
/// A known code is read by its documented meaning (the enhanced error codes page lists
/// each under its action); a code this SDK does not know is read by its `action`, and
/// without one by its HTTP status.
enum ServerAdvice: Sendable, Equatable {
    /// The request itself is wrong (a parameter or a header): sending it again changes nothing.
    case requestRefused
    /// The resources parameter is missing or invalid.
    case invalidResource
    /// The integration of the requestor with the MVPD does not exist or is disabled.
    case integrationUnavailable
    /// The authentication session (or its code) no longer exists: expired, unknown, invalidated.
    case authenticationSessionGone
    /// The user's sign-in is over at Adobe Pass (missing, expired, invalidated, not
    /// recognised): the device's profile goes, and the user signs in again.
    case signInEnded
    /// The TempPass is used up: its time, or a promotional TempPass's resources.
    case tempPassUsedUp
    /// The MVPD denied the resource (its decision, parental controls).
    case deniedByMVPD
    /// A degradation rule denies the resource.
    case deniedByDegradationRule
    /// More resources in one decisions request than the integration allows.
    case tooManyResources
    /// The integration's configuration changed (or is wrong): fetch it again.
    case configurationChanged
    /// Adobe Pass does not know this application's registration (the client).
    case clientUnknown
    /// A media token is missing or expired: authorize again.
    case authorizationNeeded
    /// A passing failure between Adobe Pass and a partner: the same request may succeed later.
    case transient
    /// Adobe Pass failed internally.
    case serverFailure

    /// What `error` advises, by its code, else its action, else its status.
    init(_ error: EnhancedError) {
        switch error.codeWord {
        case .invalidParameterServiceProvider, .invalidParameterMVPD, .invalidParameterRedirectURL,
            .invalidParameterPartner,
            .invalidParameterSAMLResponse, .invalidHeaderDeviceInfo, .invalidHeaderDeviceIdentifier,
            .invalidHeaderIdentityForTemporaryAccess, .invalidHeaderPFSPermissionAccessNotPresent,
            .invalidHeaderPFSPermissionAccessNotDetermined, .invalidHeaderPFSPermissionAccessNotGranted,
            .invalidHeaderPFSProviderIDNotDetermined, .invalidHeaderPFSProviderIDMismatch,
            .invalidHeaderPFSProviderInfoExpired:
            self = .requestRefused
        case .invalidHeaderServiceToken, .invalidHeaderSubjectToken:
            self = .requestRefused
        case .invalidParameterResources:
            self = .invalidResource
        case .invalidIntegration:
            self = .integrationUnavailable
        case .invalidParameterCode, .invalidAuthenticationSession, .authenticationSessionMissing,
            .authenticationSessionExpired,
            .authenticationSessionInvalidated:
            self = .authenticationSessionGone
        case .authenticatedProfileMissing, .authenticatedProfileExpired, .authenticatedProfileInvalidated,
            .authorizationDeniedByHBAPolicies, .authorizationDeniedBySessionInvalidated, .identityNotRecognizedByMVPD:
            self = .signInEnded
        case .temporaryAccessDurationLimitExceeded, .temporaryAccessResourcesLimitExceeded:
            self = .tempPassUsedUp
        case .preauthorizationDeniedByMVPD, .authorizationDeniedByMVPD, .authorizationDeniedByParentalControls:
            self = .deniedByMVPD
        case .authorizationDeniedByDegradationRule:
            self = .deniedByDegradationRule
        case .tooManyResources:
            self = .tooManyResources
        case .invalidConfigurationUserMetadataCertificate, .invalidConfigurationTemporaryAccess,
            .invalidConfigurationPlatform,
            .invalidConfigurationPlatformID, .invalidConfigurationPlatformTrait,
            .invalidConfigurationPlatformCategoryTrait,
            .invalidConfigurationPlatformServices, .invalidConfigurationMVPDPlatform,
            .invalidConfigurationMVPDPlatformBoardingStatus, .invalidConfigurationMVPDPlatformProfileExchange:
            self = .configurationChanged
        case .invalidAccessTokenServiceProvider, .invalidAccessTokenClientApplication, .invalidClient:
            self = .clientUnknown
        case .networkReceivedError, .networkConnectionTimeout, .maximumExecutionTimeExceeded:
            self = .transient
        case .internalServerError, .internalError:
            self = .serverFailure
        case .unknown:
            self = Self.byAction(error.remedy, status: error.status)
        }
    }

    /// The reading of a code this SDK does not know.
    private static func byAction(_ action: ErrorAction?, status: Int?) -> ServerAdvice {
        switch action {
        case .authentication: return .signInEnded
        case .retry: return .transient
        case .configuration: return .configurationChanged
        case .applicationRegistration: return .clientUnknown
        case .authorization: return .authorizationNeeded
        case .noRemedy, .unknown, nil:
            switch status {
            case 403?: return .deniedByMVPD
            case let status? where status >= 500: return .serverFailure
            default: return .requestRefused
            }
        }
    }

    /// Whether the same request may succeed if sent again a moment later.
    var isTransient: Bool {
        switch self {
        case .transient: true
        case .requestRefused, .invalidResource, .integrationUnavailable, .authenticationSessionGone, .signInEnded,
            .tempPassUsedUp,
            .deniedByMVPD, .deniedByDegradationRule, .tooManyResources, .configurationChanged, .clientUnknown,
            .authorizationNeeded, .serverFailure:
            false
        }
    }

    /// Whether Adobe Pass files the error under the `configuration` action: the configuration
    /// is fetched again (a dashboard change the cached one does not know) before the request
    /// is sent once more.
    var asksForConfiguration: Bool {
        switch self {
        case .configurationChanged, .tooManyResources: true
        case .requestRefused, .invalidResource, .integrationUnavailable, .authenticationSessionGone, .signInEnded,
            .tempPassUsedUp,
            .deniedByMVPD, .deniedByDegradationRule, .clientUnknown, .authorizationNeeded, .transient, .serverFailure:
            false
        }
    }

    /// Whether the server is at fault rather than the request: a passing failure or an
    /// internal error (reported as the server status it is, never as a refused request).
    var isServerTrouble: Bool {
        switch self {
        case .transient, .serverFailure: true
        case .requestRefused, .invalidResource, .integrationUnavailable, .authenticationSessionGone, .signInEnded,
            .tempPassUsedUp,
            .deniedByMVPD, .deniedByDegradationRule, .tooManyResources, .configurationChanged, .clientUnknown,
            .authorizationNeeded:
            false
        }
    }
}

extension EnhancedError {
    /// ``code`` as a typed word.
    var codeWord: EnhancedErrorCode { EnhancedErrorCode(rawValue: code) }

    /// ``action`` as a typed remedy; absent when the server sent none.
    var remedy: ErrorAction? { action.map(ErrorAction.init(rawValue:)) }

    /// What the error advises the SDK to do.
    var advice: ServerAdvice { ServerAdvice(self) }
}

extension RESTClientError {
    /// What the enhanced error of a failed answer advises, when it carried one.
    var advice: ServerAdvice? { enhancedError.map(ServerAdvice.init) }
}
