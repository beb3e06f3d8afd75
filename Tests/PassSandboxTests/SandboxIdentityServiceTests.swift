import Foundation
import Testing

@testable import PassSandbox

/// The world's identity services: the tokens the sandbox issues as one, the keyring that
/// verifies what applications present, and the world file's `identityServices`.
@Suite("Identity services and their tokens")
struct SandboxIdentityServiceTests {
    @Test func anIssuedTokenCarriesTheDocumentedClaimsAndVerifies() throws {
        let sandbox = PassSandbox()
        sandbox.clock.advance(by: 0.75)
        let compact = try sandbox.issueIdentityToken(subject: "jane", validFor: 3_600.5)
        let token = try SandboxJWS.parse(compact).get()
        #expect(token.keyID == "sandbox-identity-2026")
        #expect(
            token.claims
                == SandboxJWTClaims(
                    issuer: "sandbox-identity", subject: "jane", audiences: ["Adobe"],
                    issuedAt: 1_767_225_600, expiresAt: 1_767_229_201, notBefore: nil))
        let header = try #require(SandboxBase64URL.decode(compact.prefix { $0 != "." }))
        #expect(
            String(decoding: header, as: UTF8.self) == #"{"alg":"RS256","typ":"JWT","kid":"sandbox-identity-2026"}"#)
        let keyring = sandbox.withEngine { $0.identityKeyring }
        let verified = try keyring.verify(compact, presentedAs: .serviceToken, now: sandbox.clock.now).get()
        #expect(verified.identity == VerifiedIdentity(issuer: "sandbox-identity", subject: "jane", kind: .serviceToken))

