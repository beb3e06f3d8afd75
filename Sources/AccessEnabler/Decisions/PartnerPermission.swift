import Foundation

/// What the partner framework's permission means for the user's authentication.
enum PartnerPermission {
    /// The advanced status a partner permission implies for status checks (VSA403,
    /// VSA404, or `errorID` for an error), `nil` when permission is granted.
    static func status(_ access: PartnerAccessResult, errorID: StatusID) -> AdvancedStatus? {
        switch access {
        case .granted: return nil
        case .denied:
            return StatusCatalog.status(
                .vsa403, message: "The user's TV provider permission is denied for this application.")
        case .restricted:
            return StatusCatalog.status(
                .vsa403, message: "The user's TV provider permission is restricted for this application.")
        case .notDetermined:
            return StatusCatalog.status(
                .vsa404, message: "The user's TV provider permission is undetermined for this application.")
        case .error(let code, let message):
            return StatusCatalog.status(
                errorID, message: "The TV provider account service reported an error.", details: "\(code): \(message)")
        }
    }
}
