import AccessEnabler
import Foundation

/// The TV-provider permission state of the simulated device.
public enum SimulatedAccessStatus: String, Sendable, CaseIterable {
    /// The user allowed access.
    case granted
    /// The user refused access.
    case denied
    /// The application may not ask (parental controls).
    case restricted
    /// The user has not answered yet.
    case notDetermined
    /// The permission query itself fails.
    case error

    /// What `accessStatus(prompt:)` reports for this state.
    var result: PartnerAccessResult {
        switch self {
        case .granted: .granted
        case .denied: .denied
        case .restricted: .restricted
        case .notDetermined: .notDetermined
        case .error:
            .error(
                code: "serviceTemporarilyUnavailable",
                message: "The TV provider account service could not read the permission.")
        }
    }
}

/// A sign-in at system level (Settings → TV Provider).
public struct SystemSignIn: Sendable, Equatable {
    /// The provider mapping id (the MVPD's `platformMappingId`).
    public var provider: String
    /// The MVPD user name.
    public var username: String
    /// When the system-level sign-in ends (measured on the sandbox clock).
    public var expiresAt: Date

    /// Creates a system-level sign-in.
    public init(provider: String, username: String, expiresAt: Date) {
        self.provider = provider
        self.username = username
        self.expiresAt = expiresAt
    }
}

/// What the simulated user does when the system provider picker opens.
public enum PickerChoice: Sendable, Equatable {
    /// Picks `provider` (a provider mapping id) and signs in as `user`.
    case select(provider: String, user: String)
    /// Picks "Other TV Provider".
    case other
    /// Closes the picker.
    case cancel
}

/// A call the simulated device received, recorded for tests.
public enum PartnerCall: Sendable, Equatable {
    /// `accessStatus(prompt:)`.
    case accessStatus(prompt: Bool)
    /// `accountMetadata(_:)`.
    case accountMetadata(PartnerMetadataRequest)
}
