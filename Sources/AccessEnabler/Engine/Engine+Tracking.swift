import Foundation

extension EntitlementEngine {
    /// Device type, client type and operating system: the tail of every tracking event.
    var trackingDeviceFields: [String] { tracking.deviceFields }

    /// `sendTrackingData(…, TRACKING_AUTHENTICATION)`.
    func emitTracking(authenticationSucceeded: Bool, profile: StoredProfile?, cached: Bool) {
        emit(tracking.authentication(succeeded: authenticationSucceeded, profile: profile, cached: cached))
    }

    /// `sendTrackingData(…, TRACKING_AUTHORIZATION)`.
    func emitAuthorizationTracking(success: Bool, profile: StoredProfile, error: String, details: String) {
        emit(tracking.authorization(success: success, profile: profile, error: error, details: details))
    }
}
