import Foundation

/// The TV provider's identity service for a device-level sign-in (the household's one
/// sign-in that a device's provider service, `accessenabler provider-service`, keeps for
/// every app): the sandbox plays the MVPDs' side of what Apple's platform does with them.
///
/// The device gets a code the way RFC 8628 (OAuth 2.0 device authorization) has it:
/// - `POST /tv-provider/device/code` (form: optional `supported` and `featured`, comma-separated
///   provider mapping ids) → `device_code`, `user_code`, `verification_uri`,
///   `verification_uri_complete`, `expires_in`, `interval`;
/// - a person opens `/tv-provider`, types the code, chooses a provider and signs in there;
/// - `POST /tv-provider/device/token` (form: `device_code`) → `authorization_pending` until
///   then; `access_denied` (cancelled), `other_provider_selected`, `expired_token` or
///   `invalid_grant`; or the household credential: `access_token` (Bearer), `expires_in`,
///   `provider`, `provider_name`, `boarded` (a provider the platform does not board for
///   single sign-on is answered with `boarded: false` and no credential: the choice only).
///
/// With the credential, the device answers the SAML requests Adobe Pass hands its apps:
/// `POST /tv-provider/saml` (Bearer credential, form `SAMLRequest`) → `saml_response`, which
/// `POST /api/v2/{sp}/profiles/sso/Apple` verifies. `POST /tv-provider/revoke` (form `token`)
/// ends a credential (RFC 7009: always `200`).
extension SandboxEngine {
    /// Seconds a device's sign-in code stays usable.
    static let householdCodeTTL: TimeInterval = 600
    /// Seconds a device waits between two token polls, as the code answer says.
    static let householdPollInterval = 2
    /// The most household sign-ins and credentials kept at once (older ones are dropped).
    static let maximumHouseholdRecords = 10_000

