import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client a ``BareSSOClient`` makes its requests with: a bare one, either libcurl
/// driven directly (the platform's floor) or URLSession.
enum BareHTTPClient: Sendable {
    /// ``BareLibcurlClient``: libcurl's multi interface and nothing else.
    case libcurl(BareLibcurlClient)
    /// One ephemeral `URLSession` (``BareSSOClient/makeSession()``), completion handlers.
    case urlSession(URLSession)

    /// How the benchmark's rows name the client.
    var label: String {
        switch self {
        case .libcurl: "bare client (libcurl)"
        case .urlSession: "bare client (URLSession)"
        }
    }

    /// One request: the status and body.
    func exchange(_ method: String, _ url: URL, _ headers: [(String, String)], body: Data?, timeout: TimeInterval)
        async throws -> (Int, Data)
    {
        switch self {
        case .libcurl(let client):
            return try await client.send(method, url, headers, body: body, timeout: timeout)
        case .urlSession(let session):
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
            request.httpMethod = method
            for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
            request.httpBody = body
            let (data, response) = try await Self.load(session, request)
            return (response.statusCode, data)
        }
    }

    /// A data task bridged to async (the same bridge the SDK's URLSession transport uses, without its deadline).
    private static func load(_ session: URLSession, _ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                guard let http = response as? HTTPURLResponse else {
                    return continuation.resume(throwing: BareSSOClient.Failure(description: "not HTTP"))
                }
                continuation.resume(returning: (data ?? Data(), http))
            }.resume()
        }
    }
}

