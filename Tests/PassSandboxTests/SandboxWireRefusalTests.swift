import Foundation
import Testing

@testable import PassSandbox

/// How PassSandbox refuses requests over real HTTP, as Adobe's pages and the HTTP RFCs
/// describe it: unknown paths, missing `Host`, unauthorized calls, bodies of the wrong media
/// type, and the authenticate URL's errors.
@Suite("Wire conformance: refusals")
struct SandboxWireRefusalTests {
    @Test func unknownPathsUnderTheAPIsAnswer404InTheirErrorShape() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        for method in ["GET", "POST", "DELETE"] {
            let api = try await wire.send(method, "/api/v2/REF30/nothing", headers: wire.deviceHeaders())
            #expect(api.status == 404, "\(method)")
            #expect(api.header("Content-Type") == "application/json;charset=UTF-8")
            let error = try WireExchange.object(api)
            #expect(error.string("code") == "resource_not_found")
            #expect(error.int("status") == 404)
            #expect(error.string("action") == "none")
            #expect(error.string("message") == "The requested resource does not exist.")
            #expect(error.string("details")?.contains("/api/v2/REF30/nothing") == true)
            #expect(error.string("helpUrl") != nil && error.string("trace") != nil)
        }
        let dcr = try await wire.send("POST", "/o/client/nothing")
        #expect(dcr.status == 404)
        #expect(dcr.header("Content-Type") == "application/json;charset=UTF-8")
        #expect(try WireExchange.object(dcr).string("error") == "invalid_request")
        #expect(try WireExchange.object(dcr).string("error_description")?.contains("/o/client/nothing") == true)
        // Outside the APIs nothing changes: a plain 404.
        let elsewhere = try await wire.send("GET", "/favicon.ico")
        #expect(elsewhere.status == 404)
        #expect(elsewhere.header("Content-Type") == "text/plain;charset=UTF-8")
    }

    @Test func anHTTP11RequestWithoutHostIsRefusedWith400() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let client = try HTTPTestClient(port: wire.port)
        client.send("GET /api/v2/REF30/configuration HTTP/1.1\r\nAuthorization: Bearer \(wire.bearer)\r\n\r\n")
        let response = try #require(await client.readResponse())
        #expect(response.status == 400)
        #expect(response.text.contains("Host"))
        #expect(response.header("Connection") == "close")
        #expect(await client.readUntilClosed().closed)
        // HTTP/1.0 had no Host requirement: that request reaches the endpoint.
        let old = try HTTPTestClient(port: wire.port)
        old.send("GET /api/v2/REF30/configuration HTTP/1.0\r\nAuthorization: Bearer \(wire.bearer)\r\n\r\n")
        #expect(await old.readResponse()?.status == 200)
    }

    @Test func unauthorizedAnswersNameTheBearerScheme() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let path = "/api/v2/REF30/configuration"
        let none = try await wire.send("GET", path)
        #expect(none.status == 401)
        #expect(
            none.header("WWW-Authenticate") == #"Bearer realm="Adobe Pass""#,
            "no token sent: no error code (RFC 6750 §3.1)")
        #expect(try WireExchange.object(none).string("code") == "invalid_access_token_client_application")

        let basic = try await wire.send("GET", path, headers: [("Authorization", "Basic dXNlcjpwYXNz")])
        #expect(
            basic.header("WWW-Authenticate")?.hasPrefix(#"Bearer realm="Adobe Pass", error="invalid_request""#) == true)

        let unknown = try await wire.send("GET", path, headers: [("Authorization", "Bearer forged")])
        #expect(
            unknown.header("WWW-Authenticate")
                == #"Bearer realm="Adobe Pass", error="invalid_token", error_description="The access token is unknown.""#
        )

        wire.sandbox.clock.advance(by: 86_400)
        let expired = try await wire.send("GET", path, headers: [("Authorization", "Bearer \(wire.bearer)")])
        #expect(expired.status == 401)
        // An expired token is forgotten as it expires: it is then simply not known.
        #expect(
            expired.header("WWW-Authenticate")?.hasPrefix(
                #"Bearer realm="Adobe Pass", error="invalid_token", error_description=""#) == true)

        // Every 401 carries a challenge, an injected one too.
        wire.sandbox.inject(SandboxFault(status: 401, remaining: 1), into: .profiles)
        let injected = try await wire.send("GET", "/api/v2/REF30/profiles", headers: wire.deviceHeaders())
        #expect(injected.status == 401)
        #expect(injected.header("WWW-Authenticate") == #"Bearer realm="Adobe Pass", error="invalid_token""#)
    }

    @Test func aTokenOfAnotherStatementIsAnInvalidTokenToo() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let response = try await wire.send(
            "GET", "/api/v2/REF31/configuration", headers: [("Authorization", "Bearer \(wire.bearer)")])
        #expect(response.status == 401)
        #expect(try WireExchange.object(response).string("code") == "invalid_access_token_service_provider")
        #expect(response.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
    }

    /// Each POST's page says which media type its body must have; anything else (or none)
    /// is `400 invalid_header_content_type`, before the body is read.
    @Test func bodiesMustHaveTheMediaTypeTheirPageNames() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let code = try await wire.openSession()
        let form = "mvpd=NotBoarded&domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Ftv.app"
        let cases: [(path: String, expected: String, body: String)] = [
            ("/api/v2/REF30/sessions", "application/x-www-form-urlencoded", form),
            ("/api/v2/REF30/sessions/\(code)", "application/x-www-form-urlencoded", form),
            (
                "/api/v2/REF30/sessions/sso/Apple", "application/x-www-form-urlencoded",
                "domainName=adobe.com&redirectUrl=adobepass%3A%2F%2Ftv.app"
            ),
            ("/api/v2/REF30/profiles/sso/Apple", "application/x-www-form-urlencoded", "SAMLResponse=PHNhbWw%2B"),
            ("/api/v2/REF30/decisions/authorize/NotBoarded", "application/json", #"{"resources":["news"]}"#),
            ("/api/v2/REF30/decisions/preauthorize/NotBoarded", "application/json", #"{"resources":["news"]}"#),
        ]
        for (path, expected, body) in cases {
            let wrong = expected == "application/json" ? "application/x-www-form-urlencoded" : "application/json"
            for contentType in [nil, wrong, "text/plain"] as [String?] {
                let headers = wire.deviceHeaders() + (contentType.map { [("Content-Type", $0)] } ?? [])
                let response = try await wire.send("POST", path, headers: headers, body: body)
                #expect(response.status == 400, "\(path) with \(contentType ?? "no Content-Type")")
                let error = try WireExchange.object(response)
                #expect(error.string("code") == "invalid_header_content_type", "\(path)")
                #expect(
                    error.string("details")?.contains(expected) == true, "\(path): \(error.string("details") ?? "")")
            }
            // Without a body there is nothing to type: the parameters are missing instead.
            let bodiless = try await wire.send("POST", path, headers: wire.deviceHeaders(), body: "")
            #expect(
                (try? WireExchange.object(bodiless).string("code")) != "invalid_header_content_type",
                "\(path): \(bodiless.text)")
            // Parameters and case do not matter.
            let accepted = try await wire.send(
                "POST", path,
                headers: wire.deviceHeaders() + [("Content-Type", expected.uppercased() + "; charset=UTF-8")],
                body: body)
            #expect(
                (try? WireExchange.object(accepted).string("code")) != "invalid_header_content_type",
                "\(path): \(accepted.text)")
        }
    }

    /// An empty redirectUrl is not a URL: it is refused. Any other session parameter sent
    /// empty, or left out, is missing, and the session asks to resume with it (an empty mvpd
    /// is "no MVPD chosen yet").
    @Test func anEmptyRedirectURLIsInvalidAndOtherEmptyParametersAreMissing() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let headers = wire.deviceHeaders() + [("Content-Type", "application/x-www-form-urlencoded")]
        let code = try await wire.openSession()
        for path in ["/api/v2/REF30/sessions", "/api/v2/REF30/sessions/\(code)"] {
            let emptyRedirect = try WireExchange.object(
                try await wire.send(
                    "POST", path, headers: headers, body: "mvpd=NotBoarded&domainName=adobe.com&redirectUrl="))
            #expect(emptyRedirect.string("code") == "invalid_parameter_redirect_url", "\(path)")
            #expect(emptyRedirect.int("status") == 400, "\(path)")
        }
        let emptyMVPD = try WireExchange.object(
            try await wire.send(
                "POST", "/api/v2/REF30/sessions", headers: headers, body: "mvpd=&domainName=adobe.com&domainName="))
        #expect(emptyMVPD.string("actionName") == "resume")
        #expect(emptyMVPD["missingParameters"] as? [String] == ["mvpd", "redirectUrl"])
        let none = try WireExchange.object(
            try await wire.send("POST", "/api/v2/REF30/sessions", headers: wire.deviceHeaders()))
        #expect(
            none["missingParameters"] as? [String] == ["mvpd", "domainName", "redirectUrl"],
            "no body, no Content-Type: every parameter is missing")
    }

    /// The partner authentication request's page: a missing *or invalid* parameter makes the
    /// client resume (`missing_parameters_fallback`); it is not refused.
    @Test func anInvalidPartnerRedirectURLFallsBackToResume() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        for redirect in ["no-scheme", ""] {
            let answer = try WireExchange.object(
                try await wire.send(
                    "POST", "/api/v2/REF30/sessions/sso/Apple",
                    headers: wire.deviceHeaders() + [("Content-Type", "application/x-www-form-urlencoded")],
                    body: "domainName=adobe.com&redirectUrl=\(redirect)"))
            #expect(answer.string("reasonType") == "missing_parameters_fallback", "\(redirect)")
            #expect((answer["missingParameters"] as? [String])?.contains("redirectUrl") == true, "\(redirect)")
        }
    }

    @Test func theAuthenticateURLAnswersItsErrorsAsPages() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let unknown = try await wire.send("GET", "/api/v2/authenticate/REF30/NOPE123")
        #expect(unknown.status == 400)
        #expect(unknown.header("Content-Type") == "text/html;charset=UTF-8")
        #expect(unknown.text.contains(SandboxPageKind.refused.marker))

        let wrongMethod = try await wire.send(
            "POST", "/api/v2/authenticate/REF30/NOPE123",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
        #expect(wrongMethod.header("Content-Type") == "text/html;charset=UTF-8")
        #expect(wrongMethod.text.contains("<!DOCTYPE html>") && wrongMethod.text.contains("use GET or HEAD"))

        wire.sandbox.inject(SandboxFault(status: 500, remaining: 1), into: .authenticate)
        let failing = try await wire.send("GET", "/api/v2/authenticate/REF30/\(try await wire.openSession())")
        #expect(failing.status == 500)
        #expect(failing.header("Content-Type") == "text/html;charset=UTF-8")
    }
}
