import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// `accessenabler demo`: the Apple SSO cookbook, told end to end against an embedded
/// sandbox. One scenario, with a caption before the steps that open each chapter.
enum DemoScript {
    /// A chapter heading shown before the step at `index`.
    struct Caption: Sendable {
        /// The index of the step the caption introduces.
        public var beforeStep: Int
        /// The caption.
        public var text: String
    }

    /// The demo's scenario and its captions.
    static func make() -> (scenario: Scenario, captions: [Caption]) {
        var scenario = Scenario()
        scenario.platform = .iOS
        scenario.device.accessStatus = "granted"
        scenario.device.signedIn = Scenario.SignIn(provider: "AppleBoarded", user: "alice", expiresIn: 86_400)
        var steps: [Scenario.Step] = []
        var captions: [Caption] = []
        func chapter(_ text: String) { captions.append(Caption(beforeStep: steps.count, text: text)) }

        chapter("1. Alice is signed in to Apple Boarded TV at system level. setRequestor silently exchanges that sign-in for an Adobe profile: only setRequestorComplete arrives.")
        steps.append(.setRequestor("REF30", serviceProviders: nil))
        steps.append(.checkAuthentication)
        chapter("2. The profile came from partner single sign-on: tokenSource is \"Apple\". Authorization and preauthorization carry the partner status.")
        steps.append(.getMetadata(opCode: "userMeta", key: "tokenSource", resource: nil))
        steps.append(.checkAuthorization("news"))
        steps.append(.checkPreauthorizedResources(["news", "sports", "movies"], cache: true))
        steps.append(.checkPreauthorizedResources(["news", "sports", "movies"], cache: true))
        chapter("3. Logout of a partner SSO profile: VSA203 — the user must also sign out in Settings → TV Provider, or the next launch signs them in again.")
        steps.append(.logout)
        steps.append(.restart)
        steps.append(.setRequestor("REF30", serviceProviders: nil))
        steps.append(.checkAuthentication)
        chapter("4. Alice signs out in the system settings. The stored appleSSO profile goes at the next setRequestor.")
        steps.append(.device(.init(signedIn: .some(nil))))
        steps.append(.restart)
        steps.append(.setRequestor("REF30", serviceProviders: nil))
        steps.append(.checkAuthentication)
        chapter("5. The system picker and its fallbacks: Other TV Provider (N003), cancel (N005), an unsupported provider (N004), a failing account service (VSA503), permission denied (VSA403).")
        steps.append(.device(.init(picker: [.other])))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        steps.append(.setSelectedProvider(nil))
        steps.append(.device(.init(picker: [.cancel])))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        steps.append(.setSelectedProvider(nil))
        steps.append(.device(.init(picker: [.select(provider: "SSODisabled", user: "alice")])))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        steps.append(.setSelectedProvider(nil))
        steps.append(.device(.init(signedIn: .some(nil), failure: .some("serviceTemporarilyUnavailable"))))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        steps.append(.setSelectedProvider(nil))
        steps.append(.device(.init(accessStatus: "denied", failure: .some(nil))))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        chapter("6. Back in the regular flow: Alice picks a provider that is not boarded for SSO and logs in on its login page.")
        steps.append(.setSelectedProvider("NotBoarded"))
        steps.append(.login(username: "alice", password: "alice123"))
        steps.append(.checkAuthentication)
        steps.append(.getMetadata(opCode: "userMeta", key: "zip", resource: nil))
        steps.append(.checkAuthorization("news"))
        steps.append(.checkAuthorization("premium"))
        chapter("7. Logout of a regular profile on iOS: the MVPD logout page opens and comes back to the redirect URL.")
        steps.append(.logout)
        steps.append(.checkAuthentication)
        chapter("8. A provider shown in the picker but not boarded: the SDK calls setSelectedProvider itself and opens the login page — no status code.")
        steps.append(.device(.init(accessStatus: "granted", picker: [.select(provider: "PickerOnly", user: "alice")])))
        steps.append(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        steps.append(.login(username: "alice", password: "alice123"))
        steps.append(.getSelectedProvider)
        scenario.steps = steps
        return (scenario, captions)
    }
}
