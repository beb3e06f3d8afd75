import Foundation
import Testing

@testable import AccessEnabler

/// The TempPass rule as pure decisions: which profile is in force, and what a sign-in does
/// to the stored ones. No storage involved.
@Suite struct DecisionProfileSelectionTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    func profile(_ mvpd: String, _ type: StoredProfileType = .regular, lasting seconds: TimeInterval = 86_400)
        -> StoredProfile
    {
        StoredProfile(
            requestor: "REF30", mvpd: mvpd, type: type, notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(seconds),
            attributes: [:], tokenSource: nil, partnerProviderID: nil, serviceProviderURL: nil)
    }

    @Test func aTempPassOverARegularSignInSetsItAsideAndItCountsAgainWhenTheTempPassEnds() {
        let regular = profile("Plain1")
        let tempPass = profile("TempPass", .temporary, lasting: 1_800)
        let change = ProfileSelection.signIn(tempPass, over: RequestorProfiles(chosen: regular), now: now)
        #expect(change.profiles == RequestorProfiles(chosen: tempPass, standby: regular))
        #expect(change.keepingMediaTokensOf == ["TempPass", "Plain1"])
        #expect(change.droppingPreauthorizations)
        #expect(ProfileSelection.current(change.profiles, now: now) == tempPass)
        #expect(ProfileSelection.current(change.profiles, now: now.addingTimeInterval(1_801)) == regular)
    }

    @Test func aRegularSignInReplacesWhatWasChosenAndEndsWhatWasSetAside() {
        let aside = RequestorProfiles(chosen: profile("TempPass", .temporary), standby: profile("Plain1"))
        let change = ProfileSelection.signIn(profile("Plain2"), over: aside, now: now)
        // Adobe Pass still holds the other two: not in force, but a logout ends them too.
        #expect(
            change.profiles
                == RequestorProfiles(
                    chosen: profile("Plain2"), standby: nil,
                    others: [profile("TempPass", .temporary), profile("Plain1")]))
        #expect(change.keepingMediaTokensOf == ["Plain2"])
    }

    @Test func anotherRegularSignInKeepsTheEarlierOneAmongTheOthersUntilItEnds() {
        let change = ProfileSelection.signIn(
            profile("Plain2"), over: RequestorProfiles(chosen: profile("Plain1")), now: now)
        #expect(change.profiles.others == [profile("Plain1")])
        // Signing in with Plain1 again takes it out of the others, and Plain2 joins them.
        let back = ProfileSelection.signIn(profile("Plain1", lasting: 50), over: change.profiles, now: now)
        #expect(back.profiles == RequestorProfiles(chosen: profile("Plain1", lasting: 50), others: [profile("Plain2")]))
        // An ended one is not kept.
        let ended = ProfileSelection.signIn(
            profile("Plain2"), over: RequestorProfiles(chosen: profile("Plain1", lasting: -1)), now: now)
        #expect(ended.profiles.others.isEmpty)
    }

    @Test func aNewSignInReplacesAPendingLogoutOfTheSameMVPD() {
        let pending = RequestorProfiles(pendingLogouts: [PendingLogout(mvpd: "Plain1"), PendingLogout(mvpd: "Plain2")])
        let change = ProfileSelection.signIn(profile("Plain1"), over: pending, now: now)
        #expect(change.profiles.pendingLogouts == [PendingLogout(mvpd: "Plain2")])
    }

    @Test func theSameMVPDAgainKeepsItsMediaTokensAndPreauthorizations() {
        let change = ProfileSelection.signIn(
            profile("Plain1", lasting: 100), over: RequestorProfiles(chosen: profile("Plain1")), now: now)
        #expect(change.profiles.chosen == profile("Plain1", lasting: 100))
        #expect(change.keepingMediaTokensOf == nil)
        #expect(!change.droppingPreauthorizations)
    }

    @Test func anExpiredRegularSignInIsNotSetAsideForATempPass() {
        let expired = profile("Plain1", lasting: -1)
        let change = ProfileSelection.signIn(
            profile("TempPass", .temporary), over: RequestorProfiles(chosen: expired), now: now)
        #expect(change.profiles.standby == nil)
        #expect(change.keepingMediaTokensOf == ["TempPass"])
    }

    @Test func anEndedTempPassWithNothingSetAsideStaysTheChosenOne() {
        let ended = profile("TempPass", .temporary, lasting: -1)
        #expect(ProfileSelection.current(RequestorProfiles(chosen: ended), now: now) == ended)
        #expect(ProfileSelection.current(.none, now: now) == nil)
        // A set-aside profile that ended too gives nothing back.
        let both = RequestorProfiles(chosen: ended, standby: profile("Plain1", lasting: -1))
        #expect(ProfileSelection.current(both, now: now) == ended)
    }
}
