import Foundation

/// The per-device values every REST API V2 request carries in its headers.
struct RequestContext: Sendable, Equatable {
    /// The device identifier, stable for the installation (the stored one, or the hash of
    /// the one the application configured), read when a request is built. The header sends
    /// `fingerprint <Base64 of this value>`, see ``DeviceIdentifier``.
    var deviceIdentity: DeviceIdentity
    /// The `X-Device-Info` values.
    var deviceInfo: DeviceInfo
    /// The Experience Cloud visitor id sent as `AP-Visitor-Identifier`, when set.
    var visitorID: String?
    /// The `User-Agent` header; when empty the client's own user agent is sent.
    var userAgent: String
    /// The partner framework status sent as `AP-Partner-Framework-Status` on operations
    /// that accept it, when set.
    var partnerStatus: PartnerFrameworkStatus?
    /// The legacy `applicationProfile` option, sent as the configuration request's
    /// `profile` query parameter, when set.
    var applicationProfile: String?
    /// The user identity for promotional TempPass, already encoded for `AP-TempPass-Identity`
    /// (Base64 of its JSON), when the app gave one and the MVPD is a TempPass MVPD.
    var tempPassIdentity: String?

    init(
        deviceIdentifier: String, deviceInfo: DeviceInfo, visitorID: String? = nil, userAgent: String = "",
        partnerStatus: PartnerFrameworkStatus? = nil, applicationProfile: String? = nil
    ) {
        self.init(
            deviceIdentity: DeviceIdentity(fixed: deviceIdentifier), deviceInfo: deviceInfo, visitorID: visitorID,
            userAgent: userAgent,
            partnerStatus: partnerStatus, applicationProfile: applicationProfile)
    }

    init(
        deviceIdentity: DeviceIdentity, deviceInfo: DeviceInfo, visitorID: String? = nil, userAgent: String = "",
        partnerStatus: PartnerFrameworkStatus? = nil, applicationProfile: String? = nil
    ) {
        self.deviceIdentity = deviceIdentity
        self.deviceInfo = deviceInfo
        self.visitorID = visitorID
        self.userAgent = userAgent
        self.partnerStatus = partnerStatus
        self.applicationProfile = applicationProfile
    }

    /// The same context with a different partner framework status.
    func with(partnerStatus: PartnerFrameworkStatus?) -> RequestContext {
        var copy = self
        copy.partnerStatus = partnerStatus
        return copy
    }

    /// The device identifier (see ``deviceIdentity``).
    var deviceIdentifier: String {
        get { deviceIdentity.value }
        set { deviceIdentity = DeviceIdentity(fixed: newValue) }
    }

    /// The `AP-Device-Identifier` header value.
    var deviceIdentifierHeaderValue: String {
        DeviceIdentifier.headerValue(deviceIdentifier)
    }
}
