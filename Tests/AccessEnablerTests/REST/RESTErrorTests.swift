import Foundation
import Testing

@testable import AccessEnabler

/// Failures: enhanced error bodies, bodies that are not the documented JSON, statuses the
/// documentation does not describe, transport failures and invalid inputs — each a typed
/// error naming the operation.
@Suite("REST V2 errors")
struct RESTErrorTests {
    /// Runs `body` and returns the typed error it throws, or records an issue.
    private func failure<T>(
        _ body: () async throws(RESTClientError) -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RESTClientError? {
        do {
            _ = try await body()
            Issue.record("expected a failure", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func enhancedErrorBodyIsDecoded() async throws {
        let server = FakeAdobePass()
        server.answer(
            status: 400,
            json: """
                {"action":"none","status":400,"code":"invalid_parameter_service_provider",
                 "message":"The service provider parameter value is missing or invalid.",
                 "helpUrl":"https://help.example/errors","trace":"trace-1"}
                """)
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.configuration(serviceProvider: "NOPE", context: RESTFixtures.context())
        }
        #expect(
            error
                == .server(
                    operation: .configuration, httpStatus: 400,
                    error: EnhancedError(
                        status: 400, code: "invalid_parameter_service_provider",
                        message: "The service provider parameter value is missing or invalid.",
                        helpUrl: "https://help.example/errors", trace: "trace-1", action: "none")))
        let message = try #require(error?.message)
        #expect(message.contains("configuration"))
        #expect(message.contains("400"))
        #expect(message.contains("invalid_parameter_service_provider"))
    }

    @Test func forbiddenProfileCarriesEnhancedError() async throws {
        let server = FakeAdobePass()
        server.answer(
            status: 403,
            json: """
                {"status":403,"code":"temporary_access_duration_limit_exceeded","message":"Time is up.","action":"authentication"}
                """)
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.profile(serviceProvider: "SPX", mvpd: "TempPass_X", context: RESTFixtures.context())
        }
        #expect(error?.operation == .profileForMVPD)
        #expect(error?.httpStatus == 403)
        #expect(error?.enhancedError?.code == "temporary_access_duration_limit_exceeded")
        #expect(error?.enhancedError?.action == "authentication")
        #expect(error?.message.contains("recommended action: authentication") == true)
    }

    @Test func serverErrorWithHTMLBodyHasNoEnhancedError() async throws {
        let server = FakeAdobePass()
        server.answer { _ in
            HTTPResponseMessage(
                status: 502, headers: [("Content-Type", "text/html")], body: Data("<html>Bad gateway</html>".utf8))
        }
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.authorize(
                serviceProvider: "SPX", mvpd: "CableCo", resources: ["r"], context: RESTFixtures.context())
        }
        #expect(error == .server(operation: .authorize, httpStatus: 502, error: nil))
    }

