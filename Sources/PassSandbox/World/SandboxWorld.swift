import Foundation

/// Everything the offline Adobe Pass knows: software statements, service providers
/// (requestors), their MVPD integrations with dashboard flags, and the MVPDs' users.
///
/// This is the world file's model; read one with ``load(from:)``, which names the JSON
/// path of any mistake. Optional fields take the defaults documented on each property.
public struct SandboxWorld: Codable, Sendable, Equatable {
    /// Seconds an access token from `POST /o/client/token` stays valid (`expires_in`).
    /// Default 86400.
    public var accessTokenTTL: Int
    /// Seconds a client registration (client credentials from `POST /o/client/register`)
    /// stays valid; afterwards `POST /o/client/token` answers `invalid_client` and the
    /// application must register again. Default 31536000 (365 days).
    public var registrationTTL: Int
    /// Software statement → the service provider ids its registered application may call.
    public var softwareStatements: [String: [String]]
    /// The service providers (requestors).
    public var serviceProviders: [SandboxServiceProvider]
    /// Seconds an authentication session, and so its code, stays open (a TV shows the code
    /// this long; the login and the polls must happen within it). Default 1800 (30 minutes,
    /// as the documentation's samples); at most 86400. A QA rig shortens it to see a code
    /// expire in real time.
    public var authenticationSessionTTL: Int
    /// Adobe's throttling per device; `nil` (the default) serves every request.
    public var throttle: SandboxThrottle?
    /// Identity services besides the two every world has (``SandboxIdentityService/defaults``);
    /// one listed with the issuer of a default replaces it. Default none.
    public var identityServices: [SandboxIdentityService]

    /// The default ``registrationTTL``: 365 days.
    public static let defaultRegistrationTTL = 31_536_000
    /// The default ``authenticationSessionTTL``: 30 minutes.
    public static let defaultAuthenticationSessionTTL = 1_800
    /// The longest ``authenticationSessionTTL`` a world may set: a day.
    public static let maximumAuthenticationSessionTTL = 86_400

    /// Creates a world.
    public init(
        accessTokenTTL: Int = 86_400, registrationTTL: Int = SandboxWorld.defaultRegistrationTTL,
        authenticationSessionTTL: Int = SandboxWorld.defaultAuthenticationSessionTTL,
        softwareStatements: [String: [String]], serviceProviders: [SandboxServiceProvider],
        throttle: SandboxThrottle? = nil,
        identityServices: [SandboxIdentityService] = []
    ) {
        self.accessTokenTTL = accessTokenTTL
        self.registrationTTL = registrationTTL
        self.authenticationSessionTTL = authenticationSessionTTL
        self.softwareStatements = softwareStatements
        self.serviceProviders = serviceProviders
        self.throttle = throttle
        self.identityServices = identityServices
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case accessTokenTTL, registrationTTL, authenticationSessionTTL, softwareStatements, serviceProviders, throttle,
            identityServices
    }

    /// Decodes; `accessTokenTTL` defaults to 86400 seconds, `registrationTTL` to 365 days,
    /// `authenticationSessionTTL` to 1800 seconds, `throttle` and `identityServices` to none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessTokenTTL = try container.decodeIfPresent(Int.self, forKey: .accessTokenTTL) ?? 86_400
        registrationTTL =
            try container.decodeIfPresent(Int.self, forKey: .registrationTTL) ?? Self.defaultRegistrationTTL
        authenticationSessionTTL =
            try container.decodeIfPresent(Int.self, forKey: .authenticationSessionTTL)
            ?? Self.defaultAuthenticationSessionTTL
        softwareStatements = try container.decode([String: [String]].self, forKey: .softwareStatements)
        serviceProviders = try container.decode([SandboxServiceProvider].self, forKey: .serviceProviders)
        throttle = try container.decodeIfPresent(SandboxThrottle.self, forKey: .throttle)
        identityServices = try container.decodeIfPresent([SandboxIdentityService].self, forKey: .identityServices) ?? []
    }

    /// The service provider with `id`, if any.
    public func serviceProvider(_ id: String) -> SandboxServiceProvider? {
        serviceProviders.first { $0.id == id }
    }

    /// Every identity service in force: the two defaults (``SandboxIdentityService/defaults``)
    /// unless the world lists their issuer, then the ones the world lists.
    public var identityServicesInForce: [SandboxIdentityService] {
        let listed = Set(identityServices.map(\.issuer))
        return SandboxIdentityService.defaults.filter { !listed.contains($0.issuer) } + identityServices
    }
}

/// A service provider (requestor) and its MVPD integrations.
public struct SandboxServiceProvider: Codable, Sendable, Equatable {
    /// The service provider id (`REF30`).
    public var id: String
    /// The brand name shown in configuration; defaults to the id.
    public var name: String
    /// Domain names listed in configuration; defaults to `["adobe.com"]`.
    public var domains: [String]
    /// The MVPD integrations, in the order configuration lists them.
    public var mvpds: [SandboxMVPDConfig]

