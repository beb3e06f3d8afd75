import Foundation

/// A TV provider (MVPD) the requestor is integrated with, as `displayProviderDialog`
/// and `selectedProvider` deliver it. Mirrors the legacy `MVPD` object.
public struct MVPD: Sendable, Equatable, Hashable {
    /// The MVPD identifier (`ID` in the legacy object).
    public var id: String
    /// The name to show in a picker.
    public var displayName: String
    /// The address of the MVPD's logo, or `nil`. Implicitly unwrapped, as the legacy
    /// `NSString *` property was, so `URL(string: mvpd.logoURL)` compiles unchanged.
    public var logoURL: String!
    /// Whether the MVPD supports platform single sign-on (Apple SSO) for this requestor.
    public var enablePlatformServices: Bool
    /// `nil` (no Apple SSO), `"PICKER"` (shown in the system picker, authentication done
    /// by Adobe) or `"SUPPORTED"` (full partner single sign-on). Implicitly unwrapped, as the
    /// legacy `NSString *` property was.
    public var boardingStatus: String!
    /// Whether the MVPD appears in the system TV provider picker.
    public var displayInPlatformPicker: Bool
    /// The identifier the partner framework knows this MVPD by.
    public var platformMappingId: String?
    /// Whether this is a TempPass MVPD.
    public var isTempPass: Bool
    /// Whether the MVPD is a proxy.
    public var isProxy: Bool

    /// The MVPD identifier under its legacy name (`mvpd.ID`); the same as ``id``.
    /// Implicitly unwrapped, as the legacy `NSString *` property was, so both
    /// `setSelectedProvider(mvpd.ID)` and `if let id = mvpd.ID` compile unchanged.
    public var ID: String! { id }

    /// Creates an MVPD description.
    public init(
        id: String, displayName: String, logoURL: String? = nil, enablePlatformServices: Bool = false,
        boardingStatus: String? = nil, displayInPlatformPicker: Bool = false, platformMappingId: String? = nil,
        isTempPass: Bool = false, isProxy: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.logoURL = logoURL
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.displayInPlatformPicker = displayInPlatformPicker
        self.platformMappingId = platformMappingId
        self.isTempPass = isTempPass
        self.isProxy = isProxy
    }
}
