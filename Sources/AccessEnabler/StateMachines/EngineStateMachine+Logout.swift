import Foundation

extension EngineStateMachine {
    /// `logout`: every profile the device holds for the requestor ends — the one in force, a
    /// regular one set aside for a TempPass, those of other MVPDs signed in earlier, and any
    /// logout still pending — with one `GET logout/{mvpd}` per MVPD, all at once. The local
    /// profiles go first, whatever the network says; each logout is pending (stored) until
    /// Adobe Pass confirms it, so one that fails is sent again at the next setRequestor.
    /// The authentication machine waits for the answers (an `appleSSO` profile in force ends
    /// with VSA203; on iOS every MVPD logout page the answers carry is handed over, one after
    /// another: ``AuthenticationStateMachine/logoutAnswered(_:_:_:_:)``).
    mutating func logout(call: CallID?, _ step: inout Step) {
        // Before any setRequestor, like every other call: CFG400, then its own terminal callback.
        if standing.state == .notSet, let problem = requestorProblem {
            return forward(&step) { machine, _, step in
                machine.logoutRequested(by: call, request: nil, status: problem, &step)
            }
        }
        let profiles = step.facts.profiles
        let inForce = step.facts.currentProfile
        var ending = profiles.all
        if let inForce { ending.removeAll { $0.mvpd == inForce.mvpd }; ending.insert(inForce, at: 0) }
        var mvpds = ending.map(\.mvpd)
        var logouts = ending.map { PendingLogout(mvpd: $0.mvpd, serviceProviderURL: $0.serviceProviderURL) }
        for pending in profiles.pendingLogouts where !mvpds.contains(pending.mvpd) {
            mvpds.append(pending.mvpd)
            logouts.append(pending)
        }
        guard let requestor = standing.requestorID,
            let lead = ending.first ?? profiles.pendingLogouts.first.map(Self.placeholder)
        else {
            return forward(&step) { machine, _, step in machine.logoutRequested(by: call, request: nil, &step) }
        }
        let ticket = newTicket()
        let targets = self.targets
        var requests = logouts.map { targets.target(ending: $0, step.facts) }
        if let inForce { requests[0] = target(mvpd: inForce.mvpd, step.facts) }
        // Every MVPD the logout ends may have a page to open, the one in force first; an
        // `appleSSO` profile's is the system settings' (VSA203), never a page.
        let appleSSO = Set(ending.filter { $0.type == .appleSSO }.map(\.mvpd))
        let request = AuthenticationStateMachine.LogoutRequest(
            ticket: ticket, lead: lead, opensPagesFor: mvpds.filter { !appleSSO.contains($0) })
        forward(&step) { machine, _, step in machine.logoutRequested(by: call, request: request, &step) }
        step.store(
            ProfileChange(
                profiles: RequestorProfiles(pendingLogouts: logouts), keepingMediaTokensOf: [],
                droppingPreauthorizations: true), requestor: requestor)
        step.actions.append(.logOut(ticket, requests))
    }

    /// A stand-in profile for a logout with nothing stored but pending logouts: it opens no
    /// page and names the MVPD.
    private static func placeholder(_ logout: PendingLogout) -> StoredProfile {
        StoredProfile(
            requestor: "", mvpd: logout.mvpd, type: .regular, notBefore: .distantPast, notAfter: .distantPast,
            attributes: [:],
            tokenSource: nil, partnerProviderID: nil, serviceProviderURL: logout.serviceProviderURL)
    }
}