    @Test func throttlingIsReportedAsThrottled() async throws {
        let server = FakeAdobePass()
        server.answer { _ in HTTPResponseMessage(status: 429, body: Data("429 Too Many Requests".utf8)) }
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .throttled(operation: .profiles, retryAfter: nil))
        #expect(error?.httpStatus == 429)
        #expect(error?.message.contains("at least 1 s") == true)
    }

    @Test func undocumentedStatusIsReportedAsSuch() async throws {
        let server = FakeAdobePass()
        server.answer(status: 418, json: #"{"status":418,"code":"teapot"}"#)
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.logout(
                serviceProvider: "SPX", mvpd: "CableCo", redirectURL: "adobepass://ios.app",
                context: RESTFixtures.context())
        }
        #expect(error == .undocumentedStatus(operation: .logout, httpStatus: 418))
        #expect(error?.message.contains("418") == true)
        #expect(error?.message.contains("logout") == true)
    }

    /// A status DCR does not document, whose enhanced error says Adobe Pass is in trouble
    /// (`403 network_received_error`, retried once as its action says), is that server
    /// failure — reported at setRequestor as CFG503, not as a refused registration.
    @Test func aPassingServerFailureFromDCRIsAServerError() async throws {
        let body = #"{"status":403,"code":"network_received_error","action":"retry"}"#
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            .json(403, body)
        }
        let gate = ThrottleGate(clock: ManualTimeSource(), sleeper: ImmediateSleeper())
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "s", transport: transport, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: ManualTimeSource(), userAgent: "UA",
            throttleGate: gate)
        let error = await failure { () async throws(RESTClientError) in
            try await client.configuration(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(
            error
                == .server(
                    operation: .dcrRegister, httpStatus: 403,
                    error: EnhancedError(status: 403, code: "network_received_error", action: "retry")))
        #expect(error.map { ErrorClassification.requestorStatus($0) }?.errorId == .cfg5xx(503))
    }

    @Test func redirectIsUndocumented() async throws {
        let server = FakeAdobePass()
        server.answer { _ in HTTPResponseMessage(status: 302, headers: [("Location", "https://elsewhere.example/")]) }
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.sessionInformation(serviceProvider: "SPX", code: "C", context: RESTFixtures.context())
        }
        #expect(error == .undocumentedStatus(operation: .sessionInformation, httpStatus: 302))
    }

    @Test func nonJSONSuccessBodyIsMalformed() async throws {
        let server = FakeAdobePass()
        server.answer { _ in
            HTTPResponseMessage(
                status: 200, headers: [("Content-Type", "text/html")], body: Data("<html>hello</html>".utf8))
        }
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        guard case .malformedBody(let operation, let reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(operation == .profiles)
        #expect(reason.contains("not valid JSON"))
        #expect(error?.message.contains("profiles") == true)
    }

    @Test func truncatedJSONIsMalformed() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"decisions":[{"resource":"r1","authorized":tr"#)
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.preauthorize(
                serviceProvider: "SPX", mvpd: "CableCo", resources: ["r1"], context: RESTFixtures.context())
        }
        guard case .malformedBody(.preauthorize, _)? = error else {
            Issue.record("expected malformedBody for preauthorize, got \(String(describing: error))")
            return
        }
    }

    @Test func wrongShapeNamesTheMissingFieldButNotValues() async throws {
        let server = FakeAdobePass()
        server.answer(json: #"{"actionType":"interactive","code":"SECRET-CODE-VALUE"}"#)
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.createSession(
                serviceProvider: "SPX", mvpd: "CableCo", domainName: "example.com", redirectURL: "adobepass://ios.app",
                context: RESTFixtures.context())
        }
        guard case .malformedBody(.createSession, let reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("actionName"))
        #expect(error?.message.contains("SECRET-CODE-VALUE") == false)
    }

    @Test func emptySuccessBodyIsMalformed() async throws {
        let server = FakeAdobePass()
        server.answer { _ in HTTPResponseMessage(status: 200) }
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.configuration(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .malformedBody(operation: .configuration, reason: "the body is empty"))
    }

    @Test func badTimestampIsMalformed() async throws {
        let server = FakeAdobePass()
        server.answer(
            json:
                #"{"profiles":{"CableCo":{"notBefore":"yesterday","notAfter":1,"type":"regular","issuer":"x","attributes":{}}}}"#
        )
        let client = RESTFixtures.client(server)
        let error = await failure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        guard case .malformedBody(.profiles, let reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("notBefore"))
    }

    @Test func transportTimeoutNamesTheOperation() async throws {
        let timingOut = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            throw .timedOut
        }
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "s", transport: timingOut, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: ManualTimeSource(), userAgent: "UA")
        let error = await failure { () async throws(RESTClientError) in
            try await client.configuration(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(error == .transport(operation: .dcrRegister, .timedOut))
        #expect(error?.message.contains("client registration") == true)
    }

    @Test func transportTimeoutOnAnAPICall() async throws {
        let server = FakeAdobePass()
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            if request.url.path.hasPrefix("/api/v2") { throw .timedOut }
            return try await server.transport.send(request, timeout: 60)
        }
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "s", transport: transport, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: ManualTimeSource(), userAgent: "UA")
        let error = await failure { () async throws(RESTClientError) in
            try await client.authorize(
                serviceProvider: "SPX", mvpd: "CableCo", resources: ["r"], context: RESTFixtures.context())
        }
        #expect(error == .transport(operation: .authorize, .timedOut))
    }

    @Test func dcrOAuthErrorIsDecoded() async throws {
        let transport = InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            .json(400, #"{"error":"invalid_software_statement"}"#)
        }
        let client = RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "bad", transport: transport, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: ManualTimeSource(), userAgent: "UA")
        let error = await failure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: RESTFixtures.context())
        }
        #expect(
            error
                == .server(
                    operation: .dcrRegister, httpStatus: 400, error: EnhancedError(code: "invalid_software_statement")))
        #expect(error?.message.contains("bad") == false)
    }

    @Test func invalidDeviceInfoIsRejectedBeforeSending() async throws {
        let server = FakeAdobePass()
        let client = RESTFixtures.client(server)
        var context = RESTFixtures.context()
        context.deviceInfo.osName = "Plan 9"
        let error = await failure { () async throws(RESTClientError) in
            try await client.profiles(serviceProvider: "SPX", context: context)
        }
        guard case .invalidDeviceInfo(let reason)? = error else {
            Issue.record("expected invalidDeviceInfo, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("osName"))
        #expect(server.requests.isEmpty)
    }

    @Test func invalidInputsAreRejectedBeforeSending() async throws {
        let server = FakeAdobePass()
        let client = RESTFixtures.client(server)
        let noResources = await failure { () async throws(RESTClientError) in
            try await client.authorize(
                serviceProvider: "SPX", mvpd: "CableCo", resources: [], context: RESTFixtures.context())
        }
        #expect(noResources?.operation == .authorize)
        let emptyMVPD = await failure { () async throws(RESTClientError) in
            try await client.profile(serviceProvider: "SPX", mvpd: "", context: RESTFixtures.context())
        }
        #expect(emptyMVPD == .invalidRequest(operation: .profileForMVPD, reason: "a path parameter is empty"))
        let badStatus = await failure { () async throws(RESTClientError) in
            try await client.partnerSession(
                serviceProvider: "SPX", partner: "Apple",
                context: RESTFixtures.context(partnerStatus: PartnerFrameworkStatus(accessStatus: "maybe")))
        }
        #expect(badStatus?.operation == .partnerSession)
        #expect(server.requests.isEmpty)
    }
}

/// A sleeper whose waits are over at once: back-offs are decided but not waited for.
private struct ImmediateSleeper: Sleeper {
    func sleep(until deadline: Date) async throws(CancellationError) {}
}
