import Foundation

/// What the SDK remembers of a TV provider (MVPD) the user signed in with, so that nothing
/// after the sign-in needs the requestor's configuration again: its id, the name and logo an
/// app shows ("Continue with …"), the service provider that serves it, and the flags the
/// flows read (partner single sign-on, TempPass, a login that needs a Safari View Controller).
///
/// Stored with each profile (``StoredProfile/provider``) and, for this requestor's last
/// sign-in, on its own (``RequestorRecord/rememberedProvider``), where it outlives the profile.
struct StoredProvider: Codable, Sendable, Equatable {
    /// The MVPD id.
    var id: String
    /// The name to show; `nil` when the SDK never had the configuration that names it (a
    /// provider chosen on a second screen).
    var displayName: String?
    /// The address of the MVPD's logo, if any.
    var logoURL: String?
    /// The base URL of the service provider that serves the MVPD; `nil`: the configured environment.
    var serviceProviderURL: String?
    /// Whether the MVPD supports the platform's single sign-on for this requestor.
    var enablePlatformServices: Bool = false
    /// `PICKER` or `SUPPORTED` when the platform boarded the MVPD.
    var boardingStatus: String?
    /// Whether the system TV provider picker shows the MVPD.
    var displayInPlatformPicker: Bool = false
    /// The identifier the partner framework knows the MVPD by.
    var platformMappingId: String?
    /// Whether this is a TempPass MVPD.
    var isTempPass: Bool = false
    /// Whether the MVPD is a proxy.
    var isProxy: Bool = false
    /// Whether its login needs a Safari View Controller (`navigateToUrl(_:useSVC:)`).
    var requiresSVC: Bool = false

    /// Whether the configuration's name for the provider is known (else only its id is).
    var isDescribed: Bool { displayName != nil }

    /// A provider known by its id alone.
    init(id: String, serviceProviderURL: String? = nil) {
        self.id = id
        self.serviceProviderURL = serviceProviderURL
    }

    init(
        id: String, displayName: String?, logoURL: String?, serviceProviderURL: String?, enablePlatformServices: Bool,
        boardingStatus: String?,
        displayInPlatformPicker: Bool, platformMappingId: String?, isTempPass: Bool, isProxy: Bool, requiresSVC: Bool
    ) {
        self.id = id
        self.displayName = displayName
        self.logoURL = logoURL
        self.serviceProviderURL = serviceProviderURL
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.displayInPlatformPicker = displayInPlatformPicker
        self.platformMappingId = platformMappingId
        self.isTempPass = isTempPass
        self.isProxy = isProxy
        self.requiresSVC = requiresSVC
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName, logoURL, serviceProviderURL, enablePlatformServices, boardingStatus,
            displayInPlatformPicker, platformMappingId,
            isTempPass, isProxy, requiresSVC
    }

    /// Reads a stored provider; a flag a file does not carry is `false`.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        logoURL = try container.decodeIfPresent(String.self, forKey: .logoURL)
        serviceProviderURL = try container.decodeIfPresent(String.self, forKey: .serviceProviderURL)
        enablePlatformServices = try container.decodeIfPresent(Bool.self, forKey: .enablePlatformServices) ?? false
        boardingStatus = try container.decodeIfPresent(String.self, forKey: .boardingStatus)
        displayInPlatformPicker = try container.decodeIfPresent(Bool.self, forKey: .displayInPlatformPicker) ?? false
        platformMappingId = try container.decodeIfPresent(String.self, forKey: .platformMappingId)
        isTempPass = try container.decodeIfPresent(Bool.self, forKey: .isTempPass) ?? false
        isProxy = try container.decodeIfPresent(Bool.self, forKey: .isProxy) ?? false
        requiresSVC = try container.decodeIfPresent(Bool.self, forKey: .requiresSVC) ?? false
    }
}

extension StoredProvider: StoredValueValidating {
    var validationProblem: String? {
        id.isEmpty ? "provider without id" : nil
    }
}
