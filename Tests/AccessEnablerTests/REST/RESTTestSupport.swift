import Foundation
import Testing

@testable import AccessEnabler

/// A small in-process stand-in for Adobe Pass used by the REST client tests: it issues DCR
/// credentials and tokens, refuses `/api/v2` calls whose bearer token it did not issue (or
/// revoked), records every request and lets each test answer the `/api/v2` calls.
final class FakeAdobePass: @unchecked Sendable {
    static let baseURL = URL(string: "https://pass.example.test")!

    private let lock = NSLock()
    private var recorded: [HTTPRequestMessage] = []
    private var registrations = 0
    private var tokensIssued = 0
    private var acceptedTokens: Set<String> = []
    private var handler: @Sendable (HTTPRequestMessage) -> HTTPResponseMessage = { _ in
        HTTPResponseMessage(status: 500)
    }

    /// `expires_in` of the tokens issued.
    let tokenLifetime: Int
    /// How long each DCR token answer takes (lets concurrent callers pile up); a request
    /// cancelled meanwhile ends as a real transport's would, in `TransportFailure.cancelled`.
    let tokenDelay: Duration

    /// How many token requests, from the first, take ``tokenDelay`` (the later ones answer at once).
    let delayedTokenRequests: Int
    private var tokenRequestsSeen = 0
    /// How many registrations, from the first, fail with a `503` (the later ones succeed).
    let failedRegistrations: Int
    private var registrationAttempts = 0

    init(
        tokenLifetime: Int = 3600, tokenDelay: Duration = .zero, delayedTokenRequests: Int = .max,
        failedRegistrations: Int = 0
    ) {
        self.tokenLifetime = tokenLifetime
        self.tokenDelay = tokenDelay
        self.delayedTokenRequests = delayedTokenRequests
        self.failedRegistrations = failedRegistrations
    }

    var requests: [HTTPRequestMessage] { lock.withLock { recorded } }
    var apiRequests: [HTTPRequestMessage] { requests.filter { $0.url.path.hasPrefix("/api/v2") } }
    var registrationCount: Int { lock.withLock { registrations } }
    /// Registration requests received, those that failed included.
    var registrationRequestCount: Int { lock.withLock { registrationAttempts } }
    var tokenCount: Int { lock.withLock { tokensIssued } }

    /// Answers every `/api/v2` request that carries an accepted token.
    func answer(_ handler: @escaping @Sendable (HTTPRequestMessage) -> HTTPResponseMessage) {
        lock.withLock { self.handler = handler }
    }

    /// Answers every `/api/v2` request with `status` and `body`.
    func answer(status: Int = 200, json body: String) {
        answer { _ in .json(status, body) }
    }

    /// Stops accepting every token issued so far (as if they expired on the server).
    func revokeTokens() {
        lock.withLock { acceptedTokens.removeAll() }
    }

    var transport: InProcessTransport {
        InProcessTransport { request async throws(TransportFailure) -> HTTPResponseMessage in
            try await self.handle(request)
        }
    }

    private func handle(_ request: HTTPRequestMessage) async throws(TransportFailure) -> HTTPResponseMessage {
        lock.withLock { recorded.append(request) }
        switch request.url.path {
        case "/o/client/register":
            let number = lock.withLock { () -> Int? in
                registrationAttempts += 1
                guard registrationAttempts > failedRegistrations else { return nil }
                registrations += 1
                return registrations
            }
            guard let number else {
                return .json(
                    503,
                    #"{"status":503,"code":"service_unavailable","message":"Try again later.","action":"none"}"#)
            }
            return .json(
                201,
                """
                {"client_id":"client-\(number)","client_secret":"secret-\(number)","client_id_issued_at":1767225600,
                 "redirect_uris":["adobepass://ios.app"],"grant_types":["client_credentials"],"scopes":["api:client:v2"]}
                """)
        case "/o/client/token":
            let delayed = lock.withLock { () -> Bool in
                tokenRequestsSeen += 1
                return tokenRequestsSeen <= delayedTokenRequests
            }
            if delayed, tokenDelay > .zero {
                do { try await Task.sleep(for: tokenDelay) } catch { throw .cancelled }
            }
            let token = lock.withLock { () -> String in
                tokensIssued += 1
                let token = "token-\(tokensIssued)"
                acceptedTokens.insert(token)
                return token
            }
            return .json(
                201,
                """
                {"id":"tracking-1","access_token":"\(token)","created_at":1767225600000,"expires_in":\(tokenLifetime),"token_type":"bearer"}
                """)
        default:
            let (accepted, handler) = lock.withLock {
                () -> (Bool, @Sendable (HTTPRequestMessage) -> HTTPResponseMessage) in
                let bearer = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
                return (acceptedTokens.contains(bearer), self.handler)
            }
            guard accepted else {
                return .json(
                    401,
                    """
                    {"status":401,"code":"invalid_access_token_client_application","message":"The access token is invalid.","action":"retry"}
                    """)
            }
            return handler(request)
        }
    }
}

extension HTTPResponseMessage {
    static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: status, headers: [("Content-Type", "application/json;charset=UTF-8")], body: Data(body.utf8))
    }
}

