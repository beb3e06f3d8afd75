import Foundation
import Testing

@testable import AccessEnabler

/// What `GET profiles` makes of the stored profiles, as a pure decision.
@Suite struct DecisionProfileReconciliationTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    func profile(_ mvpd: String, _ type: StoredProfileType = .regular, lasting seconds: TimeInterval = 86_400)
        -> StoredProfile
    {
        StoredProfile(
            requestor: "REF30", mvpd: mvpd, type: type, notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(seconds),
            attributes: [:], tokenSource: nil, partnerProviderID: nil, serviceProviderURL: "https://sp.example")
    }

    @Test func aProfileAdobePassNoLongerListsIsDropped() {
        let change = ProfileReconciliation.reconcile(
            RequestorProfiles(chosen: profile("Plain1")), answered: [], now: now)
        #expect(change.profiles == .none)
        #expect(change.keepingMediaTokensOf == [])
        #expect(change.droppingPreauthorizations)
    }

    @Test func theProfileUsedLastStaysInForceAndTheOthersAreKept() {
        let stored = RequestorProfiles(chosen: profile("Plain1", lasting: 100))
        let answered = [profile("Plain2", lasting: 9_000), profile("Plain1", lasting: 100)]
        let change = ProfileReconciliation.reconcile(stored, answered: answered, now: now)
        #expect(
            change.profiles
                == RequestorProfiles(
                    chosen: profile("Plain1", lasting: 100), others: [profile("Plain2", lasting: 9_000)]))
        #expect(change.keepingMediaTokensOf == ["Plain1"])
        #expect(!change.droppingPreauthorizations)
    }

    @Test func withoutTheOneUsedLastTheLatestNotAfterWinsTempPassLast() {
        let answered = [
            profile("TempPass", .temporary, lasting: 90_000), profile("Plain1", lasting: 100),
            profile("Plain2", lasting: 200),
        ]
        let change = ProfileReconciliation.reconcile(.none, answered: answered, now: now)
        #expect(change.profiles.chosen == profile("Plain2", lasting: 200))
        #expect(change.profiles.others.map(\.mvpd) == ["TempPass", "Plain1"])
        let onlyTempPass = ProfileReconciliation.reconcile(.none, answered: [profile("TempPass", .temporary)], now: now)
        #expect(onlyTempPass.profiles.chosen?.mvpd == "TempPass")
    }

    @Test func anMVPDWithAPendingLogoutIsNeverAdopted() {
        let stored = RequestorProfiles(pendingLogouts: [PendingLogout(mvpd: "Plain1")])
        let change = ProfileReconciliation.reconcile(stored, answered: [profile("Plain1")], now: now)
        #expect(change.profiles == stored)
    }

    @Test func aTempPassInForceKeepsTheRegularProfileSetAside() {
        let stored = RequestorProfiles(
            chosen: profile("TempPass", .temporary, lasting: 1_800), standby: profile("Plain1"))
        let change = ProfileReconciliation.reconcile(
            stored, answered: [profile("Plain1"), profile("TempPass", .temporary, lasting: 1_800)], now: now)
        #expect(change.profiles == stored)
        #expect(change.keepingMediaTokensOf == ["TempPass", "Plain1"])
    }

    @Test func whatOnlyTheDeviceKnowsOfAProfileIsKept() {
        var partner = profile("AppleBoarded", .appleSSO)
        partner.tokenSource = "Apple"
        partner.partnerProviderID = "AppleBoarded"
        let fresh = profile("AppleBoarded", .appleSSO, lasting: 500)
        let change = ProfileReconciliation.reconcile(RequestorProfiles(chosen: partner), answered: [fresh], now: now)
        #expect(change.profiles.chosen?.tokenSource == "Apple")
        #expect(change.profiles.chosen?.partnerProviderID == "AppleBoarded")
        #expect(change.profiles.chosen?.notAfter == fresh.notAfter)
    }

    @Test func aPartnerProfileStaysSinceAdobePassShowsItOnlyWithThePartnerStatus() {
        let partner = profile("AppleBoarded", .appleSSO)
        let change = ProfileReconciliation.reconcile(RequestorProfiles(chosen: partner), answered: [], now: now)
        #expect(change.profiles == RequestorProfiles(chosen: partner))
        let ending = ProfileReconciliation.reconcile(
            RequestorProfiles(chosen: partner, pendingLogouts: [PendingLogout(mvpd: "AppleBoarded")]), answered: [],
            now: now)
        #expect(ending.profiles.chosen == nil)
    }
}
