import AccessEnabler
import Foundation
import PassSandbox
import Testing

/// One flow that makes the SDK deliver every callback of both protocols: launch, a failed
/// authentication check, the system picker ("Other TV Provider") falling back to the app's
/// provider dialog, a regular MVPD login page, authorization granted and denied,
/// preauthorization, metadata, the selected provider, logout through the MVPD logout page,
/// and a second login through a Safari View Controller MVPD after the picker is cancelled.
///
/// It drives the app's side from what the delegate logged (the provider ids shown, the page
/// to open), so it works only if the delegate really receives the callbacks. It returns the
/// callbacks of each step with page addresses replaced by `page`.
struct FullFlow {
    static let notAuthenticated = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"
    static let authenticated = "setAuthenticationStatus(1,)"
    static let pickerProviders = "AppleBoarded,PickerOnly,SSODisabled,Degraded"
    static let allProviders = "AppleBoarded,PickerOnly,NotBoarded,SSODisabled,Degraded,TempPass,SVCProvider"

    /// Every callback name of `EntitlementDelegate` and `EntitlementStatus`.
    static let everyCallback: Set<String> = [
        "setRequestorComplete", "setAuthenticationStatus", "displayProviderDialog", "navigateToUrl",
        "navigateToUrl:useSVC:", "presentTVProviderDialog", "dismissTVProviderDialog", "setToken",
        "tokenRequestFailed", "selectedProvider", "setMetadataStatus", "preauthorizedResources",
        "sendTrackingData", "status",
    ]

    /// The callbacks each step must produce, in order.
    static let expected: [(step: String, callbacks: [String])] = [
        ("setRequestor", ["setRequestorComplete(1)"]),
        ("checkAuthentication", ["status(N000,info)", "sendTrackingData(0,false)", notAuthenticated]),
        (
            "getAuthentication, picker: other",
            [
                "presentTVProviderDialog(\(pickerProviders))", "dismissTVProviderDialog(\(pickerProviders))",
                "status(N003,info)", "displayProviderDialog(\(allProviders))",
            ]
        ),
        ("setSelectedProvider(NotBoarded)", ["sendTrackingData(2,NotBoarded)", "navigateToUrl(page)"]),
        ("login, handleExternalURL", ["sendTrackingData(0,true)", authenticated]),
        ("checkAuthorization(news)", ["sendTrackingData(1,true)", "setToken(token,news)"]),
        (
            "checkAuthorization(sports)",
            [
                "status(Z100,error)", "sendTrackingData(1,false)",
                "tokenRequestFailed(sports,\(USER_NOT_AUTHORIZED_ERROR))",
            ]
        ),
        ("checkPreauthorizedResources", ["preauthorizedResources(news)"]),
        ("getMetadata(userID)", ["setMetadataStatus(3,false,userID=u-bob)"]),
        ("getSelectedProvider", ["selectedProvider(NotBoarded)"]),
        ("logout", ["navigateToUrl(page)"]),
        ("logout page, handleExternalURL", [notAuthenticated]),
        (
            "getAuthentication, picker: cancel",
            [
                "presentTVProviderDialog(\(pickerProviders))", "dismissTVProviderDialog(\(pickerProviders))",
                "status(N005,info)", "displayProviderDialog(\(allProviders))",
            ]
        ),
        (
            "setSelectedProvider(SVCProvider), handleSVC",
            ["sendTrackingData(2,SVCProvider)", "navigateToUrl:useSVC:(page,true)"]
        ),
        ("login in the Safari View Controller, handleExternalURL", ["sendTrackingData(0,true)", authenticated]),
    ]

    /// Runs the flow; returns each step's callbacks.
    static func run(delegate: EntitlementDelegate & EntitlementStatus, log: CallbackLog) async throws -> [(
        step: String, callbacks: [String]
    )] {
        let rig = try LegacyPortRig(picker: [.other, .cancel], delegate: delegate, statusDelegate: delegate)
        var steps: [(step: String, callbacks: [String])] = []
        func step(_ name: String, _ call: (AccessEnabler) -> Void) async {
            await rig.run(call)
            steps.append((name, log.takeStable()))
        }

        await step("setRequestor") { $0.setRequestor("REF30") }
        await step("checkAuthentication") { $0.checkAuthentication() }
        await step("getAuthentication, picker: other") { $0.getAuthentication() }
        await step("setSelectedProvider(NotBoarded)") { $0.setSelectedProvider("NotBoarded") }
        let login = try await rig.logIn(at: try #require(log.lastPage))
        await step("login, handleExternalURL") { $0.handleExternalURL(login) }
        await step("checkAuthorization(news)") { $0.checkAuthorization("news") }
        await step("checkAuthorization(sports)") { $0.checkAuthorization("sports") }
        await step("checkPreauthorizedResources") { $0.checkPreauthorizedResources(["news", "sports"]) }
        await step("getMetadata(userID)") {
            $0.getMetadata([METADATA_OPCODE_KEY: Int(METADATA_USER_META), METADATA_USER_META_KEY: "userID"])
        }
        await step("getSelectedProvider") { $0.getSelectedProvider() }
        await step("logout") { $0.logout() }
        let loggedOut = try await rig.followLogout(try #require(log.lastPage))
        await step("logout page, handleExternalURL") { $0.handleExternalURL(loggedOut) }
        rig.accessEnabler.setOptions(["handleSVC": true])
        await step("getAuthentication, picker: cancel") { $0.getAuthentication() }
        await step("setSelectedProvider(SVCProvider), handleSVC") { $0.setSelectedProvider("SVCProvider") }
        let svcLogin = try await rig.logIn(at: try #require(log.lastPage))
        await step("login in the Safari View Controller, handleExternalURL") { $0.handleExternalURL(svcLogin) }
        return steps
    }

    /// Checks `steps` against ``expected``, step by step.
    static func expectEveryStep(
        _ steps: [(step: String, callbacks: [String])], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(steps.map(\.step) == expected.map(\.step), sourceLocation: sourceLocation)
        for (actual, wanted) in zip(steps, expected) {
            #expect(actual.callbacks == wanted.callbacks, "\(actual.step)", sourceLocation: sourceLocation)
        }
    }
}
