import Foundation

extension EntitlementEngine {
    /// Device type, client type and operating system: the tail of every tracking event.
    var trackingDeviceFields: [String] {
        [configuration.platform == .iOS ? "mobile" : "unknown", "ios", "Linux"]
    }

    /// `sendTrackingData(…, TRACKING_AUTHENTICATION)`: success, MVPD, hashed user id,
    /// whether the token came from the cache, then the device fields.
    func emitTracking(authenticationSucceeded: Bool, profile: StoredProfile?, cached: Bool) {
        let data: [String] = [
            authenticationSucceeded ? "true" : "false", profile?.mvpd ?? "", hashedUserID(profile),
            cached ? "true" : "false",
        ] + trackingDeviceFields
        emit(.sendTrackingData(data, event: TRACKING_AUTHENTICATION))
    }

    /// `sendTrackingData(…, TRACKING_AUTHORIZATION)`: success, MVPD, hashed user id, cached,
    /// error, details, then the device fields.
    func emitAuthorizationTracking(success: Bool, profile: StoredProfile, error: String, details: String) {
        let data: [String] = [success ? "true" : "false", profile.mvpd, hashedUserID(profile), "false", error, details] + trackingDeviceFields
        emit(.sendTrackingData(data, event: TRACKING_AUTHORIZATION))
    }

    /// The MD5 of the profile's `userID`, hex, as the tracking events document; empty when unknown.
    private func hashedUserID(_ profile: StoredProfile?) -> String {
        guard let attribute = profile?.attributes["userID"], case .string(let userID) = attribute.value else { return "" }
        return MD5.hex(Array(userID.utf8))
    }
}
