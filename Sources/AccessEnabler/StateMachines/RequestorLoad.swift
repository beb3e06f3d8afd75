import Foundation

/// What setRequestor's requests found out, together: logouts sent again first, then the
/// profiles Adobe Pass holds for this device.
struct RequestorLoad: Sendable {
    /// Every profile `GET profiles` answered, of every service provider; `nil`: not asked.
    var profiles: Result<[StoredProfile], RESTClientError>?
    /// The pending logouts that were sent.
    var logoutsSent: [PendingLogout] = []
    /// Those Adobe Pass confirmed.
    var logoutsConfirmed: [PendingLogout] = []

    /// The profiles Adobe Pass answered, nothing else.
    static func success(_ profiles: [StoredProfile]) -> RequestorLoad { RequestorLoad(profiles: .success(profiles)) }
    /// The profiles could not be had.
    static func failure(_ error: RESTClientError) -> RequestorLoad { RequestorLoad(profiles: .failure(error)) }
}

/// The answers to one logout: `GET logout/{mvpd}` for every MVPD whose profile it ends, by MVPD.
struct LogoutAnswers: Sendable {
    /// Each MVPD's answer.
    var byMVPD: [String: Result<[LogoutAction], RESTClientError>]
    /// The answer for the lead MVPD (the profile in force), when only that one was asked.
    var lead: Result<[LogoutAction], RESTClientError>? = nil

    /// Only the lead MVPD was asked, and it answered.
    static func success(_ actions: [LogoutAction]) -> LogoutAnswers {
        LogoutAnswers(byMVPD: [:], lead: .success(actions))
    }
    /// Only the lead MVPD was asked, and it failed.
    static func failure(_ error: RESTClientError) -> LogoutAnswers { LogoutAnswers(byMVPD: [:], lead: .failure(error)) }

    /// The answer for `mvpd`.
    func answer(for mvpd: String) -> Result<[LogoutAction], RESTClientError>? { byMVPD[mvpd] ?? lead }

    /// Whether Adobe Pass refused the logout of `mvpd` because the integration with it is
    /// disabled or gone (`invalid_integration`): nothing is left there to end.
    func integrationEnded(_ mvpd: String) -> Bool {
        guard case .failure(let error)? = answer(for: mvpd) else { return false }
        return IntegrationEnded.applies(to: error.enhancedError)
    }

    /// The MVPDs whose logout failed.
    var failedMVPDs: Set<String> {
        Set(byMVPD.compactMap { mvpd, result in if case .failure = result { mvpd } else { nil } })
    }
}
