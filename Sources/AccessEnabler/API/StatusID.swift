/// The id of an advanced status (``AdvancedStatus/errorId``), as the legacy error-reporting
/// table names it, with its documented level.
///
/// A structure with a static member per id the SDK reports (``n130``, ``z100``,
/// ``cfg5xx(_:)``, …), not an enumeration: a new id in a later version is an addition, and an
/// app's `switch` over ids keeps compiling (it has a `default:`, as a `switch` over a
/// structure must). Code written for the legacy SDK, where the id was a string, keeps
/// compiling: a string literal is a `StatusID` (`status.errorId == "N130"`, `case "N003":`),
/// a `StatusID` compares equal to a `String` spelling it, and ``description`` is the legacy
/// spelling (`"\(status.errorId)"`). Any other spelling (an id of the legacy table the SDK
/// never reports, such as `SEC420`) is kept as spelled (``other(_:)``).
public struct StatusID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// What an id is. The SDK's own decisions switch over it with no `default`, so a new
    /// ``Reported`` id makes the compiler list every place that must decide what it means.
    enum Kind: Hashable, Sendable {
        /// An id the SDK reports, but the `CFG5xx` family.
        case reported(Reported)
        /// `CFG` and a server's 5xx status.
        case cfg5xx(Int)
        /// An id the SDK never reports, spelled as given.
        case other(String)
    }

    /// Every id the SDK reports but the `CFG5xx` family, spelled as the legacy table writes
    /// it. ``StatusID/reported`` and the reading of a spelling (``init(_:)``) derive from
    /// `allCases`, so there is no list to keep; a new case needs its public static member
    /// below and a decision in every `switch` the compiler then names.
    enum Reported: String, CaseIterable, Sendable {
        case n000 = "N000"
        case n003 = "N003"
        case n004 = "N004"
        case n005 = "N005"
        case n010 = "N010"
        case n011 = "N011"
        case n111 = "N111"
        case n130 = "N130"
        case n500 = "N500"
        case n408 = "N408"
        case vsa203 = "VSA203"
        case vsa403 = "VSA403"
        case vsa404 = "VSA404"
        case vsa503 = "VSA503"
        case appl = "APPL"
        case applError = "APPL_ERROR"
        case cfg100 = "CFG100"
        case cfg400 = "CFG400"
        case cfg404 = "CFG404"
        case cfg429 = "CFG429"
        case r400 = "R400"
        case r401 = "R401"
        case regcode = "REGCODE"
        case reg500 = "REG500"
        case reg404 = "REG404"
        case reg200 = "REG200"
        case z010 = "Z010"
        case z011 = "Z011"
        case z100 = "Z100"
        case z120 = "Z120"
        case z130 = "Z130"
        case z169 = "Z169"
        case z500 = "Z500"
        case p100 = "P100"
        case sec412 = "SEC412"
        case logoutPage = "LOGOUT_PAGE"
    }

    /// What this id is.
    let kind: Kind

    /// The id that is `kind`.
    init(kind: Kind) {
        self.kind = kind
    }

    /// The user is not authenticated.
    public static let n000 = StatusID(kind: .reported(.n000))
    /// "Other TV Provider" chosen in the picker.
    public static let n003 = StatusID(kind: .reported(.n003))
    /// A provider the requestor does not support.
    public static let n004 = StatusID(kind: .reported(.n004))
    /// The picker or the provider choice was cancelled.
    public static let n005 = StatusID(kind: .reported(.n005))
    /// Authenticated by a degradation rule.
    public static let n010 = StatusID(kind: .reported(.n010))
    /// Authenticated with TempPass.
    public static let n011 = StatusID(kind: .reported(.n011))
    /// A used-up TempPass chosen again.
    public static let n111 = StatusID(kind: .reported(.n111))
    /// The authentication session (or the sign-in) is missing or expired.
    public static let n130 = StatusID(kind: .reported(.n130))
    /// Internal authentication error.
    public static let n500 = StatusID(kind: .reported(.n500))
    /// This SDK's own: the app did not come back from an MVPD logout page in time, so the
    /// logout ended without it (signed out at Adobe Pass and on the device all the same).
    public static let n408 = StatusID(kind: .reported(.n408))
    /// Signed out of the app, still signed in at system level.
    public static let vsa203 = StatusID(kind: .reported(.vsa203))
    /// TV provider permission denied or restricted.
    public static let vsa403 = StatusID(kind: .reported(.vsa403))
    /// TV provider permission not determined.
    public static let vsa404 = StatusID(kind: .reported(.vsa404))
    /// The TV provider account metadata request failed.
    public static let vsa503 = StatusID(kind: .reported(.vsa503))
    /// A partner framework error at setRequestor.
    public static let appl = StatusID(kind: .reported(.appl))
    /// A partner framework error when checking authentication.
    public static let applError = StatusID(kind: .reported(.applError))
    /// The device clock differs from the server's.
    public static let cfg100 = StatusID(kind: .reported(.cfg100))
    /// An invalid requestor (or none).
    public static let cfg400 = StatusID(kind: .reported(.cfg400))
    /// The servers cannot be reached.
    public static let cfg404 = StatusID(kind: .reported(.cfg404))
    /// setRequestor was throttled.
    public static let cfg429 = StatusID(kind: .reported(.cfg429))
    /// The software statement was refused at registration.
    public static let r400 = StatusID(kind: .reported(.r400))
    /// No access token could be obtained.
    public static let r401 = StatusID(kind: .reported(.r401))
    /// A registration code is ready for a second screen.
    public static let regcode = StatusID(kind: .reported(.regcode))
    /// The registration code could not be obtained.
    public static let reg500 = StatusID(kind: .reported(.reg500))
    /// A second-screen sign-in cannot be checked: the polls for its profile have failed for
    /// longer than the SDK waits quietly (this SDK's own id: the legacy table has none).
    public static let reg404 = StatusID(kind: .reported(.reg404))
    /// The polls of a second-screen sign-in answer again after ``reg404`` (this SDK's own id).
    public static let reg200 = StatusID(kind: .reported(.reg200))
    /// Authorized by a degradation rule.
    public static let z010 = StatusID(kind: .reported(.z010))
    /// Authorized through TempPass.
    public static let z011 = StatusID(kind: .reported(.z011))
    /// Denied by the MVPD (or throttled).
    public static let z100 = StatusID(kind: .reported(.z100))
    /// The MVPD could not be reached.
    public static let z120 = StatusID(kind: .reported(.z120))
    /// An invalid resource.
    public static let z130 = StatusID(kind: .reported(.z130))
    /// Denied by an authzNone degradation rule.
    public static let z169 = StatusID(kind: .reported(.z169))
    /// Internal authorization error.
    public static let z500 = StatusID(kind: .reported(.z500))
    /// Preauthorization failed.
    public static let p100 = StatusID(kind: .reported(.p100))
    /// Stored tokens were discarded (a corrupt or tampered storage file, a store cleared by
    /// the integrity check): the user is no longer authenticated with them.
    public static let sec412 = StatusID(kind: .reported(.sec412))
    /// An MVPD logout page for the person to open on another device (a platform that opens
    /// no page itself: tvOS), the URL in ``AdvancedStatus/details``; one per page, before the
    /// logout's `setAuthenticationStatus` (this SDK's own id: the legacy table has none).
    public static let logoutPage = StatusID(kind: .reported(.logoutPage))

    /// `CFG` and the 5xx `status` the servers failed with (`CFG503`).
    public static func cfg5xx(_ status: Int) -> StatusID { StatusID(kind: .cfg5xx(status)) }

    /// The id spelled `spelling`: the same as ``init(_:)``, for an id of the legacy table the
    /// SDK never reports (`StatusID.other("SEC420")`).
    public static func other(_ spelling: String) -> StatusID { StatusID(spelling) }

    /// Every id the SDK reports, but the `CFG5xx` family (derived from ``Reported``).
    static var reported: [StatusID] { Reported.allCases.map { StatusID(kind: .reported($0)) } }

    /// The id spelled `spelling` (`"N130"`, `"CFG503"`, `"APPL_ERROR"`); an id the SDK never
    /// reports is kept as spelled.
    public init(_ spelling: String) {
        if let reported = Reported(rawValue: spelling) {
            kind = .reported(reported)
        } else if spelling.count == 6, spelling.hasPrefix("CFG5"), let status = Int(spelling.dropFirst(3)) {
            kind = .cfg5xx(status)
        } else {
            kind = .other(spelling)
        }
    }

    /// A string literal is the id it spells.
    public init(stringLiteral spelling: String) {
        self.init(spelling)
    }

    /// The servers' 5xx status of a `CFG5xx` id (503 for `CFG503`), `nil` for any other id:
    /// what `case .cfg5xx:` matched when ``StatusID`` was an enumeration.
    public var cfg5xxStatus: Int? {
        if case .cfg5xx(let status) = kind { status } else { nil }
    }

    /// The id as the legacy table writes it (`N000`, `APPL_ERROR`, `CFG503`, …).
    public var description: String {
        switch kind {
        case .reported(let id): id.rawValue
        case .cfg5xx(let status): "CFG\(status)"
        case .other(let spelling): spelling
        }
    }

    /// The documented level (an id the SDK never reports counts as an error).
    public var level: AdvancedStatus.Level {
        switch kind {
        case .reported(let id):
            switch id {
            case .n000, .n003, .n004, .n005, .n011, .vsa203, .vsa403, .vsa404, .vsa503, .regcode, .reg200, .z011,
                .logoutPage:
                .info
            case .n010, .n111, .n408, .z010, .cfg100, .reg404, .sec412: .warning
            case .n130, .n500, .appl, .applError, .cfg400, .cfg404, .cfg429, .r400, .r401, .reg500, .z100, .z120, .z130,
                .z169, .z500,
                .p100:
                .error
            }
        case .cfg5xx, .other: .error
        }
    }

    /// Ids are equal when they spell the same (`StatusID.other("N130")` is ``n130``).
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
