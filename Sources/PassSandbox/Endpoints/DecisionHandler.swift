import Foundation

/// `POST /api/v2/{sp}/decisions/authorize/{mvpd}` and `…/preauthorize/{mvpd}` with a JSON
/// body `{"resources": [...]}`.
extension SandboxEngine {
    /// Where a decision comes from (`source`).
    private enum DecisionSource: String { case mvpd, degradation, temppass }

    func decisions(_ request: SandboxRequest, serviceProvider: String, mvpd mvpdID: String, authorize: Bool, now: Date)
        throws(SandboxEnhancedError) -> SandboxResponse
    {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        let deviceID = try deviceIdentifier(request)
        try deviceInfo(request, required: true)
        let identities = try presentedIdentities(request, now: now)
        try requireBody(.json, request)
        let mvpd = try activeIntegration(caller.provider, mvpdID)
        let resources = try Self.requestedResources(request)
        let limit = authorize ? mvpd.authorizationResourceLimit : mvpd.preauthorizationResourceLimit
        guard resources.count <= limit else {
            throw SandboxEnhancedError.tooManyResources.with(details: "At most \(limit) resources per request.")
        }
        let owner = ProfileOwner(clientID: caller.grant.clientID, deviceID: deviceID, serviceProvider: serviceProvider)

        let source: DecisionSource
        // The item error of a resource `entitled` refuses, when not the MVPD's denial.
        var deniedError: SandboxEnhancedError?
        var entitled: (String) -> Bool = { _ in true }
        var itemError: SandboxEnhancedError?
        if mvpd.authzNone {
            source = .degradation
            itemError = SandboxEnhancedError.deniedByDegradationRule.with(
                details: "An AuthZNone degradation rule is applied to \(mvpd.id).")
        } else if mvpd.degraded {
            source = .degradation
        } else if mvpd.tempPass {
            // TempPass errors are item-level, as the decision samples show them.
            source = .temppass
            switch tempPassIdentity(request, mvpd: mvpd) {
            case .failure(let error):
                itemError = error
            case .success(let identity):
                // The first decision starts the TempPass (so it is never `.unused` here).
                switch tempPassStanding(owner: owner, mvpd: mvpd, identity: identity, start: true, now: now) {
                case .durationExceeded:
                    itemError = .tempPassDurationExceeded
                case .active(_, let trialID?):
                    entitled = { resource in
                        self.promotionalAllows(resource, trialID: trialID, mvpd: mvpd, consume: authorize)
                    }
                    deniedError = SandboxEnhancedError.tempPassResourcesExceeded
                case .active(_, nil), .unused:
                    break
                }
            }
        } else {
            source = .mvpd
            let profile = try requireProfile(
                request, owner: owner, mvpd: mvpd, provider: caller.provider, identities: identities, now: now)
            let user = profile.username.flatMap(mvpd.user)
            entitled = { resource in user?.resources.contains(resource) == true }
        }

        let decisionEnd = now.addingTimeInterval(TimeInterval(mvpd.authorizationTTL))
        let items: [SandboxJSON] = resources.map { resource in
            var error = itemError
            if error == nil {
                if let resourceID = Self.resourceID(resource) {
                    if !entitled(resourceID) {
                        error =
                            deniedError?.with(
                                details: "The promotional TempPass has no resources left for \"\(resourceID)\".")
                            ?? (authorize ? SandboxEnhancedError.deniedByMVPD : .preauthorizationDeniedByMVPD)
                            .with(details: "Your subscription package does not include \"\(resourceID)\".")
                    }
                } else {
                    error = SandboxEnhancedError.invalidResources.with(
                        details: "The resource is empty or not a valid MRSS item.")
                }
            }
            if let error { observed.errorActions.append(error.action) }
            let token: SandboxJSON? =
                (authorize && error == nil)
                ? .object(
                    ("notBefore", .int(now.epochMilliseconds)),
                    ("notAfter", .int(decisionEnd.epochMilliseconds)),
                    (
                        "serializedToken",
                        .string(
                            mediaToken(
                                serviceProvider: serviceProvider, mvpd: mvpd.id, resource: resource, deviceID: deviceID,
                                now: now, notAfter: decisionEnd))
                    ))
                : nil
            return .object(
                ("resource", .string(resource)),
                ("serviceProvider", .string(serviceProvider)),
                ("mvpd", .string(mvpd.id)),
                ("source", .string(source.rawValue)),
                ("authorized", .bool(error == nil)),
                ("token", token),
                ("error", error?.json),
                ("notBefore", authorize ? .int(now.epochMilliseconds) : nil),
                ("notAfter", authorize ? .int(decisionEnd.epochMilliseconds) : nil)
            )
        }
        // Denied, for the checklist monitor: nothing asked was authorized (a partly denied
        // preauthorization is the content filtering it is for).
        observed.denied = observed.errorActions.count == resources.count
        return .json(.object([("decisions", .array(items))]))
    }

