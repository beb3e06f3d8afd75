import AccessEnabler
import Foundation

/// The service's client of the TV provider's identity service: the device-level sign-in
/// (RFC 8628's device authorization: a code for the person, then polls), the SAML responses
/// the household's credential obtains, and the credential's revocation.
///
/// In this project PassSandbox plays that identity service (its `/tv-provider` endpoints,
/// Docs/ProviderService.md). A device maker's production service talks to whatever its
/// partnership with Adobe and the providers defines; only this client would change.
package struct IdentityProviderClient: Sendable {
    /// The identity service's base URL (the sandbox's, `http://127.0.0.1:8080`).
    package let base: URL
    let transport: any HTTPTransport
    /// Seconds one request may take.
    let timeout: TimeInterval
    let now: @Sendable () -> Date
    /// The largest answer read.
    static let maximumAnswerSize = 256 * 1024

    package init(
        base: URL, transport: any HTTPTransport = URLSessionTransport(), timeout: TimeInterval = 10,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.base = base
        self.transport = transport
        self.timeout = timeout
        self.now = now
    }

    /// Opens a household sign-in offering `supported` (mapping ids, in order; empty: every
    /// provider), `featured` first.
    package func requestCode(supported: [String], featured: [String]) async -> Result<
        IssuedSignInCode, IdentityProviderFailure
    > {
        var form: [(String, String)] = []
        if !supported.isEmpty { form.append(("supported", supported.joined(separator: ","))) }
        if !featured.isEmpty { form.append(("featured", featured.joined(separator: ","))) }
        let started = now()
        switch await post("/tv-provider/device/code", form: form) {
        case .failure(let failure): return .failure(failure)
        case .success(let (status, object)):
            guard status == 200 else { return .failure(Self.refusal(status, object)) }
            guard let deviceCode = object["device_code"] as? String, !deviceCode.isEmpty,
                let userCode = object["user_code"] as? String, !userCode.isEmpty,
                let url = object["verification_uri"] as? String, !url.isEmpty,
                let expiresIn = Self.seconds(object["expires_in"], in: 1...86_400)
            else {
                return .failure(
                    .badAnswer("the code answer lacks device_code, user_code, verification_uri or a valid expires_in"))
            }
            let complete = (object["verification_uri_complete"] as? String) ?? url
            let interval = Self.seconds(object["interval"], in: 1...60) ?? 5
            return .success(
                IssuedSignInCode(
                    code: SignInCode(
                        code: userCode, url: url, completeURL: complete,
                        expiresAt: started.addingTimeInterval(expiresIn)),
                    deviceCode: deviceCode, interval: interval))
        }
    }

    /// Asks whether the sign-in with `deviceCode` ended.
    package func poll(deviceCode: String) async -> Result<HouseholdPollOutcome, IdentityProviderFailure> {
        let asked = now()
        switch await post("/tv-provider/device/token", form: [("device_code", deviceCode)]) {
        case .failure(let failure): return .failure(failure)
        case .success(let (status, object)):
            if status != 200 {
                switch object["error"] as? String {
                case "authorization_pending", "slow_down": return .success(.pending)
                case "access_denied": return .success(.cancelled)
                case "other_provider_selected": return .success(.otherProvider)
                case "expired_token", "invalid_grant": return .success(.expired)
                default: return .failure(Self.refusal(status, object))
                }
            }
            guard let provider = object["provider"] as? String, !provider.isEmpty else {
                return .failure(.badAnswer("the sign-in answer names no provider"))
            }
            let name = (object["provider_name"] as? String) ?? provider
            guard (object["boarded"] as? Bool) ?? true else { return .success(.chosenOnly(provider: provider)) }
            guard let token = object["access_token"] as? String, !token.isEmpty,
                let expiresIn = Self.seconds(object["expires_in"], in: 1...31_536_000)
            else { return .failure(.badAnswer("the sign-in answer lacks access_token or a valid expires_in")) }
            return .success(
                .signedIn(
                    HouseholdSignIn(
                        provider: provider, providerName: name, expiresAt: asked.addingTimeInterval(expiresIn),
                        credential: token)))
        }
    }

    /// The household's SAML response to `samlRequest` (Base64, as Adobe Pass takes it).
    package func samlResponse(to samlRequest: String, credential: String) async -> Result<
        String, IdentityProviderFailure
    > {
        switch await post("/tv-provider/saml", form: [("SAMLRequest", samlRequest)], bearer: credential) {
        case .failure(let failure): return .failure(failure)
        case .success(let (status, object)):
            switch status {
            case 200:
                guard let saml = object["saml_response"] as? String, !saml.isEmpty else {
                    return .failure(.badAnswer("the answer has no saml_response"))
                }
                return .success(saml)
            case 401: return .failure(.refusedCredential)
            case 400 where object["error"] as? String == "invalid_request": return .failure(.unknownSAMLRequest)
            case 403:
                return .failure(
                    .providerRejected(
                        (object["error_description"] as? String) ?? "The TV provider refused to answer for this app."))
            default: return .failure(Self.refusal(status, object))
            }
        }
    }

    /// Ends `credential` at the identity service; failures are ignored (the service has
    /// forgotten the credential already).
    package func revoke(_ credential: String) async {
        _ = await post("/tv-provider/revoke", form: [("token", credential)])
    }

    // MARK: HTTP

    private func post(_ path: String, form: [(String, String)], bearer: String? = nil) async -> Result<
        (Int, [String: Any]), IdentityProviderFailure
    > {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text + path) else { return .failure(.unreachable("\(text + path) is not a URL")) }
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        let body = form.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let request = HTTPRequestMessage(
            method: "POST", url: url, headers: headers, body: Data(body.utf8), operationName: "tvProvider",
            maximumResponseBodySize: Self.maximumAnswerSize)
        let response: HTTPResponseMessage
        do {
            response = try await transport.send(request, timeout: timeout)
        } catch {
            return .failure(.unreachable("\(url.absoluteString): \(error)"))
        }
        if response.status >= 500 {
            return .failure(.unreachable("\(url.absoluteString) answered HTTP \(response.status)"))
        }
        guard let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            return .failure(.badAnswer("\(url.absoluteString) answered HTTP \(response.status) without a JSON object"))
        }
        return .success((response.status, object))
    }

    private static func refusal(_ status: Int, _ object: [String: Any]) -> IdentityProviderFailure {
        let error = (object["error"] as? String).map { " \($0)" } ?? ""
        let description = (object["error_description"] as? String).map { ": \($0)" } ?? ""
        return .badAnswer("HTTP \(status)\(error)\(description)")
    }

    /// A whole number of seconds within `range`, when the value is one.
    static func seconds(_ value: Any?, in range: ClosedRange<Double>) -> TimeInterval? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let seconds = number.doubleValue
        guard seconds.isFinite, range.contains(seconds) else { return nil }
        return seconds
    }

    /// The unreserved characters of RFC 3986, which form encoding leaves as they are.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
