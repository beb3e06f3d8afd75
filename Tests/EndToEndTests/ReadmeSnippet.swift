// swift-format-ignore-file
// README.md's "Using the SDK" sample, exactly as a reader pastes it into a file of an app
// that depends on AccessEnabler: `DocReferenceTests` checks that README's block is this
// file's code line for line, so the sample always compiles. swift-format leaves the file as
// it is, so it keeps the layout of README's block.

import AccessEnabler

/// Receives the SDK's answers: one at a time, in order, on the configuration's callback queue.
final class Entitlements: EntitlementDelegate, EntitlementStatus {
    func setRequestorComplete(_ status: Int32) {
        print(status == ACCESS_ENABLER_STATUS_SUCCESS ? "ready" : "the requestor could not be set up")
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        print(status == ACCESS_ENABLER_STATUS_SUCCESS ? "signed in" : "not signed in: \(code)")
    }

    func displayProviderDialog(_ mvpds: [MVPD]) {
        print("TV providers:", mvpds.map(\.displayName))          // the person picks one: setSelectedProvider(id)
    }

    func navigateToUrl(_ url: String) {
        print("open the login page:", url)                        // at its redirect URL: handleExternalURL(url)
    }

    func setToken(_ token: String, forResource resource: String) {
        print("media token for", resource)                        // for the player; never log the token itself
    }

    func status(_ status: AdvancedStatus) {
        print("status \(status.errorId): \(status.message ?? "")")   // N003, VSA403, REGCODE (details: the code), Z100, …
    }
}

/// Starts the SDK of a TV app and asks whether the person is signed in.
func startEntitlements(softwareStatement: String, entitlements: Entitlements) -> AccessEnabler {
    var configuration = AccessEnablerConfiguration()
    configuration.platform = .tvOS                                // no browser: the person signs in on a second screen
    let accessEnabler = AccessEnabler(softwareStatement: softwareStatement, configuration: configuration)
    accessEnabler.delegate = entitlements                         // held weakly: keep `entitlements` alive
    accessEnabler.statusDelegate = entitlements
    accessEnabler.setRequestor("REF30")
    accessEnabler.checkAuthentication()
    return accessEnabler
}
