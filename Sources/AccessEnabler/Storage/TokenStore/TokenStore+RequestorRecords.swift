import Foundation

/// ``TokenStore``'s surface for each requestor's record — its profiles, configuration, media
/// tokens and preauthorization answers — and the clear of everything.
extension TokenStore {
    // MARK: - Profiles

    /// The profiles stored for `requestor`, as they were stored: which one is in force is
    /// ``ProfileSelection``'s to say.
    func profiles(requestor: String) -> RequestorProfiles {
        stateLock.withLock {
            guard let record = snapshot.requestors[requestor] else { return .none }
            return RequestorProfiles(
                chosen: record.profile, standby: record.standby, others: record.others ?? [],
                pendingLogouts: record.pendingLogouts ?? [], remembered: record.rememberedProvider)
        }
    }

    /// Every requestor's logouts Adobe Pass has not confirmed, by requestor (only those with some).
    func pendingLogouts() -> [String: [PendingLogout]] {
        stateLock.withLock {
            snapshot.requestors.compactMapValues { record in record.pendingLogouts.flatMap { $0.isEmpty ? nil : $0 } }
        }
    }

    /// The profile of `requestor` chosen last, expired or not.
    func profile(requestor: String) -> StoredProfile? {
        stateLock.withLock { chosenProfiles[requestor] ?? nil }
    }

    /// Stores what ``ProfileSelection`` decided for `requestor`: its profiles, and the media
    /// tokens and preauthorization answers that no longer hold with them removed — in one
    /// change of the requestor's record. A sign-in or a logout: written before its callback.
    func apply(_ change: ProfileChange, requestor: String) {
        updateRecord(of: requestor, urgent: true) { record in
            record.profile = change.profiles.chosen
            record.standby = change.profiles.standby
            record.others = change.profiles.others.isEmpty ? nil : change.profiles.others
            record.pendingLogouts = change.profiles.pendingLogouts.isEmpty ? nil : change.profiles.pendingLogouts
            record.rememberedProvider = change.profiles.remembered
            if let kept = change.keepingMediaTokensOf {
                record.authorizations = record.authorizations.filter { kept.contains($0.value.mvpd) }
            }
            if change.droppingPreauthorizations { record.preauthorizations = [:] }
        }
    }

    /// Removes `requestor`'s profiles with its media tokens and preauthorization answers;
    /// logouts Adobe Pass has not confirmed stay, to be sent again, and so does the provider
    /// of the last sign-in (only a logout forgets it) and the configuration. Written before
    /// the callback that says so.
    func removeProfile(requestor: String) {
        updateRecord(of: requestor, urgent: true) { record in
            record = RequestorRecord(
                requestor: requestor, pendingLogouts: record.pendingLogouts,
                rememberedProvider: record.rememberedProvider, configuration: record.configuration)
        }
    }

    // MARK: - Configuration

    /// The configuration of `requestor` last stored, whatever its age.
    func configuration(requestor: String) -> StoredConfiguration? {
        stateLock.withLock { snapshot.requestors[requestor]?.configuration }
    }

    /// Keeps `configuration` as `requestor`'s, in place of the one stored before.
    func setConfiguration(_ configuration: StoredConfiguration, requestor: String) {
        updateRecord(of: requestor, urgent: false) { record in record.configuration = configuration }
    }

    // MARK: - Authorizations

    /// The media tokens stored for `requestor`, by resource, expired or not.
    func authorizations(requestor: String) -> [String: StoredAuthorization] {
        stateLock.withLock { snapshot.requestors[requestor]?.authorizations ?? [:] }
    }

    /// The media token stored for `resource`, expired or not.
    func authorization(requestor: String, resource: String) -> StoredAuthorization? {
        stateLock.withLock { snapshot.requestors[requestor]?.authorizations[resource] }
    }

    /// Stores a media token, replacing the previous one for the same requestor and resource.
    func setAuthorization(_ authorization: StoredAuthorization) {
        updateRecord(of: authorization.requestor, urgent: false) { record in
            record.authorizations[authorization.resource] = authorization
        }
    }

    /// Removes the media token of `resource`.
    func removeAuthorization(requestor: String, resource: String) {
        updateRecord(of: requestor, urgent: false) { record in
            record.authorizations[resource] = nil
        }
    }

    // MARK: - Preauthorizations

    /// The cached preauthorization answers of `requestor`, by resource.
    func preauthorizations(requestor: String) -> [String: StoredPreauthorization] {
        stateLock.withLock { snapshot.requestors[requestor]?.preauthorizations ?? [:] }
    }

    /// Replaces the whole preauthorization cache of `requestor` (merge before calling to keep entries).
    func setPreauthorizations(requestor: String, _ preauthorizations: [String: StoredPreauthorization]) {
        updateRecord(of: requestor, urgent: false) { record in
            record.preauthorizations = preauthorizations
        }
    }

    // MARK: - Everything

    /// Removes every stored value except the device identifier.
    func clearAll() {
        stateLock.withLock {
            let change = changes.next()
            for record in snapshot.recordKeys { changes.changed(record, by: change) }
            snapshot = StorageSnapshot(identity: snapshot.identity)
            changes.wiped(by: change)
            changes.markUrgent()
        }
        changed()
    }

    /// Applies `change` to `requestor`'s record in memory; a change that changes nothing is none.
    private func updateRecord(of requestor: String, urgent isUrgent: Bool, _ change: (inout RequestorRecord) -> Void) {
        let isChange: Bool = stateLock.withLock {
            let before = snapshot.requestors[requestor]
            var record = before ?? RequestorRecord(requestor: requestor)
            change(&record)
            let after = record.isEmpty ? nil : record
            guard after != before else { return false }
            snapshot.requestors[requestor] = after
            let number = changes.next()
            changes.changed(.requestor(requestor), by: number)
            if isUrgent { changes.markUrgent() }
            return true
        }
        if isChange { changed() }
    }
}
