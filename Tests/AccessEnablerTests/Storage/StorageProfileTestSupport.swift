import Foundation

@testable import AccessEnabler

extension TokenStore {
    /// Stores `profile` as a sign-in does (``ProfileSelection/signIn(_:over:now:)``): the
    /// storage tests' shorthand, now that the store itself only stores.
    func setProfile(_ profile: StoredProfile, now: Date = StorageScratch.start) {
        apply(
            ProfileSelection.signIn(profile, over: profiles(requestor: profile.requestor), now: now),
            requestor: profile.requestor)
    }

    /// The MVPD of the profile chosen last for `requestor`.
    func selectedMVPD(requestor: String) -> String? {
        profile(requestor: requestor)?.mvpd
    }
}
