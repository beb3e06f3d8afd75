import Foundation

/// The answer of `GET /api/v2/{serviceProvider}/configuration`: the requestor and the
/// MVPDs having an active integration with it.
struct ServiceConfiguration: Decodable, Sendable, Equatable {
    /// The service provider (requestor).
    var requestor: Requestor
    /// Device type the server detected, when sent.
    var device: String?
    /// Client type the server detected, when sent.
    var clientType: String?
    /// Operating system the server detected, when sent.
    var os: String?
    /// Platform the server detected, when sent.
    var platform: String?
    /// Platform category the server detected, when sent.
    var platformCategory: String?

    /// Convenience: the requestor's MVPDs.
    var mvpds: [ConfiguredMVPD] { requestor.mvpds }

    /// The service provider block.
    struct Requestor: Decodable, Sendable, Equatable {
        /// The service provider id.
        var id: String
        /// The brand name.
        var name: String?
        /// The domains registered for the service provider.
        var domains: [Domain]
        /// The MVPDs with an active integration.
        var mvpds: [ConfiguredMVPD]

        private enum CodingKeys: String, CodingKey { case id, name, domains, mvpds }

        init(id: String, name: String? = nil, domains: [Domain] = [], mvpds: [ConfiguredMVPD] = []) {
            self.id = id
            self.name = name
            self.domains = domains
            self.mvpds = mvpds
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            name = container.lenientString(.name)
            domains = try container.decodeIfPresent([Domain].self, forKey: .domains) ?? []
            mvpds = try container.decodeIfPresent([ConfiguredMVPD].self, forKey: .mvpds) ?? []
        }
    }

    /// A domain registered for the service provider.
    struct Domain: Decodable, Sendable, Equatable {
        /// The domain name.
        var name: String
        /// Whether MVPD-initiated login is enabled for it.
        var mvpdInitiated: Bool

        private enum CodingKeys: String, CodingKey { case name, mvpdInitiated }

        init(name: String, mvpdInitiated: Bool = false) {
            self.name = name
            self.mvpdInitiated = mvpdInitiated
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            mvpdInitiated = container.lenientBool(.mvpdInitiated) ?? false
        }
    }

    private enum CodingKeys: String, CodingKey { case requestor, device, clientType, os, platform, platformCategory }

    init(requestor: Requestor) {
        self.requestor = requestor
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestor = try container.decode(Requestor.self, forKey: .requestor)
        device = container.lenientString(.device)
        clientType = container.lenientString(.clientType)
        os = container.lenientString(.os)
        platform = container.lenientString(.platform)
        platformCategory = container.lenientString(.platformCategory)
    }
}

/// One MVPD of the configuration. Flags the server leaves out read as `false`.
struct ConfiguredMVPD: Decodable, Sendable, Equatable {
    /// The MVPD id.
    var id: String
    /// The brand name (the id when the server sent none).
    var displayName: String
    /// Where to download the logo.
    var logoUrl: String?
    /// Whether the integration is enabled for the platform's single sign-on.
    var enablePlatformServices: Bool
    /// Whether the platform boarded the MVPD for single sign-on (`PICKER`, `SUPPORTED`), if it did.
    var boardingStatus: String?
    /// Whether the platform picker may show the MVPD.
    var displayInPlatformPicker: Bool
    /// The id the platform knows the MVPD by.
    var platformMappingId: String?
    /// Whether the MVPD provides TempPass.
    var isTempPass: Bool
    /// Whether the MVPD is a proxied MVPD.
    var isProxy: Bool
    /// Whether the device must enforce the platform's user permissions.
    var enforcePlatformPermissions: Bool
    /// `authPerAggregator`, when sent.
    var authPerAggregator: Bool?
    /// `authPerBrowserSession`, when sent.
    var authPerBrowserSession: Bool?
    /// `passiveAuthnEnabled`, when sent.
    var passiveAuthnEnabled: Bool?
    /// `requiresSVC`, when sent: the MVPD's login must run in a Safari View Controller. The
    /// legacy SDK's configuration carried this flag; REST API V2 does not document it, so it
    /// is read when present (PassSandbox sends it) and otherwise taken as `false`.
    var requiresSVC: Bool?

    private enum CodingKeys: String, CodingKey {
        case id, displayName, logoUrl, enablePlatformServices, boardingStatus, displayInPlatformPicker
        case platformMappingId, isTempPass, isProxy, enforcePlatformPermissions
        case authPerAggregator, authPerBrowserSession, passiveAuthnEnabled, requiresSVC
    }

    init(
        id: String, displayName: String? = nil, logoUrl: String? = nil, enablePlatformServices: Bool = false,
        boardingStatus: String? = nil, displayInPlatformPicker: Bool = false, platformMappingId: String? = nil,
        isTempPass: Bool = false, isProxy: Bool = false, enforcePlatformPermissions: Bool = false
    ) {
        self.id = id
        self.displayName = displayName ?? id
        self.logoUrl = logoUrl
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.displayInPlatformPicker = displayInPlatformPicker
        self.platformMappingId = platformMappingId
        self.isTempPass = isTempPass
        self.isProxy = isProxy
        self.enforcePlatformPermissions = enforcePlatformPermissions
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = container.lenientString(.displayName) ?? id
        logoUrl = container.lenientString(.logoUrl)
        enablePlatformServices = container.lenientBool(.enablePlatformServices) ?? false
        boardingStatus = container.lenientString(.boardingStatus)
        displayInPlatformPicker = container.lenientBool(.displayInPlatformPicker) ?? false
        platformMappingId = container.lenientString(.platformMappingId)
        isTempPass = container.lenientBool(.isTempPass) ?? false
        isProxy = container.lenientBool(.isProxy) ?? false
        enforcePlatformPermissions = container.lenientBool(.enforcePlatformPermissions) ?? false
        authPerAggregator = container.lenientBool(.authPerAggregator)
        authPerBrowserSession = container.lenientBool(.authPerBrowserSession)
        passiveAuthnEnabled = container.lenientBool(.passiveAuthnEnabled)
        requiresSVC = container.lenientBool(.requiresSVC)
    }
}