    /// Creates a service provider.
    public init(id: String, name: String? = nil, domains: [String] = ["adobe.com"], mvpds: [SandboxMVPDConfig]) {
        self.id = id
        self.name = name ?? id
        self.domains = domains
        self.mvpds = mvpds
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, domains, mvpds }

    /// Decodes, applying the defaults for omitted fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? id
        domains = try container.decodeIfPresent([String].self, forKey: .domains) ?? ["adobe.com"]
        mvpds = try container.decodeIfPresent([SandboxMVPDConfig].self, forKey: .mvpds) ?? []
    }

    /// The MVPD integration with `id`, if any.
    public func mvpd(_ id: String) -> SandboxMVPDConfig? {
        mvpds.first { $0.id == id }
    }
}

/// One MVPD integration of a service provider, with the dashboard flags that shape the
/// REST API's answers.
public struct SandboxMVPDConfig: Codable, Sendable, Equatable {
    /// The MVPD id (`AppleBoarded`).
    public var id: String
    /// The brand name; defaults to the id.
    public var displayName: String
    /// The logo URL; defaults to a sandbox URL.
    public var logoUrl: String
    /// The provider identifier the device platform uses for this MVPD (Apple's TV provider
    /// identifier); `nil` when the platform does not know the MVPD.
    public var platformMappingId: String?
    /// The platform (single sign-on) services configuration is enabled. Default `false`.
    public var enablePlatformServices: Bool
    /// The MVPD may appear in the platform's provider picker. Default `false`.
    public var displayInPlatformPicker: Bool
    /// The platform onboarding state: `SUPPORTED` (full single sign-on), `PICKER` (picker
    /// only) or `NOT_SUPPORTED`; `nil` when unknown to the platform.
    public var boardingStatus: String?
    /// The dashboard's "Enable Single Sign On". Default `true`.
    public var ssoEnabled: Bool
    /// The integration is active; inactive integrations are absent from configuration and
    /// refused with `invalid_integration`. Default `true`.
    public var integrationActive: Bool
    /// An AuthNAll degradation rule applies. Default `false`.
    public var degraded: Bool
    /// An AuthZNone degradation rule applies: every authorization and preauthorization is
    /// denied with `authorization_denied_by_degradation_rule`. Default `false`.
    public var authzNone: Bool
    /// The MVPD is a TempPass (temporary access) MVPD. Default `false`.
    public var tempPass: Bool
    /// For a promotional TempPass: how many distinct resources one user identity (the
    /// `AP-TempPass-Identity` header) may be authorized for within the TempPass window.
    /// `nil` (the default) makes a TempPass MVPD a basic, time-only TempPass.
    public var tempPassResourceLimit: Int?
    /// The MVPD's login page must open in a secure browser (SFSafariViewController). Default `false`.
    public var requiresSVC: Bool
    /// The most resources one `decisions/authorize` request may name; more are refused with
    /// `403 too_many_resources` (Adobe's dashboard setting, "usually up to 5"). Default 5.
    public var authorizationResourceLimit: Int
    /// The most resources one `decisions/preauthorize` request may name; more are refused
    /// with `403 too_many_resources`. Default 5.
    public var preauthorizationResourceLimit: Int
    /// Seconds a profile lasts (for TempPass: the temporary access duration). Default 86400.
    public var authenticationTTL: Int
    /// Seconds an authorization decision and its media token last. Default 3600.
    public var authorizationTTL: Int
    /// The MVPD's subscribers.
    public var users: [SandboxUser]

    /// Creates an MVPD integration.
    public init(
        id: String, displayName: String? = nil, logoUrl: String? = nil, platformMappingId: String? = nil,
        enablePlatformServices: Bool = false, displayInPlatformPicker: Bool = false, boardingStatus: String? = nil,
        ssoEnabled: Bool = true, integrationActive: Bool = true, degraded: Bool = false, authzNone: Bool = false,
        tempPass: Bool = false,
        tempPassResourceLimit: Int? = nil, requiresSVC: Bool = false, authenticationTTL: Int = 86_400,
        authorizationTTL: Int = 3_600,
        authorizationResourceLimit: Int = 5, preauthorizationResourceLimit: Int = 5, users: [SandboxUser] = []
    ) {
        self.id = id
        self.displayName = displayName ?? id
        self.logoUrl = logoUrl ?? SandboxMVPDConfig.defaultLogoURL(id)
        self.platformMappingId = platformMappingId
        self.enablePlatformServices = enablePlatformServices
        self.displayInPlatformPicker = displayInPlatformPicker
        self.boardingStatus = boardingStatus
        self.ssoEnabled = ssoEnabled
        self.integrationActive = integrationActive
        self.degraded = degraded
        self.authzNone = authzNone
        self.tempPass = tempPass
        self.tempPassResourceLimit = tempPassResourceLimit
        self.requiresSVC = requiresSVC
        self.authenticationTTL = authenticationTTL
        self.authorizationTTL = authorizationTTL
        self.authorizationResourceLimit = authorizationResourceLimit
        self.preauthorizationResourceLimit = preauthorizationResourceLimit
        self.users = users
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, displayName, logoUrl, platformMappingId, enablePlatformServices, displayInPlatformPicker,
            boardingStatus
        case ssoEnabled, integrationActive, degraded, authzNone, tempPass, tempPassResourceLimit, requiresSVC
        case authenticationTTL, authorizationTTL, authorizationResourceLimit, preauthorizationResourceLimit, users
    }