extension HTTPRequestMessage {
    /// The body as UTF-8 text.
    var bodyText: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    /// The decoded form fields of the body.
    var formFields: [String: String] {
        Dictionary(FormEncoding.decode(bodyText).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

enum RESTFixtures {
    static let deviceIdentifier = "3f1c9a52-7be0-4d11-9a8e-55c0d2e4b7aa"
    static let deviceInfo = DeviceInfo(
        model: "Linux x86_64", version: "6.8.0", osName: "tvOS", osVersion: "17.0", connectionType: "LAN",
        primaryHardwareType: "SetTopBox", osFamily: "tvOS", osVendor: "Apple")
    static let userAgent = "AccessEnablerTests/1.0"

    static func context(
        visitorID: String? = nil, partnerStatus: PartnerFrameworkStatus? = nil, applicationProfile: String? = nil
    ) -> RequestContext {
        RequestContext(
            deviceIdentifier: deviceIdentifier, deviceInfo: deviceInfo, visitorID: visitorID, userAgent: userAgent,
            partnerStatus: partnerStatus, applicationProfile: applicationProfile)
    }

    static func client(
        _ server: FakeAdobePass, cache: any ClientCredentialsCache = InMemoryClientCredentialsCache(),
        clock: any TimeSource = ManualTimeSource()
    ) -> RESTClient {
        RESTClient(
            baseURL: FakeAdobePass.baseURL, softwareStatement: "software.statement.jwt", transport: server.transport,
            // A bound for a request that hangs only: the fake answers at once, but on a machine
            // at load 20 its answer can wait seconds for a thread.
            timeout: 60, credentials: cache, timeSource: clock, userAgent: "ClientDefaultAgent/1.0")
    }

    /// Decodes a header holding Base64 JSON into a dictionary.
    static func base64JSON(_ value: String?) -> [String: Any]? {
        guard let value, let data = Data(base64Encoded: value),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object
    }
}

/// Checks the headers every authenticated `/api/v2` request carries, plus the device
/// headers when the operation documents them.
func expectCommonHeaders(
    _ request: HTTPRequestMessage, deviceHeaders: Bool, token: String = "token-1",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(request.header("Authorization") == "Bearer \(token)", sourceLocation: sourceLocation)
    #expect(request.header("Accept") == "application/json", sourceLocation: sourceLocation)
    #expect(request.header("User-Agent") == RESTFixtures.userAgent, sourceLocation: sourceLocation)
    if deviceHeaders {
        let expectedIdentifier = "fingerprint " + Data(RESTFixtures.deviceIdentifier.utf8).base64EncodedString()
        #expect(request.header("AP-Device-Identifier") == expectedIdentifier, sourceLocation: sourceLocation)
        let info = request.header("X-Device-Info").flatMap(DeviceInfo.init(headerValue:))
        #expect(info == RESTFixtures.deviceInfo, sourceLocation: sourceLocation)
    } else {
        #expect(request.header("AP-Device-Identifier") == nil, sourceLocation: sourceLocation)
        #expect(request.header("X-Device-Info") == nil, sourceLocation: sourceLocation)
    }
}
