import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// Injected faults travelling the real socket path: what the SDK's REST client reports for
/// a slow server, a forced status, a malformed body, a dropped connection and a closed port.
@Suite struct WireFaultTests {
    private let requestor = WireRig.requestor

    @Test func latencyBeyondTheTimeoutIsATimeoutNotAWait() async throws {
        let rig = try WireRig()
        // Register and get a token first, so only the configuration request is slow.
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        // The answer would come after two minutes: a 0.3 s timeout ends the wait long before,
        // even on a machine at load 20 where its timer fires seconds late.
        let latency: TimeInterval = 120
        rig.sandbox.inject(SandboxFault(latency: latency, remaining: 1), into: .configuration)
        let impatient = rig.client(timeout: 0.3)

        let started = Date()
        let error = await restError { () async throws(RESTClientError) in
            try await impatient.configuration(serviceProvider: requestor, context: rig.context)
        }
        let waited = Date().timeIntervalSince(started)
        #expect(error == .transport(operation: .configuration, .timedOut))
        // The client gave up before the answer could have arrived.
        #expect(waited < latency)
        // The fault was used up: the next request is answered at once.
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
    }

    // The action is the one the Enhanced Error Codes table lists for the code:
    // internal_server_error is under "none", network_received_error under "retry".
    @Test(arguments: [
        (500, "internal_server_error", "none"), (503, "internal_server_error", "none"),
        (403, "network_received_error", "retry"),
    ])
    func forcedStatusCarriesItsEnhancedError(status: Int, code: String, action: String) async throws {
        let rig = try WireRig()
        try await rig.logIn()
        rig.sandbox.inject(SandboxFault(status: status), into: .authorize)
        let call = Task {
            await restError { () async throws(RESTClientError) in
                try await rig.client.authorize(
                    serviceProvider: requestor, mvpd: "NotBoarded", resources: ["news"], context: rig.context)
            }
        }
        // A `retry` action is honoured twice, 1 s then 2 s later (± 20 %) on the client's clock
        // (the sandbox's); `none` is delivered at once.
        if action == "retry" {
            for (wait, retry) in [(1.0, 1), (2.0, 2)] {
                let before = rig.sandbox.clock.now
                for _ in 0..<120_000 where rig.sandbox.clock.earliestWaitDeadline == nil {
                    try await Task.sleep(nanoseconds: 1_000_000)
                }
                let retryAt = try #require(rig.sandbox.clock.earliestWaitDeadline)
                let waited = retryAt.timeIntervalSince(before)
                #expect(waited >= wait * 0.8 && waited <= wait * 1.2, "retry \(retry) waits \(waited) s")
                rig.sandbox.clock.advance(by: retryAt.timeIntervalSince(rig.sandbox.clock.now))
            }
        }
        let error = await call.value
        rig.sandbox.clearFaults()
        let sent = rig.recorder.lines.filter { $0.hasSuffix("/decisions/authorize/NotBoarded") }.count
        #expect(sent == (action == "retry" ? 3 : 1), "retried twice at most")
        guard case .server(.authorize, status, let enhanced?) = error else {
            Issue.record("Expected a server error \(status) with an enhanced error, got \(String(describing: error))")
            return
        }
        #expect(enhanced.status == status)
        #expect(enhanced.code == code)
        #expect(enhanced.action == action)
        #expect(enhanced.trace?.isEmpty == false)
        // The next request is answered normally.
        #expect(
            try await rig.client.authorize(
                serviceProvider: requestor, mvpd: "NotBoarded", resources: ["news"], context: rig.context
            ).first?.authorized == true)
    }

    @Test func forcedStatusOnTheTokenEndpointIsAnOAuthError() async throws {
        let rig = try WireRig()
        rig.sandbox.inject(SandboxFault(status: 500), into: .dcrToken)
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        }
        #expect(error == .server(operation: .dcrToken, httpStatus: 500, error: EnhancedError(code: "server_error")))
        // The credentials survive a failed token request; no /api/v2 call was attempted.
        #expect(rig.credentials.loadClientCredentials() != nil)
        #expect(rig.recorder.lines == ["POST /o/client/register", "POST /o/client/token"])
    }

    @Test func malformedBodyIsReportedAsSuch() async throws {
        let rig = try WireRig()
        rig.sandbox.inject(SandboxFault(malformedBody: true, remaining: 1), into: .profiles)
        let error = await restError { () async throws(RESTClientError) in
            try await rig.client.profiles(serviceProvider: requestor, context: rig.context)
        }
        guard case .malformedBody(.profiles, let reason) = error else {
            Issue.record("Expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not valid JSON"))
        #expect(rig.sandbox.requestLog.last?.status == 200)
    }

    @Test func droppedConnectionIsAConnectionLoss() async throws {
        let rig = try WireRig()
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .createSession)
        // A client with its own session: the request goes out on a new connection.
        let fresh = rig.client(timeout: SanitizerTiming.healthyRequestTimeout)
        let error = await restError { () async throws(RESTClientError) in
            try await fresh.createSession(
                serviceProvider: requestor, mvpd: "NotBoarded", domainName: WireRig.domainName,
                redirectURL: WireRig.redirectURL,
                context: rig.context)
        }
        guard case .transport(.createSession, .connectionLost) = error else {
            Issue.record("Expected a lost connection, got \(String(describing: error))")
            return
        }
        #expect(rig.sandbox.requestLog.last?.status == 0)
    }

    @Test func droppedKeptAliveConnectionIsRetriedOnceForAGet() async throws {
        let rig = try WireRig()
        _ = try await rig.client.configuration(serviceProvider: requestor, context: rig.context)
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .profiles)
        // libcurl (under URLSession) resends a request whose reused connection closed
        // before any answer byte, on a new connection: the GET succeeds.
        #expect(try await rig.client.profiles(serviceProvider: requestor, context: rig.context).isEmpty)
        #expect(rig.sandbox.requestLog.suffix(2).map(\.status) == [0, 200])
    }

    @Test func droppedKeptAliveConnectionNeverOutlastsTheTimeoutForAPost() async throws {
        let rig = try WireRig()
        let timeout: TimeInterval = 1
        let client = rig.client(timeout: timeout)
        _ = try await client.configuration(serviceProvider: requestor, context: rig.context)
        rig.sandbox.inject(SandboxFault(dropConnection: true, remaining: 1), into: .createSession)
        // On a reused connection libcurl resends the POST but FoundationNetworking cannot
        // rewind a Data body, so the resent request stalls; the transport's own deadline
        // ends it. Either way the caller gets a transport failure, not a hang.
        let error = await restError { () async throws(RESTClientError) in
            try await client.createSession(
                serviceProvider: requestor, mvpd: "NotBoarded", domainName: WireRig.domainName,
                redirectURL: WireRig.redirectURL,
                context: rig.context)
        }
        switch error {
        case .transport(.createSession, .connectionLost)?, .transport(.createSession, .timedOut)?: break
        default: Issue.record("Expected a transport failure, got \(String(describing: error))")
        }
    }

    @Test func closedPortCannotConnect() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let baseURL = refusing.url
        let client = RESTClient(
            baseURL: baseURL, softwareStatement: WireRig.statement, transport: CurlTransport(), timeout: 5,
            credentials: InMemoryClientCredentialsCache(), timeSource: SystemTimeSource(),
            userAgent: "AccessEnabler-Linux/WireTests")
        let context = RequestContext(
            deviceIdentifier: WireRig.deviceIdentifier, deviceInfo: .linuxDefault(platform: .tvOS))
        let error = await restError { () async throws(RESTClientError) in
            try await client.configuration(serviceProvider: requestor, context: context)
        }
        guard case .transport(.dcrRegister, .cannotConnect) = error else {
            Issue.record("Expected cannotConnect on the first call (registration), got \(String(describing: error))")
            return
        }
    }
}