    /// The profile decisions rest on: the device's own, else the one `identities` share.
    /// Neither → `authenticated_profile_missing`; the one found past its `notAfter` →
    /// `authenticated_profile_expired`; invalidated by Adobe Pass →
    /// `authenticated_profile_invalidated`. An `appleSSO` profile also needs a valid partner
    /// framework status naming its MVPD (else the `invalid_header_pfs_*` error).
    private func requireProfile(
        _ request: SandboxRequest, owner: ProfileOwner, mvpd: SandboxMVPDConfig, provider: SandboxServiceProvider,
        identities: [VerifiedIdentity], now: Date
    ) throws(SandboxEnhancedError) -> StoredProfile {
        if let own = profiles[owner]?[mvpd.id], isUsable(own, provider: provider, now: now) {
            if own.kind == .appleSSO {
                let named = try PartnerFrameworkStatus.validate(
                    header: request.header("AP-Partner-Framework-Status"), provider: provider, now: now
                ).get()
                guard named.id == mvpd.id else { throw SandboxEnhancedError.pfsProviderMismatch }
            }
            return own
        }
        if let shared = sharedProfile(identities: identities, mvpd: mvpd, now: now) { return shared }
        // Nothing usable: say why, of the device's own profile first, else of the shared one.
        guard let stored = profiles[owner]?[mvpd.id] ?? singleSignOnRecord(identities: identities, mvpd: mvpd)?.profile
        else {
            throw SandboxEnhancedError.profileMissing
        }
        if !stored.isValid(at: now) { throw SandboxEnhancedError.profileExpired }
        throw stored.invalidated ? SandboxEnhancedError.profileInvalidated : SandboxEnhancedError.profileMissing
    }

    /// The `resources` array of the JSON body; `invalid_parameter_resources` when the body
    /// is not JSON, the array is missing or empty, or an element is not a string.
    static func requestedResources(_ request: SandboxRequest) throws(SandboxEnhancedError) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body), options: []) as? [String: Any],
            let list = object["resources"] as? [Any], !list.isEmpty
        else {
            throw SandboxEnhancedError.invalidResources.with(details: "Expected a JSON body {\"resources\": [\"…\"]}.")
        }
        var resources: [String] = []
        for item in list {
            guard let resource = item as? String else { throw SandboxEnhancedError.invalidResources }
            resources.append(resource)
        }
        return resources
    }

    /// The resource id a resource string names: the string itself, or the channel title of
    /// an MRSS document (`<rss …><channel><title>ID</title>…</channel></rss>`). `nil` for an
    /// empty resource or a malformed MRSS document.
    static func resourceID(_ resource: String) -> String? {
        let trimmed = resource.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.hasPrefix("<") else { return trimmed }
        guard trimmed.hasPrefix("<rss"), trimmed.hasSuffix("</rss>"),
            let channel = trimmed.range(of: "<channel>"), trimmed.range(of: "</channel>") != nil,
            let titleStart = trimmed.range(of: "<title>", range: channel.upperBound..<trimmed.endIndex),
            let titleEnd = trimmed.range(of: "</title>", range: titleStart.upperBound..<trimmed.endIndex)
        else { return nil }
        let title = unescape(String(trimmed[titleStart.upperBound..<titleEnd.lowerBound])).trimmingCharacters(
            in: .whitespaces)
        return title.isEmpty ? nil : title
    }

    /// A Base64-encoded media token: `<signatureInfo>` (HMAC) followed by the
    /// `<authToken>` it signs.
    func mediaToken(
        serviceProvider: String, mvpd: String, resource: String, deviceID: String, now: Date, notAfter: Date
    ) -> String {
        let body =
            "<authToken><sessionGUID>\(newIdentifier())</sessionGUID><requestorID>\(Self.escape(serviceProvider))</requestorID>"
            + "<resourceID>\(Self.escape(resource))</resourceID><ttl>\(notAfter.epochMilliseconds - now.epochMilliseconds)</ttl>"
            + "<issueTime>\(Self.isoTime(now))</issueTime><mvpdId>\(Self.escape(mvpd))</mvpdId>"
            + "<deviceId>\(Self.escape(deviceID))</deviceId></authToken>"
        let signature = SandboxHMAC.hexAuthenticationCode(key: secret, text: body)
        return Data(("<signatureInfo>\(signature)</signatureInfo>" + body).utf8).base64EncodedString()
    }

    /// `true` when `serializedToken` is a media token this sandbox issued, unaltered.
    func verifyMediaToken(_ serializedToken: String) -> Bool {
        guard let data = Data(base64Encoded: serializedToken), let text = String(data: data, encoding: .utf8),
            let signature = Self.value(in: text, after: "<signatureInfo>", until: "<"),
            let bodyStart = text.range(of: "</signatureInfo>")?.upperBound
        else { return false }
        return Self.constantTimeEqual(
            signature, SandboxHMAC.hexAuthenticationCode(key: secret, text: String(text[bodyStart...])))
    }
}
