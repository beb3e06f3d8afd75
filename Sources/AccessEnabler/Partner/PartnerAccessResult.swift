import Foundation

/// The answer to a partner permission query; mirrors `VSAccountAccessStatus` plus the
/// error the completion handler may carry.
public enum PartnerAccessResult: Sendable, Equatable {
    /// `VSAccountAccessStatus.granted`: the user allowed access to the subscription.
    case granted
    /// `VSAccountAccessStatus.denied`: the user refused access.
    case denied
    /// `VSAccountAccessStatus.restricted`: the application may not ask (parental controls).
    case restricted
    /// `VSAccountAccessStatus.notDetermined`: the user has not answered yet.
    case notDetermined
    /// The query itself failed (the `Error` passed to the completion handler).
    case error(code: String, message: String)

    /// The value written in `frameworkPermissionInfo.accessStatus`.
    var wireValue: String {
        switch self {
        case .granted: "granted"
        case .denied: "denied"
        case .restricted: "restricted"
        case .notDetermined, .error: "notDetermined"
        }
    }
}