    /// `POST /tv-provider/device/code`.
    func householdDeviceCode(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        sweepHousehold(now: now)
        let form = formParameters(request)
        func ids(_ name: String) -> [String] {
            (form[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        let record = HouseholdSignInRequest(
            deviceCode: newSecret(), userCode: newHouseholdCode(), supported: ids("supported"),
            featured: ids("featured"),
            expiresAt: now.addingTimeInterval(Self.householdCodeTTL))
        householdRequests[record.userCode] = record
        let page = absoluteURL(SandboxRoute.householdSignInPath)
        return .json(
            .object(
                ("device_code", .string(record.deviceCode)),
                ("user_code", .string(Self.displayedHouseholdCode(record.userCode))),
                ("verification_uri", .string(page)),
                ("verification_uri_complete", .string(page + "?code=" + record.userCode)),
                ("expires_in", .int(Int64(Self.householdCodeTTL))),
                ("interval", .int(Int64(Self.householdPollInterval)))
            ))
    }

    /// `POST /tv-provider/device/token`.
    func householdToken(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        sweepHousehold(now: now)
        guard let deviceCode = formParameters(request)["device_code"],
            let entry = householdRequests.first(where: { $0.value.deviceCode == deviceCode })
        else {
            return Self.oauthError("invalid_grant", description: "The device code is unknown, or was already answered.")
        }
        let record = entry.value
        guard now < record.expiresAt else {
            householdRequests[entry.key] = nil
            return Self.oauthError("expired_token", description: "Nobody signed in with the code before it expired.")
        }
        guard let outcome = record.outcome else {
            return Self.oauthError("authorization_pending", description: "Nobody has signed in with the code yet.")
        }
        householdRequests[entry.key] = nil
        switch outcome {
        case .cancelled:
            return Self.oauthError("access_denied", description: "The person cancelled the TV provider sign-in.")
        case .otherProvider:
            return Self.oauthError("other_provider_selected", description: "The person chose Other TV Provider.")
        case .chosenOnly(let provider):
            return .json(
                .object(
                    ("provider", .string(provider)),
                    ("provider_name", .string(householdProvider(provider)?.displayName ?? provider)),
                    ("boarded", .bool(false))))
        case .signedIn(let provider, let username):
            let lifetime = householdSignInLifetime(provider)
            let token = newSecret(byteCount: 32)
            householdCredentials[token] = HouseholdCredential(
                provider: provider, username: username, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
            return .json(
                .object(
                    ("access_token", .string(token)), ("token_type", .string("Bearer")),
                    ("expires_in", .int(Int64(lifetime))),
                    ("provider", .string(provider)),
                    ("provider_name", .string(householdProvider(provider)?.displayName ?? provider)),
                    ("boarded", .bool(true))))
        }
    }

    /// `POST /tv-provider/saml`: the household's SAML response to one of Adobe Pass's SAML
    /// requests. `401 invalid_token` for a credential that is unknown, revoked or expired;
    /// `400 invalid_request` for a SAML request this sandbox did not issue or that expired;
    /// `403 provider_rejected` when the household's user is not a subscriber of the requesting
    /// app's integration with that provider.
    func householdSAML(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        sweepHousehold(now: now)
        let challenge = [("WWW-Authenticate", "Bearer error=\"invalid_token\"")]
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer "),
            let credential = householdCredentials[
                String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)],
            now < credential.expiresAt
        else {
            var refusal = Self.oauthError(
                "invalid_token", status: 401, description: "The household credential is unknown, revoked or expired.")
            refusal.headers += challenge
            return refusal
        }
        guard let samlRequest = formParameters(request)["SAMLRequest"] else {
            return Self.oauthError("invalid_request", description: "The SAMLRequest parameter is missing.")
        }
        switch mintSAMLResponse(
            samlRequest: samlRequest, providerMappingID: credential.provider, username: credential.username, now: now)
        {
        case .success(let xml):
            return .json(.object(("saml_response", .string(Data(xml.utf8).base64EncodedString()))))
        case .failure(.invalidVerificationToken):
            return Self.oauthError(
                "invalid_request", description: "The SAML request was not issued by Adobe Pass, or it expired.")
        case .failure:
            return Self.oauthError(
                "provider_rejected", status: 403,
                description:
                    "The household's account is not a subscription this application's integration with "
                    + "\(credential.provider) knows."
            )
        }
    }

    /// `POST /tv-provider/revoke`: ends a household credential; always `200`.
    func householdRevoke(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        if let token = formParameters(request)["token"] { householdCredentials[token] = nil }
        return .json(.object([]))
    }

    // MARK: Providers

    /// The providers of the platform: one per platform mapping id of the world's MVPDs that
    /// may appear in the platform picker, in world order, named after the first such MVPD.
    var householdProviders: [HouseholdProvider] {
        var seen: Set<String> = []
        var providers: [HouseholdProvider] = []
        for mvpd in world.serviceProviders.flatMap(\.mvpds) where mvpd.displayInPlatformPicker {
            guard let id = mvpd.platformMappingId, seen.insert(id).inserted else { continue }
            providers.append(HouseholdProvider(id: id, displayName: mvpd.displayName, boarded: householdBoarded(id)))
        }
        return providers
    }

    func householdProvider(_ id: String) -> HouseholdProvider? {
        householdProviders.first { $0.id == id }
    }

    /// The providers the page offers for `record`: its supported ids (featured first, each
    /// in the order given) when it names some, else every provider of the platform.
    func householdChoices(_ record: HouseholdSignInRequest) -> [HouseholdProvider] {
        let all = householdProviders
        guard !record.supported.isEmpty else { return all }
        let ordered =
            record.featured.filter(record.supported.contains)
            + record.supported.filter { !record.featured.contains($0) }
        return ordered.compactMap { id in all.first { $0.id == id } }
    }

    /// The subscriber `username` with the password `password` of any MVPD that maps to `provider`.
    func householdUser(provider: String, username: String, password: String) -> SandboxUser? {
        for mvpd in world.serviceProviders.flatMap(\.mvpds) where mvpd.platformMappingId == provider {
            if let user = mvpd.user(username), user.password == password { return user }
        }
        return nil
    }

    /// A provider the platform does not know counts as boarded; otherwise some MVPD with its
    /// mapping id must be fully onboarded (`SUPPORTED`).
    private func householdBoarded(_ provider: String) -> Bool {
        let known = world.serviceProviders.flatMap(\.mvpds).filter { $0.platformMappingId == provider }
        return known.isEmpty || known.contains { $0.boardingStatus == "SUPPORTED" }
    }

    /// The first MVPD's authentication TTL for `provider`, or a day.
    private func householdSignInLifetime(_ provider: String) -> Int {
        let mvpd = world.serviceProviders.flatMap(\.mvpds).first { $0.platformMappingId == provider }
        return max(mvpd?.authenticationTTL ?? 86_400, 1)
    }

    // MARK: Codes

    /// A random 8-letter code (no letters that read alike), unused.
    func newHouseholdCode() -> String {
        let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
        var generator = SystemRandomNumberGenerator()
        while true {
            let code = String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            if householdRequests[code] == nil { return code }
        }
    }

    /// `BCDF-GHJK`: the code as a device shows it.
    static func displayedHouseholdCode(_ code: String) -> String {
        code.count == 8 ? "\(code.prefix(4))-\(code.suffix(4))" : code
    }

    /// A typed code as codes are keyed: upper case, without spaces and dashes.
    static func normalizedHouseholdCode(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != "-" && !$0.isWhitespace })
    }

    /// Forgets expired codes and credentials; keeps each table within its limit.
    private func sweepHousehold(now: Date) {
        householdRequests = householdRequests.filter {
            now < $0.value.expiresAt.addingTimeInterval(Self.householdCodeTTL)
        }
        householdCredentials = householdCredentials.filter { now < $0.value.expiresAt }
        if householdRequests.count > Self.maximumHouseholdRecords {
            let oldest = householdRequests.sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(
                householdRequests.count - Self.maximumHouseholdRecords)
            for (key, _) in oldest { householdRequests[key] = nil }
        }
        if householdCredentials.count > Self.maximumHouseholdRecords {
            let oldest = householdCredentials.sorted { $0.value.expiresAt < $1.value.expiresAt }
                .prefix(householdCredentials.count - Self.maximumHouseholdRecords)
            for (key, _) in oldest { householdCredentials[key] = nil }
        }
    }
}