        let platform = try sandbox.issueIdentityToken(subject: "device-7", issuer: "sandbox-platform")
        #expect(
            try keyring.verify(platform, presentedAs: .platformIdentity, now: sandbox.clock.now).get().identity.kind
                == .platformIdentity)
        guard
            case .failure(.wrongKind(issuer: "sandbox-platform", kind: .platformIdentity)) = keyring.verify(
                platform, presentedAs: .serviceToken, now: sandbox.clock.now)
        else {
            Issue.record("a platform identity was accepted as a service token")
            return
        }
    }

    @Test func issuingRefusesWhatItCannotSign() throws {
        let sandbox = PassSandbox(
            world: try worldWith(#"[{"issuer": "acme", "kind": "serviceToken", "key": \#(publicJWK)}]"#))
        #expect(
            throws: SandboxIdentityError(
                issuer: "nobody",
                problem:
                    "the world has no identity service with this issuer (it has acme, sandbox-identity, sandbox-platform)"
            )
        ) {
            try sandbox.issueIdentityToken(subject: "jane", issuer: "nobody")
        }
        #expect(
            throws: SandboxIdentityError(
                issuer: "acme", problem: "the world gives only its public key, so the sandbox cannot sign for it")
        ) {
            try sandbox.issueIdentityToken(subject: "jane", issuer: "acme")
        }
        #expect(throws: SandboxIdentityError(issuer: "sandbox-identity", problem: "the subject must not be empty")) {
            try sandbox.issueIdentityToken(subject: "")
        }
        #expect(throws: SandboxIdentityError.self) {
            try sandbox.issueIdentityToken(subject: "jane", validFor: .infinity)
        }
        // A token the world's public key verifies, signed by the identity service itself.
        let keys = try SandboxIndependentKeys.load()
        let now = sandbox.clock.now.timeIntervalSince1970
        let token = SandboxJWS.sign(
            SandboxJWTClaims(issuer: "acme", subject: "jane", audiences: ["Adobe"], issuedAt: now, expiresAt: now + 60),
            keyID: "fixture-identity-2026", with: keys.privateKey)
        let keyring = sandbox.withEngine { $0.identityKeyring }
        #expect(
            try keyring.verify(token, presentedAs: .serviceToken, now: sandbox.clock.now).get().identity.subject
                == "jane")
    }

    @Test func theKeyIDMustNameTheIssuersKey() throws {
        let sandbox = PassSandbox()
        let key = try #require(try SandboxDefaultIdentityKeys.serviceToken.rsaKeys().get().privateKey)
        let now = sandbox.clock.now.timeIntervalSince1970
        let token = SandboxJWS.sign(
            SandboxJWTClaims(
                issuer: "sandbox-identity", subject: "jane", audiences: ["Adobe"], issuedAt: now, expiresAt: now + 60),
            keyID: "retired-key", with: key)
        let result = sandbox.withEngine { $0.identityKeyring }.verify(
            token, presentedAs: .serviceToken, now: sandbox.clock.now)
        guard case .failure(.keyIDMismatch(found: "retired-key", expected: "sandbox-identity-2026")) = result else {
            Issue.record("a token naming another key was not refused: \(result)")
            return
        }
    }

    @Test func anEmptyTokenHeaderIsRefused() async throws {
        let client = try await SandboxTestClient()
        var headers = client.headers()
        headers.append(("Adobe-Subject-Token", "  "))
        let response = await client.sandbox.respond(
            to: SandboxRequest(method: "GET", target: "/api/v2/REF30/profiles", headers: headers))
        #expect(response.status == 400)
        let error = try SandboxTestClient.object(response)
        #expect(error.string("code") == "invalid_header_subject_token")
        #expect(error.string("details") == "The Adobe-Subject-Token header is empty.")
    }

    @Test func aWorldFileAddsIdentityServices() throws {
        let world = try worldWith(
            """
            [{"issuer": "acme", "kind": "serviceToken", "key": \(publicJWK)},
             {"issuer": "derivation-test", "kind": "platformIdentity"},
             {"issuer": "sandbox-identity", "kind": "platformIdentity", "key": \(privateJWK)}]
            """)
        #expect(world.identityServices.map(\.issuer) == ["acme", "derivation-test", "sandbox-identity"])
        #expect(
            world.identityServicesInForce.map(\.issuer) == [
                "sandbox-platform", "acme", "derivation-test", "sandbox-identity",
            ])
        let sandbox = PassSandbox(world: world)
        // Without a key, the key derived from the issuer: the sandbox can sign for it.
        let derived = try sandbox.issueIdentityToken(subject: "jane", issuer: "derivation-test")
        let keyring = sandbox.withEngine { $0.identityKeyring }
        #expect(
            try keyring.verify(derived, presentedAs: .platformIdentity, now: sandbox.clock.now).get().identity.issuer
                == "derivation-test")
        #expect(SandboxJWS.parse(derived).map(\.keyID) == .success(nil))
        // Listing a default's issuer replaces it: sandbox-identity is now a platform identity with the fixture's key.
        let replaced = try sandbox.issueIdentityToken(subject: "jane")
        #expect(try SandboxJWS.parse(replaced).get().keyID == "fixture-identity-2026")
        #expect(
            try keyring.verify(replaced, presentedAs: .platformIdentity, now: sandbox.clock.now).get().identity.issuer
                == "sandbox-identity")
    }

    @Test(arguments: [
        (#"[{"issuer": "acme", "kind": "serviceToken", "color": "red"}]"#, "identityServices[0].color: unknown key"),
        (
            #"[{"issuer": "acme", "kind": "password"}]"#,
            #"identityServices[0].kind: expected "serviceToken" or "platformIdentity", found "password""#
        ),
        (#"[{"kind": "serviceToken"}]"#, "identityServices[0].issuer: required key is missing"),
        (#"[{"issuer": "", "kind": "serviceToken"}]"#, "identityServices[0].issuer: must not be empty"),
        (
            #"[{"issuer": "a", "kind": "serviceToken"}, {"issuer": "a", "kind": "platformIdentity"}]"#,
            #"identityServices[1].issuer: duplicate identity service "a""#
        ),
        (#"{"issuer": "a", "kind": "serviceToken"}"#, "identityServices: expected an array"),
        (
            #"[{"issuer": "a", "kind": "serviceToken", "key": {"kty": "EC", "n": "AQAB", "e": "AQAB"}}]"#,
            #"identityServices[0].key.kty: expected "RSA", found "EC""#
        ),
        (
            #"[{"issuer": "a", "kind": "serviceToken", "key": {"kty": "RSA", "n": "AQAB", "e": "AQAB", "x5c": []}}]"#,
            "identityServices[0].key.x5c: unknown key"
        ),
        (
            #"[{"issuer": "a", "kind": "serviceToken", "key": {"kty": "RSA", "n": "AQAB", "e": "AQAB"}}]"#,
            "identityServices[0].key.n: an RS256 key needs a modulus of 2048 to 8192 bits, found 17"
        ),
        (
            #"[{"issuer": "a", "kind": "serviceToken", "key": {"kty": "RSA", "n": "not+base64", "e": "AQAB"}}]"#,
            "identityServices[0].key.n: not a Base64URL-encoded number"
        ),
    ])
    func aWorldFileWithABadIdentityServiceIsRefused(services: String, message: String) throws {
        #expect(throws: SandboxWorldError.self) { try worldWith(services) }
        do {
            _ = try worldWith(services)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func aPrivateKeyThatDoesNotMatchIsRefused() throws {
        let other = SandboxDefaultIdentityKeys.serviceToken
        // The fixture's private exponent with one digit changed: still below n, but wrong.
        var exponent = Array(IndependentFixtures.key.d ?? "")
        exponent[1] = exponent[1] == "V" ? "W" : "V"
        let mismatched =
            #"{"kty": "RSA", "n": "\#(IndependentFixtures.key.n)", "e": "AQAB", "d": "\#(String(exponent))"}"#
        #expect(
            throws: SandboxWorldError(
                path: "identityServices[0].key.d",
                problem: "the private key does not match the public key (n, e): its signatures do not verify")
        ) {
            try worldWith(#"[{"issuer": "a", "kind": "serviceToken", "key": \#(mismatched)}]"#)
        }
        let wrongPrime =
            #"{"kty": "RSA", "n": "\#(IndependentFixtures.key.n)", "e": "AQAB", "d": "\#(IndependentFixtures.key.d ?? "")", "p": "\#(other.p ?? "")", "q": "\#(other.q ?? "")"}"#
        #expect(throws: SandboxWorldError(path: "identityServices[0].key.p", problem: "p × q must equal the modulus n"))
        {
            try worldWith(#"[{"issuer": "a", "kind": "serviceToken", "key": \#(wrongPrime)}]"#)
        }
    }

    @Test func aWorldBuiltInCodeWithABadKeySaysSoWhenItsTokensArrive() async throws {
        let broken = SandboxIdentityService(
            issuer: "broken", kind: .serviceToken, key: SandboxJWK(n: "AQAB", e: "AQAB"))
        var world = SandboxWorld.default
        world.identityServices = [broken]
        let sandbox = PassSandbox(world: world)
        #expect(throws: SandboxIdentityError.self) { try sandbox.issueIdentityToken(subject: "jane", issuer: "broken") }
        let payload = SandboxBase64URL.encode(
            Array(#"{"iss":"broken","sub":"jane","aud":"Adobe","exp":1799999999}"#.utf8))
        let token = SandboxBase64URL.encode(Array(#"{"alg":"RS256"}"#.utf8)) + "." + payload + ".c2ln"
        let client = try await SandboxTestClient(sandbox: sandbox)
        var headers = client.headers()
        headers.append(("AD-Service-Token", token))
        let response = await sandbox.respond(
            to: SandboxRequest(method: "GET", target: "/api/v2/REF30/profiles", headers: headers))
        #expect(response.status == 400)
        #expect(
            try SandboxTestClient.object(response).string("details")?.hasPrefix(
                "The world's key for the issuer \"broken\" is unusable") == true)
    }

    // MARK: Helpers

    /// The independent fixture's public key, as a JWK object.
    private var publicJWK: String {
        #"{"kty": "RSA", "kid": "fixture-identity-2026", "n": "\#(IndependentFixtures.key.n)", "e": "\#(IndependentFixtures.key.e)"}"#
    }

    /// The independent fixture's whole key pair, as a JWK object.
    private var privateJWK: String {
        let key = IndependentFixtures.key
        return
            #"{"kty": "RSA", "kid": "\#(key.kid ?? "")", "n": "\#(key.n)", "e": "\#(key.e)", "d": "\#(key.d ?? "")", "p": "\#(key.p ?? "")", "q": "\#(key.q ?? "")"}"#
    }

    /// A small world whose `identityServices` is `services` (JSON).
    private func worldWith(_ services: String) throws(SandboxWorldError) -> SandboxWorld {
        try SandboxWorld.load(
            from: Data(
                """
                {"softwareStatements": {"S": ["SP"]}, "serviceProviders": [{"id": "SP", "mvpds": [{"id": "M"}]}],
                 "identityServices": \(services)}
                """.utf8))
    }
}
