import Foundation
import Synchronization

/// The documented fields of the tracking events, with the user id hash computed once per
/// user id (MD5 is the expensive part of a `checkAuthentication`).
final class TrackingFields: Sendable {
    /// Device type, client type and operating system: the tail of every tracking event.
    let deviceFields: [String]

    /// The client type: `ios`, the value Adobe's reference lists for the iOS/tvOS SDK, on
    /// either flavour (its list — `flash`, `html5`, `ios`, `android` — has no other for it).
    static let clientType = "ios"
    /// The last user id hashed, and its hash.
    private let lastHash = Mutex<(userID: String, hex: String)?>(nil)

    /// The fields of `platform`: a phone is `mobile`, and a TV `unknown` (the reference's device
    /// types have no TV); the operating system is Linux, with the flavour the SDK runs as, so
    /// the data names the platform: `Linux (iOS)`, `Linux (tvOS)`.
    init(platform: AccessEnablerConfiguration.Platform) {
        deviceFields = [Self.deviceType(platform), Self.clientType, Self.operatingSystem(platform)]
    }

    /// The device type of `platform`, one of the reference's list.
    static func deviceType(_ platform: AccessEnablerConfiguration.Platform) -> String {
        switch platform {
        case .iOS: "mobile"
        case .tvOS: "unknown"
        }
    }

    /// The operating system: Linux, and the flavour the SDK runs as.
    static func operatingSystem(_ platform: AccessEnablerConfiguration.Platform) -> String {
        switch platform {
        case .iOS: "Linux (iOS)"
        case .tvOS: "Linux (tvOS)"
        }
    }

    /// The MD5 of the profile's `userID`, hex, as the tracking events document; empty when unknown.
    func hashedUserID(_ profile: StoredProfile?) -> String {
        guard let attribute = profile?.attributes["userID"], case .string(let userID) = attribute.value else {
            return ""
        }
        if let known = lastHash.withLock({ $0 }), known.userID == userID { return known.hex }
        let hex = MD5.hex(Array(userID.utf8))
        lastHash.withLock { $0 = (userID, hex) }
        return hex
    }

    /// `sendTrackingData(…, TRACKING_AUTHENTICATION)`: success, MVPD, hashed user id,
    /// whether the token came from the cache, then the device fields.
    func authentication(succeeded: Bool, profile: StoredProfile?, cached: Bool) -> DelegateCall {
        var fields: [String] = []
        fields.reserveCapacity(4 + deviceFields.count)
        fields.append(succeeded ? "true" : "false")
        fields.append(profile?.mvpd ?? "")
        fields.append(hashedUserID(profile))
        fields.append(cached ? "true" : "false")
        fields.append(contentsOf: deviceFields)
        return .sendTrackingData(fields, event: TRACKING_AUTHENTICATION)
    }

    /// `sendTrackingData(…, TRACKING_AUTHORIZATION)`: success, MVPD, hashed user id, cached,
    /// error, details, then the device fields.
    func authorization(success: Bool, profile: StoredProfile, error: String, details: String) -> DelegateCall {
        .sendTrackingData(
            [success ? "true" : "false", profile.mvpd, hashedUserID(profile), "false", error, details] + deviceFields,
            event: TRACKING_AUTHORIZATION)
    }
}
