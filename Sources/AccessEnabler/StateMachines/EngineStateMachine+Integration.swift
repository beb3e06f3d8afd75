import Foundation

extension EngineStateMachine {
    /// When Adobe Pass answered a request naming `mvpd` with `invalid_integration` (the
    /// dashboard disabled or removed that integration): the device's profile of that MVPD
    /// goes, the configuration held in memory, in storage and in the published standing is out
    /// of date (``Step/endIntegration(_:mvpd:requestor:resource:)``), and the call reports the
    /// returned status. `nil` when `error` says something else.
    mutating func integrationEnded(_ error: EnhancedError?, mvpd: String, resource: String? = nil, _ step: inout Step)
        -> AdvancedStatus?
    {
        let status = step.endIntegration(error, mvpd: mvpd, requestor: standing.requestorID, resource: resource)
        runFollowUps(&step)
        return status
    }
}
