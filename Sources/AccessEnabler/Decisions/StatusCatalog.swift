import Foundation

extension StatusID {
    /// The legacy error code of the `tokenRequestFailed` that a status of this id explains:
    /// the one table pairing authorization statuses with the legacy codes. A refusal about
    /// the user, the MVPD or the resource (Z100 — throttling included, as Adobe's throttling
    /// page reports it —, Z120, Z130, Z169) is "not authorized"; a user who is not signed in
    /// (N000, N130) is "not authenticated"; what has no published reason (Z500, a requestor
    /// that is not ready) is generic.
    var authorizationErrorCode: String {
        switch kind {
        case .reported(let id):
            switch id {
            case .z100, .z120, .z130, .z169, .z010, .z011: USER_NOT_AUTHORIZED_ERROR
            case .n000, .n130, .n111, .n408: USER_NOT_AUTHENTICATED_ERROR
            case .n003, .n004, .n005, .n010, .n011, .n500, .vsa203, .vsa403, .vsa404, .vsa503, .appl, .applError,
                .cfg100, .cfg400,
                .cfg404, .cfg429, .r400, .r401, .regcode, .reg500, .reg404, .reg200, .z500, .p100, .sec412, .logoutPage:
                GENERIC_AUTHORIZATION_ERROR
            }
        case .cfg5xx, .other: GENERIC_AUTHORIZATION_ERROR
        }
    }
}

/// Builds the advanced statuses the SDK reports, each with its documented level.
enum StatusCatalog {
    /// A status with its documented level.
    static func status(
        _ id: StatusID, message: String?, details: String? = nil, resource: String? = nil,
        enhancedError: EnhancedError? = nil
    ) -> AdvancedStatus {
        AdvancedStatus(
            errorId: id, level: id.level, message: message, details: details, resource: resource,
            enhancedError: enhancedError)
    }
}
