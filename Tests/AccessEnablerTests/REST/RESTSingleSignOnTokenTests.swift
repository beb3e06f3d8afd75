import Foundation
import Testing

@testable import AccessEnabler

/// The single sign-on tokens on the wire: which operations carry them, the issuer a shared
/// profile is named after, and a refused token's status.
@Suite struct RESTSingleSignOnTokenTests {
    static let tokens = SingleSignOnTokens(serviceToken: "service.jws.value", platformIdentity: "platform.jws.value")

    /// A compact JWS whose payload is `claims` (the signature is not checked here).
    static func jws(_ claims: String) -> String {
        let payload = Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJSUzI1NiJ9.\(payload).c2lnbmF0dXJl"
    }

    @Test func theTokensGoExactlyOnTheOperationsWhosePagesListThem() throws {
        let listing: Set<RESTOperation> = [
            .createSession, .profiles, .profileForMVPD, .authorize, .preauthorize, .logout,
        ]
        for operation in RESTOperation.allCases {
            let context: RequestContext? = [.dcrRegister, .dcrToken].contains(operation) ? nil : RESTFixtures.context()
            let headers = try RESTHeaders.build(
                operation: operation, accessToken: nil, body: .none, context: context,
                deviceInfo: RESTFixtures.context().deviceInfo, userAgent: "UA",
                tokens: Self.tokens)
            let names = headers.map(\.name)
            #expect(names.contains("AD-Service-Token") == listing.contains(operation), "\(operation)")
            #expect(names.contains("Adobe-Subject-Token") == listing.contains(operation), "\(operation)")
            if listing.contains(operation) {
                #expect(headers.first { $0.name == "AD-Service-Token" }?.value == "service.jws.value")
                #expect(headers.first { $0.name == "Adobe-Subject-Token" }?.value == "platform.jws.value")
            }
        }
        let without = try RESTHeaders.build(
            operation: .profiles, accessToken: nil, body: .none, context: RESTFixtures.context(), userAgent: "UA")
        #expect(!without.contains { $0.name == "AD-Service-Token" || $0.name == "Adobe-Subject-Token" })
    }

    @Test func aSharedProfileIsNamedAfterTheIssuerOfTheTokenItCameThrough() {
        let tokens = SingleSignOnTokens(
            serviceToken: Self.jws(#"{"iss":"my-identity","sub":"jane"}"#),
            platformIdentity: Self.jws(#"{"iss":"my-platform"}"#))
        #expect(tokens.issuer(forProfileType: "serviceTokenSSO") == "my-identity")
        #expect(tokens.issuer(forProfileType: "platformSSO") == "my-platform")
        #expect(tokens.issuer(forProfileType: "regular") == nil)
        #expect(SingleSignOnTokens.issuer(ofJWS: "not a token") == nil)
        #expect(SingleSignOnTokens.issuer(ofJWS: Self.jws(#"{"sub":"jane"}"#)) == nil)
        #expect(SingleSignOnTokens.issuer(ofJWS: Self.jws(#"{"iss":""}"#)) == nil)
    }

    @Test func theProvidersAreAskedAndTheirAnswersKeptAsGiven() async {
        #expect(await SingleSignOnTokenSource.none.current() == .none)
        // An empty token is kept: it cannot be a header value, and the headers refuse it (said, not dropped).
        let source = SingleSignOnTokenSource(serviceToken: { "" }, platformIdentity: { "platform" })
        #expect(await source.current() == SingleSignOnTokens(serviceToken: "", platformIdentity: "platform"))
        let none = SingleSignOnTokenSource(serviceToken: { nil }, platformIdentity: { "platform" })
        #expect(await none.current() == SingleSignOnTokens(serviceToken: nil, platformIdentity: "platform"))
    }

    @Test(arguments: ["", " ", "\t", "a\r\nX-Injected: 1", "a\u{0}b", "a\u{7F}b", "a\u{85}b", "a\tb"])
    func aTokenNoHeaderCanCarryIsRefusedNamingItsHeaderAndNotItsValue(token: String) throws {
        for (tokens, header) in [
            (SingleSignOnTokens(serviceToken: token, platformIdentity: nil), "AD-Service-Token"),
            (SingleSignOnTokens(serviceToken: "fine", platformIdentity: token), "Adobe-Subject-Token"),
        ] {
            let error = #expect(throws: RESTClientError.self) {
                try RESTHeaders.build(
                    operation: .authorize, accessToken: nil, body: .none, context: RESTFixtures.context(),
                    userAgent: "UA", tokens: tokens)
            }
            guard let error, case .unsendableToken(.authorize, header, _) = error else {
                Issue.record("expected the header \(header) refused, got \(String(describing: error))")
                continue
            }
            let status = try #require(ErrorClassification.refusedSingleSignOnToken(error))
            #expect(status.errorId == .n500)
            #expect(status.message?.contains(header) == true)
            #expect(ErrorClassification.authorizationStatus(error, resource: "news").errorId == .n500)
            if token.count > 1 { #expect(status.message?.contains(token) == false, "the token is never repeated") }
        }
        // A token sent as it is.
        let headers = try RESTHeaders.build(
            operation: .authorize, accessToken: nil, body: .none, context: RESTFixtures.context(), userAgent: "UA",
            tokens: SingleSignOnTokens(serviceToken: "a.b-c_d", platformIdentity: nil))
        #expect(headers.contains { $0.name == "AD-Service-Token" && $0.value == "a.b-c_d" })
    }

    @Test func aRefusedTokenIsN500NamingItsHeaderAndZ500InAnAuthorization() throws {
        for (code, header) in [
            ("invalid_header_service_token", "AD-Service-Token"),
            ("invalid_header_subject_token", "Adobe-Subject-Token"),
        ] {
            let enhanced = EnhancedError(status: 400, code: code, details: "The token expired.", action: "none")
            let error = RESTClientError.server(operation: .createSession, httpStatus: 400, error: enhanced)
            let status = try #require(ErrorClassification.refusedSingleSignOnToken(error))
            #expect(status.errorId == .n500)
            #expect(status.message?.contains(header) == true)
            #expect(status.details == "The token expired.")
            #expect(ErrorClassification.authenticationStatus(error).message == status.message)
            #expect(ErrorClassification.authorizationStatus(error, resource: "news").errorId == .z500)
        }
        let other = RESTClientError.server(
            operation: .createSession, httpStatus: 400,
            error: EnhancedError(status: 400, code: "invalid_parameter_mvpd"))
        #expect(ErrorClassification.refusedSingleSignOnToken(other) == nil)
    }
}
