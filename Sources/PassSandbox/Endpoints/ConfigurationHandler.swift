import Foundation

/// `GET /api/v2/{serviceProvider}/configuration`: the requestor and its active MVPD
/// integrations, with the platform (single sign-on) flags.
extension SandboxEngine {
    func configuration(_ request: SandboxRequest, serviceProvider: String) throws(SandboxEnhancedError) -> SandboxResponse {
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: clock.now)
        if request.header("AP-Device-Identifier") != nil { _ = try deviceIdentifier(request) }
        try deviceInfo(request, required: false)
        // The answer depends on the world alone: encoded once, until the world changes.
        if let cached = configurationCache[caller.provider.id] {
            return SandboxResponse(status: 200, headers: [("Content-Type", SandboxResponse.jsonContentType)], body: cached)
        }
        let provider = caller.provider
        let mvpds: [SandboxJSON] = provider.mvpds.filter(\.integrationActive).map(Self.configurationEntry)
        let response = SandboxResponse.json(.object([
            ("requestor", .object(
                ("id", .string(provider.id)),
                ("name", .string(provider.name)),
                ("domains", .array(provider.domains.map { .object([("name", .string($0)), ("mvpdInitiated", .bool(false))]) })),
                ("mvpds", .array(mvpds))
            )),
        ]))
        configurationCache[provider.id] = response.body
        return response
    }

    /// One MVPD as configuration lists it. `enablePlatformServices` is reported only when
    /// both the platform services and "Enable Single Sign On" are on; `isTempPass` and
    /// `requiresSVC` only when true.
    static func configurationEntry(_ mvpd: SandboxMVPDConfig) -> SandboxJSON {
        .object(
            ("id", .string(mvpd.id)),
            ("displayName", .string(mvpd.displayName)),
            ("logoUrl", .string(mvpd.logoUrl)),
            ("isTempPass", mvpd.tempPass ? .bool(true) : nil),
            ("boardingStatus", mvpd.boardingStatus.map(SandboxJSON.string)),
            ("platformMappingId", mvpd.platformMappingId.map(SandboxJSON.string)),
            ("enablePlatformServices", .bool(mvpd.enablePlatformServices && mvpd.ssoEnabled)),
            ("displayInPlatformPicker", .bool(mvpd.displayInPlatformPicker)),
            // Not a REST API V2 field: a sandbox extension telling the client that the login
            // page must open in a secure browser (the legacy SDK's SFSafariViewController rule).
            ("requiresSVC", mvpd.requiresSVC ? .bool(true) : nil)
        )
    }
}