/// The partner SSO sign-in written by hand on a bare HTTP client (``BareHTTPClient``): the
/// six requests the SDK makes at setRequestor (DCR register, DCR token, profiles, then the
/// configuration once no profile is in force, sessions/sso, profiles/sso) with the same
/// headers and bodies, the two partner framework questions the status header and the SAML
/// response need, and only the JSON reading each step needs. The benchmark's yardstick for
/// the SDK's overhead.
struct BareSSOClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let http: BareHTTPClient
    let baseURL: URL
    let requestor: String
    /// The SDK's `X-Device-Info` for a tvOS application with partner single sign-on.
    var deviceInfoHeader: String { Self.sdkDeviceInfo }
    /// The SDK's default `User-Agent`.
    var userAgent: String { Self.sdkUserAgent }

    private static let sdkDeviceInfo = DeviceInfo.linuxDefault(platform: .tvOS, partnerSingleSignOn: true).headerValue
    private static let sdkUserAgent = AccessEnablerConfiguration().userAgent

    /// Signs `device`'s system-level sign-in into an Adobe profile; returns when the
    /// profile is created (`201`), throws otherwise.
    func signIn(device: SimulatedPartnerFramework) async throws {
        let deviceIdentifier = "fingerprint " + Data(UUID().uuidString.utf8).base64EncodedString()
        let accessToken = try await accessToken()
        let bearer = "Bearer \(accessToken)"
        let readHeaders = [
            ("Authorization", bearer), ("AP-Device-Identifier", deviceIdentifier), ("X-Device-Info", deviceInfoHeader),
            ("Accept", "application/json"), ("User-Agent", userAgent),
        ]
        // The device's profiles, then — none being in force — the configuration, as the SDK asks them.
        guard try await send("GET", "api/v2/\(requestor)/profiles", readHeaders)["profiles"] is [String: Any] else {
            throw Failure(description: "profiles answer without profiles")
        }
        guard try await send("GET", "api/v2/\(requestor)/configuration", readHeaders)["requestor"] is [String: Any]
        else {
            throw Failure(description: "configuration without requestor")
        }

        // What the SDK asks the device before the exchange: permission and current sign-in.
        guard await device.accessStatus(prompt: false) == .granted else {
            throw Failure(description: "partner access not granted")
        }
        let account = try await device.accountMetadata(PartnerMetadataRequest(isInterruptionAllowed: false))
        guard let provider = account.accountProviderIdentifier, let expiry = account.authenticationExpirationDate else {
            throw Failure(description: "device not signed in")
        }
        let partnerStatus = try Self.partnerStatusHeader(provider: provider, expiry: expiry)
        let partnerHeaders: [(String, String)] = [
            ("Authorization", bearer), ("Content-Type", "application/x-www-form-urlencoded"),
            ("AP-Device-Identifier", deviceIdentifier),
            ("X-Device-Info", deviceInfoHeader), ("AP-Partner-Framework-Status", partnerStatus),
            ("Accept", "application/json"), ("User-Agent", userAgent),
        ]
        let partnerSession = try await send(
            "POST", "api/v2/\(requestor)/sessions/sso/Apple", partnerHeaders,
            body: Self.form([("domainName", "adobe.com"), ("redirectUrl", "adobepass://ios.app")]))
        guard partnerSession["actionName"] as? String == "partner_profile",
            let authenticationRequest = partnerSession["authenticationRequest"] as? [String: Any],
            let samlRequest = authenticationRequest["request"] as? String
        else { throw Failure(description: "no partner_profile action") }
        let attributeNames = authenticationRequest["attributesNames"] as? [String] ?? []
        let answer = try await device.accountMetadata(
            PartnerMetadataRequest(
                isInterruptionAllowed: false, supportedAccountProviderIdentifiers: [provider], samlRequest: samlRequest,
                attributeNames: attributeNames))
        guard let samlResponse = answer.samlResponse else { throw Failure(description: "no SAML response") }
        let encoded =
            Data(base64Encoded: samlResponse) != nil ? samlResponse : Data(samlResponse.utf8).base64EncodedString()
        let (status, profiles) = try await exchange(
            "POST", "api/v2/\(requestor)/profiles/sso/Apple", partnerHeaders,
            body: Self.form([("SAMLResponse", encoded)]))
        guard status == 201, profiles["profiles"] != nil else {
            throw Failure(description: "profiles/sso answered \(status)")
        }
    }

    /// The first request of a sign-in, DCR's registration, as the SDK sends it: what the
    /// waiting measurement's bare rows send to a server that never answers.
    var registration: (method: String, path: String, headers: [(String, String)], body: Data) {
        let headers = [
            ("Content-Type", "application/json"), ("X-Device-Info", deviceInfoHeader), ("Accept", "application/json"),
            ("User-Agent", userAgent),
        ]
        return ("POST", "o/client/register", headers, Data(#"{"software_statement":"STATEMENT"}"#.utf8))
    }

    /// DCR: registers the software statement, then trades the credentials for an access token.
    func accessToken() async throws -> String {
        let request = registration
        let registration = try await send(request.method, request.path, request.headers, body: request.body)
        guard let clientID = registration["client_id"] as? String,
            let clientSecret = registration["client_secret"] as? String
        else {
            throw Failure(description: "registration without credentials")
        }
        let token = try await send(
            "POST", "o/client/token",
            [
                ("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", deviceInfoHeader),
                ("Accept", "application/json"), ("User-Agent", userAgent),
            ],
            body: Self.form([
                ("client_id", clientID), ("client_secret", clientSecret), ("grant_type", "client_credentials"),
            ]))
        guard let accessToken = token["access_token"] as? String else {
            throw Failure(description: "token response without a token")
        }
        return accessToken
    }

    /// Sends one request and returns its JSON object; a status other than 2xx throws.
    private func send(_ method: String, _ path: String, _ headers: [(String, String)], body: Data? = nil) async throws
        -> [String: Any]
    {
        let (status, object) = try await exchange(method, path, headers, body: body)
        guard (200..<300).contains(status) else { throw Failure(description: "\(method) \(path) answered \(status)") }
        return object
    }

    private func exchange(_ method: String, _ path: String, _ headers: [(String, String)], body: Data?) async throws
        -> (Int, [String: Any])
    {
        let (status, data) = try await http.exchange(
            method, baseURL.appendingPathComponent(path), headers, body: body, timeout: 10)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, object)
    }

    /// `AP-Partner-Framework-Status`: Base64 JSON, access granted, the provider and its expiry (epoch ms).
    private static func partnerStatusHeader(provider: String, expiry: Date) throws -> String {
        let document: [String: Any] = [
            "frameworkPermissionInfo": ["accessStatus": "granted"],
            "frameworkProviderInfo": [
                "id": provider, "expirationDate": String(Int64((expiry.timeIntervalSince1970 * 1000).rounded())),
            ],
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).base64EncodedString()
    }

    private static let formAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    private static func form(_ pairs: [(String, String)]) -> Data {
        let text = pairs.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? value)
        }.joined(separator: "&")
        return Data(text.utf8)
    }

    /// An ephemeral session configured as the SDK's transport configures its own.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }
}
