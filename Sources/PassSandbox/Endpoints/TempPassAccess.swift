import Foundation

/// TempPass, basic and promotional, as the TempPass feature page and the REST API V2
/// temporary access flows describe it.
///
/// - **Basic**: the window (the MVPD's `authenticationTTL`) starts at the device's first
///   use and belongs to the device; once it is over the device cannot use that TempPass
///   again (until ``PassSandbox/resetTempPass(mvpd:deviceIdentifier:)``).
/// - **Promotional** (`tempPassResourceLimit` set): the same window, plus a budget of
///   distinct resources. A trial is found by the user identity of `AP-TempPass-Identity`
///   or by the device, so a known identity on a new device, or a new identity on a known
///   device, continues the existing trial; each distinct resource authorized spends one.
///
/// The temporary profile sits beside the device's other profiles (one per MVPD), so
/// TempPass never replaces a regular profile.
extension SandboxEngine {
    /// Where a device stands with a TempPass MVPD.
    enum TempPassStanding {
        /// Never used on this device (nor by this identity).
        case unused
        /// In its window: the temporary profile (and, when promotional, the trial).
        case active(StoredProfile, trialID: Int?)
        /// The window is over.
        case durationExceeded
    }

    /// The device's standing with `mvpd`, starting its TempPass now when `start` is set and
    /// it was never used. For a promotional MVPD `identity` (when known) finds or joins
    /// the trial. Stores the temporary profile while the window lasts.
    func tempPassStanding(
        owner: ProfileOwner, mvpd: SandboxMVPDConfig, identity: TempPassIdentity?, start: Bool, now: Date
    ) -> TempPassStanding {
        let windowStart: Date
        var trialID: Int?
        if mvpd.isPromotionalTempPass {
            guard
                let id = promotionalTrial(
                    device: owner.deviceID, serviceProvider: owner.serviceProvider, mvpd: mvpd.id,
                    identity: identity, create: start, now: now)
            else { return .unused }
            trialID = id
            windowStart = promotionalTrials[id]?.start ?? now
        } else {
            let key = TempPassKey(deviceID: owner.deviceID, serviceProvider: owner.serviceProvider, mvpd: mvpd.id)
            if let known = tempPassStarts[key] {
                windowStart = known
            } else {
                guard start else { return .unused }
                tempPassStarts[key] = now
                windowStart = now
            }
        }
        let windowEnd = windowStart.addingTimeInterval(TimeInterval(mvpd.authenticationTTL))
        guard now < windowEnd else {
            if profiles[owner]?[mvpd.id]?.kind == .temporary { profiles[owner]?[mvpd.id] = nil }
            return .durationExceeded
        }
        let profile = StoredProfile(
            mvpd: mvpd.id, kind: .temporary, notBefore: windowStart, notAfter: windowEnd,
            username: nil, userID: "temppass_" + Self.deviceDigest(owner.deviceID), householdID: nil, zip: nil)
        profiles[owner, default: [:]][mvpd.id] = profile
        return .active(profile, trialID: trialID)
    }

    /// The promotional trial of `identity` or, failing that, of `device`; a new one when
    /// neither has one and `create` is set. Whoever asked is linked to the trial found.
    func promotionalTrial(
        device: String, serviceProvider: String, mvpd: String, identity: TempPassIdentity?, create: Bool, now: Date
    ) -> Int? {
        let deviceKey = PromotionalTrialKey(holder: .device(device), serviceProvider: serviceProvider, mvpd: mvpd)
        let identityKey = identity.map {
            PromotionalTrialKey(holder: .identity($0.canonical), serviceProvider: serviceProvider, mvpd: mvpd)
        }
        let found = identityKey.flatMap { promotionalTrialHolders[$0] } ?? promotionalTrialHolders[deviceKey]
        let id: Int
        if let found {
            id = found
        } else {
            guard create else { return nil }
            id = nextPromotionalTrial
            nextPromotionalTrial += 1
            promotionalTrials[id] = PromotionalTrial(start: now)
        }
        promotionalTrialHolders[deviceKey] = id
        if let identityKey { promotionalTrialHolders[identityKey] = id }
        return id
    }

    /// Resources left in a promotional trial's budget.
    func remainingResources(trialID: Int, mvpd: SandboxMVPDConfig) -> Int {
        max(0, (mvpd.tempPassResourceLimit ?? 0) - (promotionalTrials[trialID]?.usedResources.count ?? 0))
    }

    /// Whether a promotional trial may be authorized for `resource`: always for a resource
    /// it already spent on; for a new one while the budget lasts, spending one when
    /// `consume` is set (authorization; preauthorization only looks).
    func promotionalAllows(_ resource: String, trialID: Int, mvpd: SandboxMVPDConfig, consume: Bool) -> Bool {
        guard var trial = promotionalTrials[trialID] else { return false }
        if trial.usedResources.contains(resource) { return true }
        guard trial.usedResources.count < mvpd.tempPassResourceLimit ?? 0 else { return false }
        if consume {
            trial.usedResources.append(resource)
            promotionalTrials[trialID] = trial
        }
        return true
    }

    /// The `remaining_resources` and `used_assets` a promotional temporary profile shows.
    func promotionalAttributes(trialID: Int?, mvpd: SandboxMVPDConfig) -> (remaining: Int, used: [String])? {
        guard let trialID, mvpd.isPromotionalTempPass else { return nil }
        return (remainingResources(trialID: trialID, mvpd: mvpd), promotionalTrials[trialID]?.usedResources ?? [])
    }

    /// The identity of a promotional TempPass request (`nil` for a basic TempPass), or
    /// `invalid_header_identity_for_temporary_access`.
    func tempPassIdentity(_ request: SandboxRequest, mvpd: SandboxMVPDConfig) -> Result<
        TempPassIdentity?, SandboxEnhancedError
    > {
        guard mvpd.isPromotionalTempPass else { return .success(nil) }
        return TempPassIdentity.parse(request.header(TempPassIdentity.headerName)).map { $0 }
    }

    /// Forgets TempPass use of `mvpd` (every TempPass MVPD when `nil`) by `deviceID`
    /// (every device when `nil`) for `serviceProvider` (every one when `nil`): Adobe's
    /// TempPass reset. Returns how many windows or trials were reset.
    func resetTempPass(mvpd: String?, deviceID: String?, serviceProvider: String? = nil) -> Int {
        var reset = 0
        for key in tempPassStarts.keys
        where (mvpd == nil || key.mvpd == mvpd) && (deviceID == nil || key.deviceID == deviceID)
            && (serviceProvider == nil || key.serviceProvider == serviceProvider)
        {
            tempPassStarts[key] = nil
            reset += 1
        }
        var trials = Set<Int>()
        for (key, id) in promotionalTrialHolders
        where (mvpd == nil || key.mvpd == mvpd) && (serviceProvider == nil || key.serviceProvider == serviceProvider) {
            switch (key.holder, deviceID) {
            case (.device, nil): trials.insert(id)
            case (.device(let holder), let device?) where holder == device: trials.insert(id)
            default: break
            }
        }
        promotionalTrialHolders = promotionalTrialHolders.filter { !trials.contains($0.value) }
        for id in trials { promotionalTrials[id] = nil }
        reset += trials.count
        for owner in profiles.keys
        where (deviceID == nil || owner.deviceID == deviceID)
            && (serviceProvider == nil || owner.serviceProvider == serviceProvider)
        {
            profiles[owner] = profiles[owner]?.filter { $0.value.kind != .temporary || (mvpd != nil && $0.key != mvpd) }
        }
        return reset
    }
}
