import Foundation

/// What to do to finish logging out of one MVPD.
struct LogoutAction: Sendable, Equatable {
    /// The MVPD id.
    var mvpd: String
    /// What finishes the logout for this MVPD.
    var actionName: LogoutActionName
    /// How that step is taken.
    var actionType: ActionType
    /// The MVPD logout URL to open, for `logout`.
    var url: String?

    init(mvpd: String, actionName: LogoutActionName, actionType: ActionType, url: String? = nil) {
        self.mvpd = mvpd
        self.actionName = actionName
        self.actionType = actionType
        self.url = url
    }
}

/// The body `{"logouts": {"<mvpd>": {…}}}`.
struct LogoutResponse: Decodable, Sendable {
    /// The actions, ordered by MVPD id.
    var logouts: [LogoutAction]

    private struct WireLogout: Decodable {
        var actionName: LogoutActionName
        var actionType: ActionType
        var mvpd: String?
        var url: String?
    }

    private enum CodingKeys: String, CodingKey { case logouts }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let map = try container.decodeObject(of: WireLogout.self, forKey: .logouts) ?? [:]
        logouts = map.keys.sorted().compactMap { key in
            guard let wire = map[key] else { return nil }
            return LogoutAction(
                mvpd: wire.mvpd ?? key, actionName: wire.actionName, actionType: wire.actionType, url: wire.url)
        }
    }
}
