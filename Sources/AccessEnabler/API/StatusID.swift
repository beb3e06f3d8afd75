/// The id of an advanced status (``AdvancedStatus/errorId``), as the legacy error-reporting
/// table names it, with its documented level.
///
/// The SDK reports only the named cases; a `switch` over them marks every place a new id
/// must reach. Code written for the legacy SDK, where the id was a string, keeps compiling:
/// a string literal is a `StatusID` (`status.errorId == "N130"`, `case "N003":`), a
/// `StatusID` compares equal to a `String` spelling it, and ``description`` is the legacy
/// spelling (`"\(status.errorId)"`). Any other spelling (an id of the legacy table the SDK
/// never reports, such as `SEC420`) is kept as ``other(_:)``.
public enum StatusID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
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
    /// The authentication session (or the sign-in) is missing or expired.
    case n130
    /// Internal authentication error.
    case n500
    /// This SDK's own: the app did not come back from an MVPD logout page in time, so the
    /// logout ended without it (signed out at Adobe Pass and on the device all the same).
    case n408
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
    /// A second-screen sign-in cannot be checked: the polls for its profile have failed for
    /// longer than the SDK waits quietly (this SDK's own id: the legacy table has none).
    case reg404
    /// The polls of a second-screen sign-in answer again after ``reg404`` (this SDK's own id).
    case reg200
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
    /// An id this SDK never reports, spelled as given.
    case other(String)

    /// Every id the SDK reports, but the `CFG5xx` family.
    static let reported: [StatusID] = [
        .n000, .n003, .n004, .n005, .n010, .n011, .n111, .n130, .n500, .n408, .vsa203, .vsa403, .vsa404, .vsa503, .appl, .applError,
        .cfg100, .cfg400, .cfg404, .cfg429, .r400, .r401, .regcode, .reg500, .reg404, .reg200, .z010, .z011, .z100, .z120, .z130, .z169, .z500, .p100, .sec412,
    ]

    /// The id spelled `spelling` (`"N130"`, `"CFG503"`, `"APPL_ERROR"`); an id the SDK never
    /// reports is ``other(_:)``.
    public init(_ spelling: String) {
        if let known = Self.reported.first(where: { $0.description == spelling }) {
            self = known
        } else if spelling.count == 6, spelling.hasPrefix("CFG5"), let status = Int(spelling.dropFirst(3)) {
            self = .cfg5xx(status)
        } else {
            self = .other(spelling)
        }
    }

    /// A string literal is the id it spells.
    public init(stringLiteral spelling: String) {
        self.init(spelling)
    }

    /// The id as the legacy table writes it (`N000`, `APPL_ERROR`, `CFG503`, …).
    public var description: String {
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
        case .n408: "N408"
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
        case .reg404: "REG404"
        case .reg200: "REG200"
        case .z010: "Z010"
        case .z011: "Z011"
        case .z100: "Z100"
        case .z120: "Z120"
        case .z130: "Z130"
        case .z169: "Z169"
        case .z500: "Z500"
        case .p100: "P100"
        case .sec412: "SEC412"
        case .other(let spelling): spelling
        }
    }

    /// The documented level (an id the SDK never reports counts as an error).
    public var level: AdvancedStatus.Level {
        switch self {
        case .n000, .n003, .n004, .n005, .n011, .vsa203, .vsa403, .vsa404, .vsa503, .regcode, .reg200, .z011: .info
        case .n010, .n111, .n408, .z010, .cfg100, .reg404, .sec412: .warning
        case .n130, .n500, .appl, .applError, .cfg400, .cfg404, .cfg429, .cfg5xx, .r400, .r401, .reg500,
            .z100, .z120, .z130, .z169, .z500, .p100, .other:
            .error
        }
    }

    /// Ids are equal when they spell the same (`.other("N130")` is ``n130``).
    public static func == (lhs: StatusID, rhs: StatusID) -> Bool {
        lhs.description == rhs.description
    }

    /// Hashes the spelling, which is what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    /// Legacy code compares ids with strings: equal when `rhs` spells the id.
    public static func == (lhs: StatusID, rhs: String) -> Bool { lhs.description == rhs }
    /// Legacy code compares ids with strings: equal when `lhs` spells the id.
    public static func == (lhs: String, rhs: StatusID) -> Bool { lhs == rhs.description }
    /// Legacy code compares ids with strings.
    public static func != (lhs: StatusID, rhs: String) -> Bool { lhs.description != rhs }
    /// Legacy code compares ids with strings.
    public static func != (lhs: String, rhs: StatusID) -> Bool { lhs != rhs.description }
}
