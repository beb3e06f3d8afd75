import Foundation

/// The per-device values every REST API V2 request carries in its headers.
///
/// The values live in one immutable box that copies share: a context is held by every frame
/// of a request's async call chain, and a device waiting for an answer keeps those frames.
/// Inline, the values took 496 bytes in each of them; boxed, a context is one reference.
/// Each value reads and writes as a property of the context (`context.deviceInfo`); a
/// change makes a new box.
@dynamicMemberLookup
struct RequestContext: Sendable, Equatable {
    /// The values themselves.
    struct Values: Sendable, Equatable {
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
        /// The user identity for promotional TempPass, already encoded for
        /// `AP-TempPass-Identity` (Base64 of its JSON), when the app gave one and the MVPD is a
        /// TempPass MVPD.
        var tempPassIdentity: String?
    }

    /// The box copies share.
    private final class Box: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private var box: Box

    /// One of the values, read from the box; set, it goes into a new box.
    subscript<Value>(dynamicMember keyPath: WritableKeyPath<Values, Value>) -> Value {
        get { box.values[keyPath: keyPath] }
        set {
            var values = box.values
            values[keyPath: keyPath] = newValue
            box = Box(values)
        }
    }

    static func == (left: RequestContext, right: RequestContext) -> Bool {
        left.box === right.box || left.box.values == right.box.values
    }

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
        box = Box(
            Values(
                deviceIdentity: deviceIdentity, deviceInfo: deviceInfo, visitorID: visitorID, userAgent: userAgent,
                partnerStatus: partnerStatus, applicationProfile: applicationProfile))
    }

    /// The same context with a different partner framework status.
    func with(partnerStatus: PartnerFrameworkStatus?) -> RequestContext {
        var copy = self
        copy.partnerStatus = partnerStatus
        return copy
    }

    /// The device identifier (see ``Values/deviceIdentity``).
    var deviceIdentifier: String {
        get { self.deviceIdentity.value }
        set { self.deviceIdentity = DeviceIdentity(fixed: newValue) }
    }

    /// The `AP-Device-Identifier` header value.
    var deviceIdentifierHeaderValue: String {
        DeviceIdentifier.headerValue(deviceIdentifier)
    }
}
