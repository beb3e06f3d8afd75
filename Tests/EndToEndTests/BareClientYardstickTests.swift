import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Synchronization
import Testing

@testable import AccessEnablerBenchmarks

/// The benchmark's yardstick makes the SDK's requests: the partner SSO sign-in written by
/// hand on bare libcurl (``BareSSOClient`` over ``BareLibcurlClient``, the floor of the
/// sign-in, the wave and the waiting row) sends, over loopback HTTP, the same requests as
/// the SDK on its default transport — method, path, query, header fields and body fields,
/// in the same order — with only the values that differ from one device or one registration
/// to the next (tokens, device identifier, credentials, the SAML response) left out.
@Suite struct BareClientYardstickTests {
    /// A request as the server read it, with what differs between two sign-ins masked.
    struct Seen: Equatable, CustomStringConvertible {
        var line: String
        var headers: [String]
        var body: String

        var description: String { "\(line)\n  \(headers.joined(separator: "\n  "))\n  body: \(body)" }
    }

    /// Records every request the server reads, then lets the sandbox answer it.
    final class Recorder: SandboxRequestHandler {
        let sandbox: PassSandbox
        private let seen = Mutex<[SandboxRequest]>([])

        init(_ sandbox: PassSandbox) { self.sandbox = sandbox }

        func respond(to request: SandboxRequest) async -> SandboxResponse {
            seen.withLock { $0.append(request) }
            return await sandbox.respond(to: request)
        }

        /// The requests read since the last call, masked.
        func take() -> [Seen] {
            seen.withLock { requests in
                defer { requests = [] }
                return requests.map(BareClientYardstickTests.masked)
            }
        }
    }

    /// Values that change from one sign-in to the next.
    static let varying: Set<String> = ["authorization", "ap-device-identifier", "content-length"]
    static let varyingFields: Set<String> = ["client_id", "client_secret", "SAMLResponse"]

    static func masked(_ request: SandboxRequest) -> Seen {
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let headers = request.headers.map { field in
            let name = field.name.lowercased()
            return varying.contains(name) ? "\(name): …" : "\(name): \(field.value)"
        }
        .sorted()
        let text = String(decoding: request.body, as: UTF8.self)
        let body = text.split(separator: "&").map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return varyingFields.contains(name) ? "\(name)=…" : String(pair)
        }
        .joined(separator: "&")
        let line = "\(request.method) \(request.path)\(query.isEmpty ? "" : "?" + query)"
        return Seen(line: line, headers: headers, body: body)
    }

    static func device(_ sandbox: PassSandbox) -> SimulatedPartnerFramework {
        SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
    }

    @Test func theBareLibcurlSignInSendsTheSDKsRequests() async throws {
        let sandbox = PassSandbox()
        let recorder = Recorder(sandbox)
        let server = LoopbackHTTPServer(handler: recorder)
        try server.start()
        defer { server.shutdown() }
        let baseURL = try #require(server.baseURL)
        sandbox.baseURLForLinks = baseURL

        // The SDK, as the benchmark drives it: its default transport, a new device.
        let scratch = BenchmarkScratch("yardstick")
        defer { scratch.remove() }
        let observer = BenchmarkObserver()
        let factory = BenchmarkClientFactory(
            baseURL: baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 10)
        let sdk = factory.make(
            storage: scratch.storage("sdk"), partner: Self.device(sandbox), transport: CurlTransport(),
            observer: observer)
        sdk.setRequestor("REF30")
        await sdk.waitUntilIdle()
        #expect(observer.snapshot.requestorStatus == 1)
        let sdkRequests = recorder.take()

        let curl = try BareLibcurlClient()
        defer { curl.shutdown() }
        let bare = BareSSOClient(http: .libcurl(curl), baseURL: baseURL, requestor: "REF30")
        try await bare.signIn(device: Self.device(sandbox))
        let bareRequests = recorder.take()

        #expect(
            sdkRequests.map(\.line).count == 6, "register, token, profiles, configuration, sessions/sso, profiles/sso")
        #expect(bareRequests.map(\.line) == sdkRequests.map(\.line))
        for (bare, sdk) in zip(bareRequests, sdkRequests) {
            #expect(bare == sdk, "the bare client's request\n\(bare)\nthe SDK's\n\(sdk)")
        }
        // The waiting row's bare request is the sign-in's first.
        let registration = bare.registration
        #expect(bareRequests.first?.line == "\(registration.method) /\(registration.path)")
    }
}
