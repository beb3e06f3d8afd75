import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// `dump()` — and anything else that walks a `Mirror`, a debugger's `po` included — shows no
/// secret of any public type: every value a signed-in AccessEnabler hands the app or its
/// transport is dumped, with the configuration (a service token and a device identifier in
/// it), and the output is searched for the actual secrets the session holds: the DCR client
/// secret, the access token, the media token, the service token, the device identifier
/// (configured and as sent), a SAML response.
@Suite struct DumpSecrecyTests {
    /// A transport that keeps every request and response whole: where the test finds the
    /// secrets to look for.
    final class Exchanges: HTTPTransport, @unchecked Sendable {
        let inner: any HTTPTransport
        private let lock = NSLock()
        private var kept: [(HTTPRequestMessage, HTTPResponseMessage)] = []

        init(_ inner: any HTTPTransport) { self.inner = inner }

        var all: [(request: HTTPRequestMessage, response: HTTPResponseMessage)] { lock.withLock { kept } }

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            let response = try await inner.send(request, timeout: timeout)
            lock.withLock { kept.append((request, response)) }
            return response
        }

        /// A string field of the JSON answer to the request whose path ends with `path`.
        func answerField(_ field: String, ofPathEndingWith path: String) -> String? {
            all.lazy.filter { $0.request.url.path.hasSuffix(path) }
                .compactMap { try? JSONSerialization.jsonObject(with: $0.response.body) as? [String: Any] }
                .compactMap { $0[field] as? String }.first
        }
    }

    /// What the app heard, kept whole.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Any] = []
        func append(_ value: Any) { lock.withLock { values.append(value) } }
        var all: [Any] { lock.withLock { values } }
    }

    @Test(arguments: [ScenarioRunner.Wire.loopbackHTTP, .inProcess])
    func noDumpOfAPublicValueShowsASecret(wire: ScenarioRunner.Wire) async throws {
        let sandbox = PassSandbox()
        let baseURL: URL
        let inner: any HTTPTransport
        var server: LoopbackHTTPServer?
        switch wire {
        case .loopbackHTTP:
            let served = try sandbox.serveOverLoopback()
            (server, baseURL, inner) = (served.server, served.baseURL, URLSessionTransport())
            sandbox.baseURLForLinks = baseURL
        case .inProcess:
            (baseURL, inner) = (sandbox.baseURLForLinks, sandbox.inProcessTransport)
        }
        defer { server?.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("dump-secrecy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let exchanges = Exchanges(inner)
        let heard = Heard()
        let serviceToken = try sandbox.issueIdentityToken(subject: "jane")
        let configuredDeviceIdentifier = "configured-device-\(UUID().uuidString)"
        let samlResponse = "PHNhbWxwOlJlc3BvbnNlPg-\(UUID().uuidString)"
        var configuration = AccessEnablerConfiguration(
            environment: .custom(baseURL), platform: .tvOS, storageDirectory: storage, transport: exchanges,
            clock: SandboxTimeSource(sandbox.clock))
        configuration.loginScreen = .thisDevice
        configuration.deviceIdentifier = configuredDeviceIdentifier
        configuration.serviceToken = { serviceToken }
        configuration.diagnostics = { heard.append($0) }
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        let events = accessEnabler.events
        let listening = Task { for await event in events { heard.append(event) } }
        defer { listening.cancel() }

        // Signed in through the MVPD's page, authorized, asked about: every answer is kept.
        try await accessEnabler.configure(requestor: "REF30")
        heard.append(try await accessEnabler.authenticationStatus())
        let choice = try await accessEnabler.authenticate()
        heard.append(choice)
        let page = try await accessEnabler.selectProvider("NotBoarded")
        heard.append(page)
        guard case .openLoginPage(let url, _) = page else {
            Issue.record("no login page: \(page)")
            return
        }
        let agent = wire == .inProcess ? SimulatedUserAgent(sandbox: sandbox) : SimulatedUserAgent(httpBase: baseURL)
        let landing = try await agent.login(
            startingAt: url, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
        heard.append(try await accessEnabler.handleRedirect(landing))
        let mediaToken = try await accessEnabler.authorize("news")
        heard.append(mediaToken)
        heard.append(try await accessEnabler.authenticationStatus())
        heard.append(try await accessEnabler.selectedProvider() as Any)
        heard.append(try await accessEnabler.preauthorizedResources(["news", "sports"]))
        await accessEnabler.waitUntilIdle()

        // The secrets the session holds, read where they travelled.
        let secrets: [(String, String?)] = [
            ("the DCR client secret", exchanges.answerField("client_secret", ofPathEndingWith: "/o/client/register")),
            ("the access token", exchanges.answerField("access_token", ofPathEndingWith: "/o/client/token")),
            ("the media token", mediaToken.serializedToken),
            ("the service token", serviceToken),
            ("the configured device identifier", configuredDeviceIdentifier),
            (
                "the device identifier as sent",
                exchanges.all.lazy.compactMap { $0.request.header("AP-Device-Identifier") }.first.map {
                    String($0.dropFirst("fingerprint ".count))
                }
            ),
            ("the SAML response", samlResponse),
        ]
        let exchanged = exchanges.all
        let sent = exchanged.map {
            "\($0.request.headers) \(String(decoding: $0.request.body ?? Data(), as: UTF8.self))"
        }.joined()
        let travelling: Set = [
            "the DCR client secret", "the access token", "the service token", "the device identifier as sent",
        ]
        for (name, secret) in secrets {
            let secret = try #require(secret, "\(name) was found")
            #expect(secret.count >= 12, "\(name) is a real value")
            if travelling.contains(name) { #expect(sent.contains(secret), "\(name) travelled in a request") }
        }

        // Every public value reachable from the signed-in AccessEnabler, dumped.
        var values: [(String, Any)] = [
            ("the AccessEnabler", accessEnabler), ("its configuration", accessEnabler.configuration),
        ]
        values += heard.all.map { ("what the app heard", $0) }
        values += exchanged.flatMap { [("a request", $0.request as Any), ("a response", $0.response as Any)] }
        values.append(
            (
                "partner metadata",
                PartnerAccountMetadata(accountProviderIdentifier: "NotBoarded", samlResponse: samlResponse)
            ))
        #expect(
            heard.all.contains { $0 is MediaToken } && heard.all.contains { $0 is Diagnostic }
                && heard.all.contains { $0 is AccessEnablerEvent })
        for (what, value) in values {
            var text = ""
            dump(value, to: &text)
            for (name, secret) in secrets {
                #expect(!text.contains(secret ?? "-"), "a dump of \(what) shows \(name):\n\(text)")
            }
        }

        // What the dumps do show: enough to see what is going on.
        var text = ""
        dump(accessEnabler, to: &text)
        #expect(
            text.contains("configuration") && text.contains(storage.path)
                && text.contains("deviceIdentifier: hidden ("), "\(text)")
        text = ""
        dump(mediaToken, to: &text)
        #expect(
            text.contains("news")
                && text.contains("serializedToken: hidden (\(mediaToken.serializedToken.count) characters)"), "\(text)")
        text = ""
        dump(try #require(exchanged.first { $0.request.url.path.hasSuffix("/o/client/token") }).request, to: &text)
        #expect(text.contains("POST") && text.contains("/o/client/token") && text.contains("bytes"), "\(text)")
    }
}
