import Foundation

/// Why a partner metadata request failed; mirrors `VSError.Code`.
public enum PartnerFrameworkError: Error, Sendable, Equatable {
    /// `VSError.userCancelled`: the user closed the picker.
    case userCancelled
    /// The user picked "Other TV Provider" in the system picker (on Apple platforms the
    /// request ends with `VSError.unsupportedProvider` and no account; named apart here).
    case otherProviderSelected
    /// `VSError.unsupportedProvider`: the chosen provider is not supported for this app.
    case unsupportedProvider
    /// `VSError.serviceTemporarilyUnavailable`.
    case serviceTemporarilyUnavailable
    /// `VSError.providerRejected`: the provider refused the request.
    case providerRejected
    /// `VSError.invalidVerificationToken`: the SAML request was not accepted.
    case invalidVerificationToken
    /// `VSError.rejected`: the request was rejected (app not entitled).
    case rejected
    /// `VSError.accessNotGranted`: the user has not granted permission.
    case accessNotGranted
    /// Anything else the framework reports.
    case other(code: String, message: String)

    /// A short code for logs and advanced statuses (`VSErrorCode` numbers on Apple platforms).
    public var code: String {
        switch self {
        case .userCancelled: "userCancelled"
        case .otherProviderSelected: "otherProviderSelected"
        case .unsupportedProvider: "unsupportedProvider"
        case .serviceTemporarilyUnavailable: "serviceTemporarilyUnavailable"
        case .providerRejected: "providerRejected"
        case .invalidVerificationToken: "invalidVerificationToken"
        case .rejected: "rejected"
        case .accessNotGranted: "accessNotGranted"
        case .other(let code, _): code
        }
    }

    /// A sentence a person can act on.
    public var message: String {
        switch self {
        case .userCancelled: "The user cancelled the TV provider picker."
        case .otherProviderSelected: "The user chose Other TV Provider in the TV provider picker."
        case .unsupportedProvider: "The TV provider the user chose is not supported by this application."
        case .serviceTemporarilyUnavailable: "The TV provider account service is temporarily unavailable."
        case .providerRejected: "The TV provider rejected the account metadata request."
        case .invalidVerificationToken: "The TV provider account service did not accept the SAML request."
        case .rejected: "The TV provider account service rejected the request."
        case .accessNotGranted: "The user has not granted access to the TV provider account."
        case .other(_, let message): message
        }
    }

    /// Creates an error from its case name (as scenario files spell it), or `nil`.
    public init?(caseName: String) {
        switch caseName {
        case "userCancelled": self = .userCancelled
        case "otherProviderSelected": self = .otherProviderSelected
        case "unsupportedProvider": self = .unsupportedProvider
        case "serviceTemporarilyUnavailable": self = .serviceTemporarilyUnavailable
        case "providerRejected": self = .providerRejected
        case "invalidVerificationToken": self = .invalidVerificationToken
        case "rejected": self = .rejected
        case "accessNotGranted": self = .accessNotGranted
        default: return nil
        }
    }
}
