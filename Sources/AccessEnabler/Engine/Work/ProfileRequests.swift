import Foundation

/// What setRequestor and logout ask Adobe Pass about the device's profiles, as child tasks:
/// logouts (one per MVPD, all at once) and `GET profiles` of every service provider.
enum ProfileRequests {
    /// One `GET logout/{mvpd}` to send.
    struct Logout: Sendable {
        var mvpd: String
        var requestor: String
        var client: RESTClient
        var context: RequestContext
    }

    /// setRequestor's requests: the pending logouts first (all at once), then the profiles
    /// — so a warm launch is one request, a cold one register, token, profiles.
    static func load(
        requestor: String, clients: [RESTClient], context: RequestContext, pendingLogouts: [(PendingLogout, Logout)],
        redirectURL: String
    ) async -> RequestorLoad {
        let confirmed = confirmedLogouts(
            pendingLogouts.map(\.0), answers: await logOut(pendingLogouts.map(\.1), redirectURL: redirectURL))
        let profiles = await profiles(requestor: requestor, from: clients, context: context)
        return RequestorLoad(profiles: profiles, logoutsSent: pendingLogouts.map(\.0), logoutsConfirmed: confirmed)
    }

    /// The logouts confirmed: ended at Adobe Pass, or refused because the integration is
    /// gone (nothing left to end). Never inlined into ``load``, like ``logOut(_:redirectURL:)``:
    /// their temporaries would otherwise sit in its async frame while it waits for the profiles.
    @inline(never)
    private static func confirmedLogouts(
        _ logouts: [PendingLogout], answers: [String: Result<[LogoutAction], RESTClientError>]
    ) -> [PendingLogout] {
        logouts.filter { logout in
            switch answers[logout.mvpd] {
            case .success?: true
            case .failure(let error)?: IntegrationEnded.applies(to: error.enhancedError)
            case nil: false
            }
        }
    }

    /// Every logout at once; each MVPD's answer.
    @inline(never)
    static func logOut(_ logouts: [Logout], redirectURL: String) async -> [String: Result<
        [LogoutAction], RESTClientError
    >] {
        @Sendable func send(_ logout: Logout) async -> (String, Result<[LogoutAction], RESTClientError>) {
            do throws(RESTClientError) {
                return (
                    logout.mvpd,
                    .success(
                        try await logout.client.logout(
                            serviceProvider: logout.requestor, mvpd: logout.mvpd, redirectURL: redirectURL,
                            context: logout.context))
                )
            } catch {
                return (logout.mvpd, .failure(error))
            }
        }
        if logouts.isEmpty { return [:] }
        if logouts.count == 1, let only = logouts.first {
            let (mvpd, result) = await send(only)
            return [mvpd: result]
        }
        return await withTaskGroup(of: (String, Result<[LogoutAction], RESTClientError>).self) { group in
            for logout in logouts { group.addTask { await send(logout) } }
            var answers: [String: Result<[LogoutAction], RESTClientError>] = [:]
            for await (mvpd, result) in group { answers[mvpd] = result }
            return answers
        }
    }

    /// `GET profiles` of every service provider at once, as stored profiles (each names the
    /// service provider that answered it; the first to list an MVPD wins). Fails when any
    /// service provider failed — a 429 first — since the profiles it holds are then unknown.
    static func profiles(requestor: String, from clients: [RESTClient], context: RequestContext) async -> Result<
        [StoredProfile], RESTClientError
    > {
        @Sendable func fetch(_ index: Int, _ client: RESTClient) async -> (
            Int, Result<[StoredProfile], RESTClientError>
        ) {
            do throws(RESTClientError) {
                let profiles = try await client.profiles(serviceProvider: requestor, context: context)
                return (
                    index,
                    .success(
                        profiles.map {
                            StoredProfile(
                                $0, requestor: requestor, tokenSource: nil, partnerProviderID: nil,
                                serviceProvider: client.baseURL)
                        })
                )
            } catch {
                return (index, .failure(error))
            }
        }
        var outcomes: [(Int, Result<[StoredProfile], RESTClientError>)]
        if clients.count == 1, let client = clients.first {
            outcomes = [await fetch(0, client)]
        } else {
            outcomes = await withTaskGroup(of: (Int, Result<[StoredProfile], RESTClientError>).self) { group in
                for (index, client) in clients.enumerated() { group.addTask { await fetch(index, client) } }
                var all: [(Int, Result<[StoredProfile], RESTClientError>)] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
        }
        return merged(outcomes)
    }

    /// The profiles of every service provider in the order they were named (the first to
    /// list an MVPD wins), or the failure that decides (a 429 first). Not inlined into
    /// ``profiles(requestor:from:context:)``, to keep its async frame small.
    @inline(never)
    private static func merged(_ answers: [(Int, Result<[StoredProfile], RESTClientError>)]) -> Result<
        [StoredProfile], RESTClientError
    > {
        let outcomes = answers.sorted { $0.0 < $1.0 }
        var errors: [RESTClientError] = []
        var merged: [StoredProfile] = []
        for (_, result) in outcomes {
            switch result {
            case .success(let profiles):
                merged += profiles.filter { profile in !merged.contains { $0.mvpd == profile.mvpd } }
            case .failure(let error):
                errors.append(error)
            }
        }
        if let throttled = errors.first(where: { if case .throttled = $0 { true } else { false } }) {
            return .failure(throttled)
        }
        if let first = errors.first { return .failure(first) }
        return .success(merged)
    }
}
