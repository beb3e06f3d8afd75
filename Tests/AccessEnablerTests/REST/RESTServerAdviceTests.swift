import Foundation
import Testing

@testable import AccessEnabler

/// ``ServerAdvice``: the one table that reads an enhanced error's code and action. No I/O.
@Suite("Server advice")
struct RESTServerAdviceTests {
    /// REST API V2's list: each code under the action the enhanced error codes page files it.
    static let documented: [(action: String, codes: [String])] = [
        (
            "none",
            [
                "invalid_parameter_service_provider", "invalid_parameter_mvpd", "invalid_parameter_code",
                "invalid_parameter_resources",
                "invalid_parameter_redirect_url", "invalid_parameter_partner", "invalid_parameter_saml_response",
                "invalid_header_device_info",
                "invalid_header_device_identifier", "invalid_header_identity_for_temporary_access",
                "invalid_header_pfs_permission_access_not_present",
                "invalid_header_pfs_permission_access_not_determined",
                "invalid_header_pfs_permission_access_not_granted", "invalid_header_pfs_provider_id_not_determined",
                "invalid_header_pfs_provider_id_mismatch", "invalid_header_pfs_provider_info_expired",
                "invalid_integration",
                "invalid_authentication_session", "preauthorization_denied_by_mvpd", "authorization_denied_by_mvpd",
                "authorization_denied_by_parental_controls", "authorization_denied_by_degradation_rule",
                "internal_server_error",
            ]
        ),
        (
            "configuration",
            [
                "too_many_resources", "invalid_configuration_user_metadata_certificate",
                "invalid_configuration_temporary_access",
                "invalid_configuration_platform", "invalid_configuration_platform_id",
                "invalid_configuration_platform_trait",
                "invalid_configuration_platform_category_trait", "invalid_configuration_platform_services",
                "invalid_configuration_mvpd_platform", "invalid_configuration_mvpd_platform_boarding_status",
                "invalid_configuration_mvpd_platform_profile_exchange",
            ]
        ),
        (
            "application-registration",
            ["invalid_access_token_service_provider", "invalid_access_token_client_application"]
        ),
        (
            "authentication",
            [
                "authenticated_profile_missing", "authenticated_profile_expired", "authenticated_profile_invalidated",
                "temporary_access_duration_limit_exceeded", "temporary_access_resources_limit_exceeded",
                "authorization_denied_by_hba_policies", "authorization_denied_by_session_invalidated",
                "identity_not_recognized_by_mvpd",
            ]
        ),
        ("retry", ["network_received_error", "network_connection_timeout", "maximum_execution_time_exceeded"]),
    ]

    /// The advices an action's codes may have: the table refines an action, never contradicts it.
    static func advices(allowedFor action: String) -> Set<String> {
        switch action {
        case "none":
            [
                "requestRefused", "invalidResource", "integrationUnavailable", "authenticationSessionGone",
                "deniedByMVPD",
                "deniedByDegradationRule", "serverFailure",
            ]
        case "configuration": ["configurationChanged", "tooManyResources"]
        case "application-registration": ["clientUnknown"]
        case "authentication": ["signInEnded", "tempPassUsedUp"]
        default: ["transient"]
        }
    }

    @Test func everyDocumentedCodeIsAKnownWordReadAsItsActionSays() {
        for (action, codes) in Self.documented {
            for code in codes {
                #expect(EnhancedErrorCode(rawValue: code) != .unknown(code), "\(code) is a known word")
                let advice = EnhancedError(code: code, action: action).advice
                #expect(Self.advices(allowedFor: action).contains("\(advice)"), "\(code) (\(action)) read as \(advice)")
            }
        }
        let listed = Set(Self.documented.flatMap(\.codes))
        #expect(listed.count == 47, "the page lists 47 REST API V2 codes")
    }

    @Test func aKnownCodeIsReadByItsMeaningWhateverTheActionSays() {
        #expect(EnhancedError(code: "authenticated_profile_missing").advice == .signInEnded)
        #expect(EnhancedError(code: "network_received_error", action: "none").advice == .transient)
        #expect(EnhancedError(code: "temporary_access_duration_limit_exceeded").advice == .tempPassUsedUp)
        #expect(EnhancedError(code: "invalid_parameter_code").advice == .authenticationSessionGone)
        #expect(EnhancedError(code: "authentication_session_expired").advice == .authenticationSessionGone)
    }

    @Test func theTokenEndpointsInvalidClientMeansTheClientIsUnknown() {
        #expect(EnhancedError(code: "invalid_client").advice == .clientUnknown)
        #expect(
            RESTClientError.server(operation: .dcrToken, httpStatus: 400, error: EnhancedError(code: "invalid_client"))
                .advice == .clientUnknown)
        #expect(RESTClientError.transport(operation: .dcrToken, .timedOut).advice == nil)
    }

    @Test func anUnknownCodeIsReadByItsActionThenByItsStatus() {
        #expect(EnhancedError(code: "x", action: "authentication").advice == .signInEnded)
        #expect(EnhancedError(code: "x", action: "retry").advice == .transient)
        #expect(EnhancedError(code: "x", action: "configuration").advice == .configurationChanged)
        #expect(EnhancedError(code: "x", action: "application-registration").advice == .clientUnknown)
        #expect(EnhancedError(code: "x", action: "authorization").advice == .authorizationNeeded)
        #expect(EnhancedError(status: 403, code: "x", action: "none").advice == .deniedByMVPD)
        #expect(EnhancedError(status: 503, code: "x").advice == .serverFailure)
        #expect(EnhancedError(status: 400, code: "x", action: "something-new").advice == .requestRefused)
        #expect(EnhancedError(code: "x").advice == .requestRefused)
    }

    @Test func onlyAPassingFailureIsWorthSendingAgainAndOnlyTheServersTroubleIsTheirs() {
        #expect(ServerAdvice.transient.isTransient)
        #expect(!ServerAdvice.serverFailure.isTransient)
        #expect(!ServerAdvice.signInEnded.isTransient)
        #expect(ServerAdvice.transient.isServerTrouble && ServerAdvice.serverFailure.isServerTrouble)
        #expect(!ServerAdvice.requestRefused.isServerTrouble && !ServerAdvice.integrationUnavailable.isServerTrouble)
    }

    @Test func theLegacyCodeOfEachAuthorizationStatusComesFromOneTable() {
        #expect(StatusID.z100.authorizationErrorCode == USER_NOT_AUTHORIZED_ERROR)
        #expect(StatusID.z120.authorizationErrorCode == USER_NOT_AUTHORIZED_ERROR)
        #expect(StatusID.z130.authorizationErrorCode == USER_NOT_AUTHORIZED_ERROR)
        #expect(StatusID.z169.authorizationErrorCode == USER_NOT_AUTHORIZED_ERROR)
        #expect(StatusID.z500.authorizationErrorCode == GENERIC_AUTHORIZATION_ERROR)
        #expect(StatusID.n130.authorizationErrorCode == USER_NOT_AUTHENTICATED_ERROR)
        #expect(StatusID.n000.authorizationErrorCode == USER_NOT_AUTHENTICATED_ERROR)
        #expect(StatusID.cfg400.authorizationErrorCode == GENERIC_AUTHORIZATION_ERROR)
        // A throttled authorization is Z100, so it is "not authorized".
        let throttled = ErrorClassification.authorizationStatus(
            .throttled(operation: .authorize, retryAfter: nil), resource: "news")
        #expect(throttled.errorId == .z100)
        #expect(throttled.errorId.authorizationErrorCode == USER_NOT_AUTHORIZED_ERROR)
    }
}