    /// Decodes, applying the defaults for omitted fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        self.init(
            id: id,
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            logoUrl: try container.decodeIfPresent(String.self, forKey: .logoUrl),
            platformMappingId: try container.decodeIfPresent(String.self, forKey: .platformMappingId),
            enablePlatformServices: try container.decodeIfPresent(Bool.self, forKey: .enablePlatformServices) ?? false,
            displayInPlatformPicker: try container.decodeIfPresent(Bool.self, forKey: .displayInPlatformPicker)
                ?? false,
            boardingStatus: try container.decodeIfPresent(String.self, forKey: .boardingStatus),
            ssoEnabled: try container.decodeIfPresent(Bool.self, forKey: .ssoEnabled) ?? true,
            integrationActive: try container.decodeIfPresent(Bool.self, forKey: .integrationActive) ?? true,
            degraded: try container.decodeIfPresent(Bool.self, forKey: .degraded) ?? false,
            authzNone: try container.decodeIfPresent(Bool.self, forKey: .authzNone) ?? false,
            tempPass: try container.decodeIfPresent(Bool.self, forKey: .tempPass) ?? false,
            tempPassResourceLimit: try container.decodeIfPresent(Int.self, forKey: .tempPassResourceLimit),
            requiresSVC: try container.decodeIfPresent(Bool.self, forKey: .requiresSVC) ?? false,
            authenticationTTL: try container.decodeIfPresent(Int.self, forKey: .authenticationTTL) ?? 86_400,
            authorizationTTL: try container.decodeIfPresent(Int.self, forKey: .authorizationTTL) ?? 3_600,
            authorizationResourceLimit: try container.decodeIfPresent(Int.self, forKey: .authorizationResourceLimit)
                ?? 5,
            preauthorizationResourceLimit:
                try container.decodeIfPresent(Int.self, forKey: .preauthorizationResourceLimit) ?? 5,
            users: try container.decodeIfPresent([SandboxUser].self, forKey: .users) ?? []
        )
    }

    /// The user with `username`, if any.
    public func user(_ username: String) -> SandboxUser? {
        users.first { $0.username == username }
    }

    /// `true` for a promotional TempPass (a TempPass with a resource budget).
    var isPromotionalTempPass: Bool { tempPass && tempPassResourceLimit != nil }

    /// `true` when the partner (Apple) single sign-on can complete for this MVPD:
    /// platform services enabled, "Enable Single Sign On" on, and fully onboarded.
    var supportsPartnerSSO: Bool {
        enablePlatformServices && ssoEnabled && boardingStatus == "SUPPORTED"
    }

    static func defaultLogoURL(_ id: String) -> String { "https://sandbox.invalid/logos/\(id).png" }
}

/// A subscriber of an MVPD: credentials for the login page, user metadata for profiles,
/// and the resources the subscription includes.
public struct SandboxUser: Codable, Sendable, Equatable {
    /// Login name.
    public var username: String
    /// Password.
    public var password: String
    /// The `userID` profile attribute; defaults to `u-<username>`.
    public var userID: String
    /// The `householdID` profile attribute, when the MVPD shares one.
    public var householdID: String?
    /// The `zip` profile attribute (sent encrypted, `state: enc`), when shared.
    public var zip: [String]?
    /// The resource ids the subscription includes (authorization permits these).
    public var resources: [String]

    /// Creates a user.
    public init(
        username: String, password: String, userID: String? = nil, householdID: String? = nil, zip: [String]? = nil,
        resources: [String] = []
    ) {
        self.username = username
        self.password = password
        self.userID = userID ?? "u-\(username)"
        self.householdID = householdID
        self.zip = zip
        self.resources = resources
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case username, password, userID, householdID, zip, resources }

    /// Decodes, applying the defaults for omitted fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let username = try container.decode(String.self, forKey: .username)
        self.init(
            username: username,
            password: try container.decode(String.self, forKey: .password),
            userID: try container.decodeIfPresent(String.self, forKey: .userID),
            householdID: try container.decodeIfPresent(String.self, forKey: .householdID),
            zip: try container.decodeIfPresent([String].self, forKey: .zip),
            resources: try container.decodeIfPresent([String].self, forKey: .resources) ?? []
        )
    }
}
