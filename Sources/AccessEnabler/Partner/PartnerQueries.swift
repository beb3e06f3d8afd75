import Foundation

extension EntitlementEngine {
    /// Asks the partner framework, without prompting, for the permission and the signed-in
    /// account. Both questions share one deadline (the request timeout): a framework that
    /// never answers counts as an error rather than a hang.
    func partnerSnapshot(_ partner: any PartnerFramework) async -> PartnerSnapshot {
        let request = PartnerMetadataRequest(isInterruptionAllowed: false, supportedAccountProviderIdentifiers: sortedMappingIDs)
        let timedOut = PartnerSnapshot(
            access: .error(code: "timeout", message: "The TV provider account service did not answer in time."), account: nil, metadataError: nil)
        return await withDeadline(seconds: configuration.requestTimeout, fallback: timedOut) {
            let access = await partner.accessStatus(prompt: false)
            guard access == .granted else { return PartnerSnapshot(access: access, account: nil, metadataError: nil) }
            do throws(PartnerFrameworkError) {
                return PartnerSnapshot(access: access, account: try await partner.accountMetadata(request), metadataError: nil)
            } catch {
                return PartnerSnapshot(access: access, account: nil, metadataError: error)
            }
        }
    }

    /// The advanced status a partner permission implies for status checks (VSA403, VSA404,
    /// APPL), or `nil` when permission is granted.
    func permissionStatus(_ access: PartnerAccessResult, errorID: String) -> AdvancedStatus? {
        switch access {
        case .granted: return nil
        case .denied: return StatusCatalog.status("VSA403", message: "The user's TV provider permission is denied for this application.")
        case .restricted: return StatusCatalog.status("VSA403", message: "The user's TV provider permission is restricted for this application.")
        case .notDetermined: return StatusCatalog.status("VSA404", message: "The user's TV provider permission is undetermined for this application.")
        case .error(let code, let message):
            return StatusCatalog.status(errorID, message: "The TV provider account service reported an error.", details: "\(code): \(message)")
        }
    }
}
