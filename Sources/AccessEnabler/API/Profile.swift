import Foundation

/// One sign-in this device holds for the current requestor, as ``AccessEnabler/profiles``
/// lists them: REST API V2 keeps a profile per MVPD, so a device may hold several (a TempPass
/// beside a regular sign-in, a provider signed in earlier, a sign-in shared through single
/// sign-on). Offer them with ``AccessEnabler/selectProfile(mvpd:)``.
public struct Profile: Sendable, Hashable {
    /// How the sign-in was made (the profile's `type` in REST API V2).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// With the MVPD, on its login page (or a second screen).
        case regular
        /// Through the device's TV provider account (partner single sign-on).
        case appleSSO
        /// Shared through a platform identity (`Adobe-Subject-Token`).
        case platformSSO
        /// Shared through a service token (`AD-Service-Token`).
        case serviceTokenSSO
        /// TempPass: free access for a while.
        case temporary
        /// Access a degradation rule grants while the MVPD has an outage.
        case degraded
    }

    /// The MVPD id (``MVPD/id``).
    public var mvpd: String
    /// The MVPD's name as the configuration gave it (the id when the device never had it).
    public var displayName: String
    /// How the sign-in was made.
    public var type: Kind
    /// When the sign-in ends (its `notAfter`, Adobe Pass's time).
    public var expiry: Date
    /// Whether it is the profile in force: the one checkAuthentication, authorization and
    /// metadata use.
    public var isInForce: Bool

    /// Creates a profile value.
    public init(mvpd: String, displayName: String, type: Kind, expiry: Date, isInForce: Bool) {
        self.mvpd = mvpd
        self.displayName = displayName
        self.type = type
        self.expiry = expiry
        self.isInForce = isInForce
    }
}
