import Foundation

/// The advanced status ids the SDK reports, as the legacy error-reporting table names them,
/// each with its documented level. A `switch` over them is exhaustive: a new id must be
/// given its level here before any flow can report it.
enum StatusID: Sendable, Hashable, CustomStringConvertible {
    /// The user is not authenticated.
    case n000
    /// "Other TV Provider" chosen in the picker.
    case n003
    /// A provider the requestor does not support.
    case n004
    /// The picker or the provider choice was cancelled.
    case n005
    /// Authenticated by a degradation rule.
    case n010
    /// Authenticated with TempPass.
    case n011
    /// A used-up TempPass chosen again.
    case n111
    /// The authentication session is missing or expired.
    case n130
    /// Internal authentication error.
    case n500
    /// Signed out of the app, still signed in at system level.
    case vsa203
    /// TV provider permission denied or restricted.
    case vsa403
    /// TV provider permission not determined.
    case vsa404
    /// The TV provider account metadata request failed.
    case vsa503
    /// A partner framework error at setRequestor.
    case appl
    /// A partner framework error when checking authentication.
    case applError
    /// The device clock differs from the server's.
    case cfg100
    /// An invalid requestor (or none).
    case cfg400
    /// The servers cannot be reached.
    case cfg404
    /// setRequestor was throttled.
    case cfg429
    /// The servers failed with this 5xx status.
    case cfg5xx(Int)
    /// The software statement was refused at registration.
    case r400
    /// No access token could be obtained.
    case r401
    /// A registration code is ready for a second screen.
    case regcode
    /// The registration code could not be obtained.
    case reg500
    /// Authorized by a degradation rule.
    case z010
    /// Authorized through TempPass.
    case z011
    /// Denied by the MVPD (or throttled).
    case z100
    /// The MVPD could not be reached.
    case z120
    /// An invalid resource.
    case z130
    /// Denied by an authzNone degradation rule.
    case z169
    /// Internal authorization error.
    case z500
    /// Preauthorization failed.
    case p100
    /// Stored tokens were discarded (a corrupt or tampered storage file, a store cleared by
    /// the integrity check): the user is no longer authenticated with them.
    case sec412

    /// The id as the legacy table writes it (`N000`, `APPL_ERROR`, `CFG503`, …).
    var description: String {
        switch self {
        case .n000: "N000"
        case .n003: "N003"
        case .n004: "N004"
        case .n005: "N005"
        case .n010: "N010"
        case .n011: "N011"
        case .n111: "N111"
        case .n130: "N130"
        case .n500: "N500"
        case .vsa203: "VSA203"
        case .vsa403: "VSA403"
        case .vsa404: "VSA404"
        case .vsa503: "VSA503"
        case .appl: "APPL"
        case .applError: "APPL_ERROR"
        case .cfg100: "CFG100"
        case .cfg400: "CFG400"
        case .cfg404: "CFG404"
        case .cfg429: "CFG429"
        case .cfg5xx(let status): "CFG\(status)"
        case .r400: "R400"
        case .r401: "R401"
        case .regcode: "REGCODE"
        case .reg500: "REG500"
        case .z010: "Z010"
        case .z011: "Z011"
        case .z100: "Z100"
        case .z120: "Z120"
        case .z130: "Z130"
        case .z169: "Z169"
        case .z500: "Z500"
        case .p100: "P100"
        case .sec412: "SEC412"
        }
    }

    /// The documented level.
    var level: AdvancedStatus.Level {
        switch self {
        case .n000, .n003, .n004, .n005, .n011, .vsa203, .vsa403, .vsa404, .vsa503, .regcode, .z011: .info
        case .n010, .n111, .z010, .cfg100, .sec412: .warning
        case .n130, .n500, .appl, .applError, .cfg400, .cfg404, .cfg429, .cfg5xx, .r400, .r401, .reg500,
             .z100, .z120, .z130, .z169, .z500, .p100:
            .error
        }
    }
}

/// Builds the advanced statuses the SDK reports, each with its documented level.
enum StatusCatalog {
    /// A status with its documented level.
    static func status(_ id: StatusID, message: String?, details: String? = nil, resource: String? = nil, enhancedError: EnhancedError? = nil) -> AdvancedStatus {
        AdvancedStatus(errorId: id.description, level: id.level, message: message, details: details, resource: resource, enhancedError: enhancedError)
    }
}
