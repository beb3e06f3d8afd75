import Foundation

/// The decoded `AP-Partner-Framework-Status` header: Base64-encoded JSON with
/// `frameworkPermissionInfo.accessStatus` and `frameworkProviderInfo.{id, expirationDate}`
/// (milliseconds since 1970, as a string).
struct PartnerFrameworkStatus: Sendable {
    var accessStatus: String?
    var providerID: String?
    var expirationDate: Date?

    /// Decodes the header; `nil` when it is absent or not Base64-encoded JSON.
    init?(header: String?) {
        guard let header, let data = Data(base64Encoded: header.trimmingCharacters(in: .whitespaces)),
            let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any]
        else { return nil }
        let permission = object["frameworkPermissionInfo"] as? [String: Any]
        let provider = object["frameworkProviderInfo"] as? [String: Any]
        accessStatus = permission?["accessStatus"] as? String
        providerID = (provider?["id"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let expiration: Double? =
            switch provider?["expirationDate"] {
            case let text as String: Double(text)
            case let number as NSNumber: number.doubleValue
            default: nil
            }
        expirationDate = expiration.map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    /// The MVPD of `provider` whose platform mapping id is the header's provider id
    /// (an active integration preferred).
    func mappedMVPD(in provider: SandboxServiceProvider) -> SandboxMVPDConfig? {
        guard let providerID else { return nil }
        let candidates = provider.mvpds.filter { $0.platformMappingId == providerID }
        return candidates.first(where: \.integrationActive) ?? candidates.first
    }

    /// Checks the status the way the partner endpoints do and returns the MVPD it names,
    /// or the documented `invalid_header_pfs_*` error.
    static func validate(header: String?, provider: SandboxServiceProvider, now: Date) -> Result<
        SandboxMVPDConfig, SandboxEnhancedError
    > {
        guard let status = PartnerFrameworkStatus(header: header), let access = status.accessStatus else {
            return .failure(.pfsAccessNotPresent)
        }
        switch access {
        case "granted": break
        case "notDetermined": return .failure(.pfsAccessNotDetermined)
        default: return .failure(.pfsAccessNotGranted)
        }
        guard let mvpd = status.mappedMVPD(in: provider) else { return .failure(.pfsProviderNotDetermined) }
        guard let expiration = status.expirationDate, now < expiration else { return .failure(.pfsProviderExpired) }
        return .success(mvpd)
    }
}
