import Foundation

/// Where a REST request about an MVPD goes, as the last setRequestor left things: the
/// requestor, the service providers it named, and every service provider a client exists for.
/// A value the engine's state machine hands its inner machines, so they address requests the
/// same way it does without reading it.
struct RequestTargets: Sendable {
    /// The current requestor; `nil` before setRequestor named one.
    var requestor: String?
    /// The service providers the last setRequestor asked, first the one a session without an
    /// MVPD goes to.
    var serviceProviders: [URL]
    /// Every service provider a client exists for (by base URL): a profile is sent back to
    /// the one it came from when it is among them.
    var knownServiceProviders: Set<String>
    /// The base URL of the configured environment, where a request goes when nothing names
    /// another.
    var primaryServiceProvider: URL

    /// Where a request about `mvpd` goes, and what it carries: the service provider the
    /// user's profile with that MVPD came from (when a client for it exists), else the one
    /// the configuration placed the MVPD at, else the configured environment.
    func target(mvpd: String?, partnerStatus: PartnerFrameworkStatus? = nil, _ facts: EngineFacts) -> RESTTarget {
        var serviceProvider: URL?
        if let mvpd {
            if let profile = facts.currentProfile, profile.mvpd == mvpd, let url = profile.serviceProviderURL,
                knownServiceProviders.contains(url)
            {
                serviceProvider = URL(string: url)
            } else if let url = facts.catalog?.serviceProviderForMVPD[mvpd] {
                serviceProvider = url
            } else if let url = facts.knownProvider(mvpd)?.serviceProviderURL, knownServiceProviders.contains(url) {
                serviceProvider = URL(string: url)
            }
        }
        return RESTTarget(
            requestor: requestor ?? "", mvpd: mvpd, serviceProvider: serviceProvider, partnerStatus: partnerStatus,
            tempPassIdentity: mvpd.flatMap { facts.knownProvider($0)?.isTempPass } ?? false)
    }

    /// Where a request about an authentication session goes: ``target(mvpd:partnerStatus:_:)``
    /// for a session with an MVPD; for one without (the provider is chosen on the second
    /// screen), the first service provider setRequestor named, where the profile will be.
    func sessionTarget(mvpd: String?, _ facts: EngineFacts) -> RESTTarget {
        if mvpd != nil { return target(mvpd: mvpd, facts) }
        var target = target(mvpd: nil, facts)
        target.serviceProvider = serviceProviders.first
        return target
    }

    /// Where a logout of `logout`'s MVPD goes: the service provider that issued its profile
    /// when that one is known, else the catalog's for the MVPD.
    func target(ending logout: PendingLogout, _ facts: EngineFacts) -> RESTTarget {
        var target = target(mvpd: logout.mvpd, facts)
        if let url = logout.serviceProviderURL, knownServiceProviders.contains(url) {
            target.serviceProvider = URL(string: url)
        }
        return target
    }

    /// The base URL a session's answer about `mvpd` is read against (its login page, the
    /// profile's service provider): the session's target, else the configured environment.
    func sessionServiceProvider(mvpd: String?, _ facts: EngineFacts) -> URL {
        sessionTarget(mvpd: mvpd, facts).serviceProvider ?? primaryServiceProvider
    }

    /// The base URL an answer about `mvpd` is read against: its target, else the configured
    /// environment.
    func serviceProvider(mvpd: String, _ facts: EngineFacts) -> URL {
        target(mvpd: mvpd, facts).serviceProvider ?? primaryServiceProvider
    }
}
