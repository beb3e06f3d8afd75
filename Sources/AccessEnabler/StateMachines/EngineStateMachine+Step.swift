import Foundation

extension EngineStateMachine {
    /// The actions one event produces, and the facts as they stand after the writes made so
    /// far (a profile stored earlier in the same event counts for the decisions after it).
    ///
    /// The inner authentication machine writes its actions here too — the engine's own
    /// vocabulary, nothing to translate — and leaves in ``followUps`` the little it asks of the
    /// engine's machine itself.
    struct Step {
        /// What the authentication machine asks of the engine's state machine, done as soon as
        /// the transition that asked returns (``EngineStateMachine/forward(_:_:)``).
        enum FollowUp: Sendable, Equatable {
            /// The authorization that waited for the sign-in runs next, before the calls queued.
            case authorize(PendingAuthorization)
            /// Answer `call` with the user's authentication as it stands (a `handleExternalURL`
            /// with nothing to complete): judging it may need the partner framework.
            case reportAuthentication(call: CallID?)
            /// The configuration in ``facts`` changed (arrived, or was forgotten): the
            /// requestor's published standing carries it.
            case publishConfiguration
        }

        var facts: EngineFacts
        var actions: [EngineAction] = []
        /// What the authentication machine asked of the engine's machine, oldest first.
        var followUps: [FollowUp] = []

        /// Delivers `callback` as a callback of `call`.
        mutating func deliver(_ callback: DelegateCall, to call: CallID?, alsoEnding others: [CallID] = []) {
            actions.append(.deliver(callback, to: call, alsoEnding: others))
        }

        /// Stores a new sign-in as ``ProfileSelection`` decides, with what the device knows of
        /// its provider; the provider is remembered as this requestor's last (a TempPass is not
        /// a provider to continue with).
        mutating func storeSignIn(_ profile: StoredProfile) {
            var profile = profile
            let known = facts.knownProvider(profile.mvpd)
            if profile.provider?.isDescribed != true {
                profile.provider =
                    known ?? profile.provider
                    ?? StoredProvider(id: profile.mvpd, serviceProviderURL: profile.serviceProviderURL)
            }
            var change = ProfileSelection.signIn(profile, over: facts.profiles, now: facts.adobeNow)
            if profile.type != .temporary, profile.provider?.isTempPass != true {
                change.profiles.remembered = profile.provider
            }
            store(change, requestor: profile.requestor)
        }

        /// Keeps `catalog` as the requestor's configuration, fetched now.
        mutating func cacheConfiguration(_ catalog: RequestorCatalog) {
            let cached = CachedConfiguration(catalog: catalog, fetchedAt: facts.now)
            facts.configuration = cached
            actions.append(.cacheConfiguration(cached))
        }

        /// Stores the configuration just cached as `requestor`'s, fetched from
        /// `serviceProviders`, and describes with it the providers the device stored knowing
        /// only their id.
        mutating func keepArrivedConfiguration(
            _ catalog: RequestorCatalog, requestor: String, serviceProviders: [URL]
        ) {
            if let cached = facts.configuration {
                let stored = StoredConfiguration(cached, serviceProviders: serviceProviders)
                facts.storedConfiguration = stored
                actions.append(.storeConfiguration(stored, requestor: requestor))
            }
            var profiles = facts.profiles
            func describe(_ provider: StoredProvider?) -> StoredProvider? {
                guard let provider, !provider.isDescribed, let described = catalog.storedProvider(provider.id) else {
                    return provider
                }
                return described
            }
            func describe(_ profile: StoredProfile?) -> StoredProfile? {
                guard var profile else { return nil }
                profile.provider = describe(profile.provider)
                return profile
            }
            profiles.chosen = describe(profiles.chosen)
            profiles.standby = describe(profiles.standby)
            profiles.others = profiles.others.compactMap { describe($0) }
            profiles.remembered = describe(profiles.remembered)
            if profiles != facts.profiles {
                store(
                    ProfileChange(profiles: profiles, keepingMediaTokensOf: nil, droppingPreauthorizations: false),
                    requestor: requestor)
            }
        }

        /// Forgets the configuration held in memory; `true` when there was one (the published
        /// standing must then forget it too).
        mutating func dropCachedConfiguration() -> Bool {
            guard facts.configuration != nil else { return false }
            facts.configuration = nil
            actions.append(.cacheConfiguration(nil))
            return true
        }

        /// Marks `requestor`'s stored configuration out of date: a relaunch does not reuse it.
        mutating func outdateStoredConfiguration(requestor: String) {
            guard let stored = facts.storedConfiguration, stored.fetchedAt != .distantPast else { return }
            facts.storedConfiguration = stored.outdated
            actions.append(.storeConfiguration(stored.outdated, requestor: requestor))
        }

        /// When Adobe Pass answered a request naming `mvpd` with `invalid_integration` (the
        /// dashboard disabled or removed that integration): the device's profile of that MVPD
        /// goes (``IntegrationEnded``), the configuration held in memory and in storage is out of
        /// date (its published copy too: a follow-up), and the call reports the returned
        /// status. `nil` when `error` says something else, or no requestor is set.
        mutating func endIntegration(_ error: EnhancedError?, mvpd: String, requestor: String?, resource: String? = nil)
            -> AdvancedStatus?
        {
            guard let error, IntegrationEnded.applies(to: error), let requestor else { return nil }
            let change = IntegrationEnded.dropping(mvpd, from: facts.profiles)
            if change.profiles != facts.profiles { store(change, requestor: requestor) }
            if dropCachedConfiguration() { followUps.append(.publishConfiguration) }
            outdateStoredConfiguration(requestor: requestor)
            return IntegrationEnded.status(mvpd: mvpd, requestor: requestor, error: error, resource: resource)
        }

        /// Stores `change` of the requestor's profiles (and what no longer holds with them).
        mutating func store(_ change: ProfileChange, requestor: String) {
            facts.profiles = change.profiles
            if let kept = change.keepingMediaTokensOf {
                facts.mediaTokens = facts.mediaTokens.filter { kept.contains($0.value.mvpd) }
            }
            if change.droppingPreauthorizations { facts.preauthorizations = [:] }
            actions.append(.storeProfiles(change, requestor: requestor))
        }

        /// Removes the requestor's profiles (with its media tokens and preauthorization
        /// answers); logouts Adobe Pass has not confirmed stay.
        mutating func removeProfiles(of requestor: String) {
            facts.profiles = RequestorProfiles(
                pendingLogouts: facts.profiles.pendingLogouts, remembered: facts.profiles.remembered)
            facts.mediaTokens = [:]
            facts.preauthorizations = [:]
            actions.append(.removeProfiles(requestor: requestor))
        }

        /// Reports a significant difference between the device clock and Adobe's, once: CFG100.
        mutating func reportClockDifferenceIfNew(to call: CallID?) {
            guard let offset = facts.unreportedClockOffset else { return }
            facts.unreportedClockOffset = nil
            let status = StatusCatalog.status(
                .cfg100, message: StatusSentences.clockDifference(offset: offset),
                details: StatusSentences.clockOffsetDetails(offset))
            deliver(.status(status), to: call)
            actions.append(.clockDifferenceReported)
        }

        /// The follow-ups asked so far, taken.
        mutating func takeFollowUps() -> [FollowUp] {
            defer { followUps = [] }
            return followUps
        }
    }
}
