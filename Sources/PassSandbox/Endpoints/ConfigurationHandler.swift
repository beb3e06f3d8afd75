import Foundation

/// `GET /api/v2/{serviceProvider}/configuration`: the device type, the requestor and its
/// active MVPD integrations with the platform (single sign-on) flags, and the server time.
extension SandboxEngine {
    func configuration(_ request: SandboxRequest, serviceProvider: String) throws(SandboxEnhancedError)
        -> SandboxResponse
    {
        let now = clock.now
        let caller = try authorizeCaller(request, serviceProvider: serviceProvider, now: now)
        if request.header("AP-Device-Identifier") != nil {
            let owner = ProfileOwner(
                clientID: caller.grant.clientID, deviceID: try deviceIdentifier(request),
                serviceProvider: serviceProvider)
            observed.heldProfile = (profiles[owner] ?? [:]).values.contains {
                isUsable($0, provider: caller.provider, now: now)
            }
        }
        let info = try deviceInfo(request, required: false)
        // The requestor depends on the world alone: encoded once, until the world changes.
        let requestor: [UInt8]
        if let cached = configurationCache[caller.provider.id] {
            requestor = cached
        } else {
            let provider = caller.provider
            let mvpds: [SandboxJSON] = provider.mvpds.filter(\.integrationActive).map(Self.configurationEntry)
            requestor =
                SandboxJSON.object(
                    ("id", .string(provider.id)),
                    ("name", .string(provider.name)),
                    (
                        "domains",
                        .array(
                            provider.domains.map { .object([("name", .string($0)), ("mvpdInitiated", .bool(false))]) })
                    ),
                    ("mvpds", .array(mvpds))
                ).bytes
            configurationCache[provider.id] = requestor
        }
        // The page marks `device`, `requestor` and `time` required: the device type from
        // X-Device-Info ("unknown" without one, as the sample answers) and the server's
        // time in epoch milliseconds.
        var body = Array(#"{"device":"#.utf8)
        body += SandboxJSON.string(Self.deviceType(info)).bytes
        body += Array(#","requestor":"#.utf8)
        body += requestor
        body += Array(#","time":"#.utf8)
        body += Array(String(now.epochMilliseconds).utf8)
        body.append(UInt8(ascii: "}"))
        return SandboxResponse(status: 200, headers: [("Content-Type", SandboxResponse.jsonContentType)], body: body)
    }

    /// The configuration's `device`: the `primaryHardwareType` of `X-Device-Info`, else
    /// `unknown`.
    static func deviceType(_ info: SandboxJSON?) -> String {
        guard case .object(let pairs)? = info, let type = pairs.first(where: { $0.0 == "primaryHardwareType" }),
            case .string(let text) = type.1
        else { return "unknown" }
        return text
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
