import Foundation
import Testing

@testable import AccessEnabler

/// REST failures → the legacy advanced status codes, per flow.
@Suite struct DecisionErrorClassificationTests {
    static func server(_ operation: RESTOperation, _ status: Int, _ code: String? = nil) -> RESTClientError {
        .server(
            operation: operation, httpStatus: status,
            error: code.map { EnhancedError(status: status, code: $0, message: "m", details: "d") })
    }

    @Test func setRequestorStatuses() {
        let cases: [(RESTClientError, String)] = [
            (Self.server(.dcrRegister, 400, "unapproved_software_statement"), "R400"),
            (Self.server(.dcrRegister, 503, "server_error"), "CFG503"),
            (Self.server(.dcrToken, 400, "invalid_client"), "R401"),
            (Self.server(.dcrToken, 401, "invalid_client"), "R401"),
            (Self.server(.dcrToken, 502), "CFG502"),
            (Self.server(.configuration, 400, "invalid_parameter_service_provider"), "CFG400"),
            (Self.server(.configuration, 401, "invalid_access_token_service_provider"), "R401"),
            (Self.server(.configuration, 503, "internal_server_error"), "CFG503"),
            (.undocumentedStatus(operation: .configuration, httpStatus: 504), "CFG504"),
            (.undocumentedStatus(operation: .configuration, httpStatus: 418), "CFG400"),
            (.malformedBody(operation: .configuration, reason: "x"), "CFG500"),
            (.transport(operation: .configuration, .cannotConnect("refused")), "CFG404"),
            (.transport(operation: .dcrRegister, .timedOut), "CFG404"),
            (.transport(operation: .configuration, .connectionLost("reset")), "CFG404"),
            // A passing failure answered with a 4xx is the servers' trouble, not a refused
            // requestor or registration.
            (Self.server(.configuration, 403, "network_received_error"), "CFG503"),
            (Self.server(.configuration, 403, "maximum_execution_time_exceeded"), "CFG503"),
            (Self.server(.dcrRegister, 403, "network_received_error"), "CFG503"),
            (Self.server(.dcrToken, 403, "network_connection_timeout"), "CFG503"),
            (Self.server(.configuration, 403, "invalid_integration"), "CFG400"),
        ]
        for (error, id) in cases {
            let status = ErrorClassification.requestorStatus(error)
            #expect(status.errorId == id, "\(error)")
            #expect(status.level == .error)
        }
    }

    @Test func theStatusCarriesTheEnhancedError() {
        let status = ErrorClassification.requestorStatus(Self.server(.configuration, 503, "internal_server_error"))
        #expect(status.enhancedError?.code == "internal_server_error")
        #expect(status.details == "d")
        #expect(status.dictionary["code"] as? String == "internal_server_error")
    }

