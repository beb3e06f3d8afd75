import Foundation

/// What the SDK does after the system TV provider picker (or a system-level sign-in)
/// answered: the getAuthentication table of the Apple SSO cookbook, as a pure function.
enum PickerOutcome: Sendable, Equatable {
    /// Fall back to the regular flow: `status(code)` then `displayProviderDialog`.
    case fallBack(statusID: StatusID, message: String, details: String?)
    /// A provider shown in the picker but authenticated by Adobe: `setSelectedProvider` silently.
    case regularLogin(MVPD)
    /// A boarded provider: exchange the partner sign-in for an Adobe profile.
    case partnerExchange(MVPD, providerID: String)

    /// Classifies the picker's answer.
    static func classify(_ result: Result<PartnerAccountMetadata, PartnerFrameworkError>, mvpds: [MVPD])
        -> PickerOutcome
    {
        switch result {
        case .failure(.userCancelled):
            return .fallBack(statusID: .n005, message: "The user cancelled the TV provider picker.", details: nil)
        case .failure(.otherProviderSelected):
            return .fallBack(
                statusID: .n003, message: "The user chose Other TV Provider in the TV provider picker.", details: nil)
        case .failure(.accessNotGranted):
            return .fallBack(
                statusID: .vsa403, message: "The user's TV provider permission is denied for this application.",
                details: nil)
        case .failure(.unsupportedProvider):
            return .fallBack(
                statusID: .n004, message: "The TV provider chosen in the picker is not supported by this requestor.",
                details: nil)
        case .failure(let error):
            return .fallBack(
                statusID: .vsa503, message: "The TV provider account metadata request failed: \(error.message)",
                details: error.code)
        case .success(let account):
            guard let providerID = account.accountProviderIdentifier, !providerID.isEmpty else {
                return .fallBack(
                    statusID: .n005, message: "The TV provider picker closed without a provider.", details: nil)
            }
            return classify(providerID: providerID, mvpds: mvpds)
        }
    }

    /// Classifies a provider signed in at system level (chosen now or earlier).
    static func classify(providerID: String, mvpds: [MVPD]) -> PickerOutcome {
        guard let mvpd = mvpds.first(where: { ($0.platformMappingId ?? $0.id) == providerID }) else {
            return .fallBack(
                statusID: .n004,
                message: "The TV provider \(providerID) has no active integration with this requestor.",
                details: providerID)
        }
        if mvpd.boardingStatus == "PICKER" { return .regularLogin(mvpd) }
        guard mvpd.enablePlatformServices else {
            return .fallBack(
                statusID: .n004, message: "Single sign-on is disabled for \(mvpd.displayName) on this requestor.",
                details: providerID)
        }
        return .partnerExchange(mvpd, providerID: providerID)
    }
}
