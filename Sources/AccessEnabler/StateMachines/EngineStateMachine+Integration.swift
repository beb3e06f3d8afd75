import Foundation

extension EngineStateMachine {
    /// When Adobe Pass answered a request naming `mvpd` with `invalid_integration` (the
    /// dashboard disabled or removed that integration): the device's profile of that MVPD
    /// goes (``IntegrationEnded``), the configuration held in memory and in storage is out of
    /// date, and the call reports the returned status. `nil` when `error` says something else.
    mutating func integrationEnded(_ error: EnhancedError?, mvpd: String, resource: String? = nil, _ step: inout Step)
        -> AdvancedStatus?
    {
        guard let error, IntegrationEnded.applies(to: error), let requestor = standing.requestorID else { return nil }
        let change = IntegrationEnded.dropping(mvpd, from: step.facts.profiles)
        if change.profiles != step.facts.profiles { step.store(change, requestor: requestor) }
        forgetConfiguration(requestor: requestor, &step)
        return IntegrationEnded.status(mvpd: mvpd, requestor: requestor, error: error, resource: resource)
    }

    /// The configuration the device holds no longer describes the dashboard: the next flow
    /// that needs one asks for it, and a relaunch does not reuse the stored copy.
    mutating func forgetConfiguration(requestor: String, _ step: inout Step) {
        if step.facts.configuration != nil {
            step.facts.configuration = nil
            step.actions.append(.cacheConfiguration(nil))
            setStanding({ $0.catalog = nil }, &step)
        }
        if let stored = step.facts.storedConfiguration, stored.fetchedAt != .distantPast {
            step.facts.storedConfiguration = stored.outdated
            step.actions.append(.storeConfiguration(stored.outdated, requestor: requestor))
        }
    }
}