    @Test func authenticationStatuses() {
        #expect(
            ErrorClassification.authenticationStatus(
                Self.server(.profileForCode, 400, "invalid_authentication_session")
            ).errorId == "N130")
        #expect(
            ErrorClassification.authenticationStatus(Self.server(.profileForCode, 400, "invalid_parameter_code"))
                .errorId == "N130")
        #expect(
            ErrorClassification.authenticationStatus(Self.server(.profileForCode, 403, "authenticated_profile_missing"))
                .errorId == "N130")
        #expect(ErrorClassification.authenticationStatus(Self.server(.profileForCode, 404)).errorId == "N130")
        // A bare 410 is gone to the status as it is to polling (one rule: it was N500 here).
        #expect(ErrorClassification.authenticationStatus(Self.server(.profileForCode, 410)).errorId == "N130")
        #expect(ErrorClassification.isSessionGone(Self.server(.profileForCode, 410)))
        #expect(
            ErrorClassification.authenticationStatus(Self.server(.createSession, 500, "internal_server_error")).errorId
                == "N500")
        #expect(
            ErrorClassification.authenticationStatus(.transport(operation: .createSession, .timedOut)).errorId == "N500"
        )
        #expect(
            ErrorClassification.authenticationStatus(.malformedBody(operation: .profileForCode, reason: "x")).errorId
                == "N500")
    }

    @Test func decisionStatuses() {
        let cases: [(EnhancedError?, String)] = [
            // A denial with no reason is the MVPD's.
            (nil, "Z100"),
            (EnhancedError(status: 403, code: "authorization_denied_by_mvpd", action: "none"), "Z100"),
            (EnhancedError(status: 403, code: "authorization_denied_by_parental_controls", action: "none"), "Z100"),
            (EnhancedError(status: 403, code: "preauthorization_denied_by_mvpd", action: "none"), "Z100"),
            (
                EnhancedError(status: 403, code: "temporary_access_resources_limit_exceeded", action: "authentication"),
                "Z100"
            ),
            (EnhancedError(status: 403, code: "network_received_error", action: "retry"), "Z120"),
            (EnhancedError(status: 403, code: "network_connection_timeout", action: "retry"), "Z120"),
            (EnhancedError(status: 403, code: "maximum_execution_time_exceeded", action: "retry"), "Z120"),
            (EnhancedError(status: 400, code: "invalid_parameter_resources", action: "none"), "Z130"),
            (EnhancedError(status: 403, code: "authorization_denied_by_degradation_rule", action: "none"), "Z169"),
            (EnhancedError(status: 500, code: "internal_server_error", action: "none"), "Z500"),
            // A code this SDK does not know is read by its action, then by its status.
            (EnhancedError(status: 403, code: "authorization_denied_by_something_new", action: "none"), "Z100"),
            (EnhancedError(status: 403, code: "some_new_partner_timeout", action: "retry"), "Z120"),
            (EnhancedError(status: 500, code: "some_new_failure"), "Z500"),
        ]
        for (error, id) in cases {
            #expect(ErrorClassification.decisionStatusID(for: error).description == id, "\(error?.code ?? "nil")")
        }
    }

    @Test func wholeRequestAuthorizationFailures() {
        #expect(
            ErrorClassification.authorizationStatus(
                Self.server(.authorize, 403, "network_received_error"), resource: "news"
            ).errorId == "Z120")
        #expect(
            ErrorClassification.authorizationStatus(
                Self.server(.authorize, 400, "invalid_parameter_resources"), resource: "news"
            ).errorId == "Z130")
        let failed = ErrorClassification.authorizationStatus(
            .transport(operation: .authorize, .connectionLost("x")), resource: "news")
        #expect(failed.errorId == "Z500")
        #expect(failed.resource == "news")
        #expect(
            ErrorClassification.authorizationStatus(.malformedBody(operation: .authorize, reason: "x"), resource: "r")
                .errorId == "Z500")
    }

    @Test func documentedLevelsOfEveryID() {
        let info: [StatusID] = [.n000, .n003, .n004, .n005, .n011, .vsa203, .vsa403, .vsa404, .vsa503, .regcode, .z011]
        let warning: [StatusID] = [.n010, .n111, .z010, .cfg100]
        let error: [StatusID] = [
            .n130, .n500, .appl, .applError, .cfg400, .cfg404, .cfg429, .cfg5xx(503), .r400, .r401, .reg500,
            .z100, .z120, .z130, .z169, .z500, .p100,
        ]
        for id in info { #expect(id.level == .info, "\(id)") }
        for id in warning { #expect(id.level == .warning, "\(id)") }
        for id in error { #expect(id.level == .error, "\(id)") }
        #expect(StatusID.cfg5xx(503).description == "CFG503")
        #expect(StatusID.applError.description == "APPL_ERROR")
        #expect(StatusCatalog.status(.n111, message: "m").level == .warning)
    }

    /// ``StatusID/reported`` derives from ``StatusID/Reported``'s cases; each reads back from
    /// its spelling as itself, and each has its public static member (read from the source,
    /// since a type's static members cannot be enumerated): a `Reported` case added without
    /// its member fails here.
    @Test func everyReportedIDHasItsSpellingAndItsPublicMember() throws {
        #expect(StatusID.reported.count == StatusID.Reported.allCases.count)
        for id in StatusID.reported {
            #expect(StatusID(id.description).kind == id.kind, "\(id)")
        }
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/AccessEnabler/API/StatusID.swift"), encoding: .utf8)
        let members = source.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /public static let (\w+) = StatusID\(kind: \.reported\(\.(\w+)\)\)/)
            else { return nil }
            #expect(match.1 == match.2, "\(line)")
            return String(match.2)
        }
        #expect(members.sorted() == StatusID.Reported.allCases.map { "\($0)" }.sorted())
    }
}
