import AccessEnabler
import Foundation
import PassSandbox

/// One app of a running scenario: the top-level app `A`, or one of the scenario's `apps`.
/// Each has its own AccessEnabler, callback recorder, simulated device and identity tokens;
/// its storage directory is its own or another app's.
final class ScenarioApp: @unchecked Sendable {
    /// What an app runs with, once the keys it leaves out are taken from the scenario.
    struct Settings {
        var platform: AccessEnablerConfiguration.Platform
        var loginScreen: AccessEnablerConfiguration.LoginScreen?
        var providerChoice: Scenario.ProviderChoice
        var softwareStatement: String
        var device: Scenario.Device
        var options: [String: JSONValue]
        var serviceToken: Scenario.IdentityToken?
        var platformIdentity: Scenario.IdentityToken?
        var storage: Scenario.Storage

        /// The top-level app's settings.
        init(topLevelOf scenario: Scenario) {
            platform = scenario.platform
            loginScreen = scenario.loginScreen
            providerChoice = scenario.providerChoice
            softwareStatement = scenario.softwareStatement
            device = scenario.device
            options = scenario.options
            serviceToken = scenario.serviceToken
            platformIdentity = scenario.platformIdentity
            storage = .own
        }

        /// The settings of `app`: the scenario's, except what it sets (its identity tokens
        /// are none unless it names them).
        init(_ app: Scenario.App, in scenario: Scenario) {
            self.init(topLevelOf: scenario)
            if let value = app.platform { platform = value }
            if let value = app.loginScreen { loginScreen = value }
            if let value = app.providerChoice { providerChoice = value }
            if let value = app.softwareStatement { softwareStatement = value }
            if let value = app.device { device = value }
            if let value = app.options { options = value }
            serviceToken = app.serviceToken
            platformIdentity = app.platformIdentity
            storage = app.storage
        }
    }

    /// `A`, or the app's key in the scenario's `apps`.
    let name: String
    let settings: Settings
    /// Its storage directory (another app's when it shares that app's storage).
    let storage: URL
    /// `true` when ``storage`` was made for this app (and is removed with it).
    let ownsStorage: Bool
    /// Its callbacks, step markers and HTTP lines, in the run's one transcript.
    let recorder: CallbackRecorder
    /// Its simulated TV provider account, unless its device has none.
    let device: SimulatedPartnerFramework?
    /// The identity tokens it presents now.
    let tokens = PresentedIdentityTokens()
    /// The `setOptions` values so far, applied again at each relaunch.
    var options: [String: Any]
    /// The AccessEnabler under test (replaced by a `restart` of this app).
    var accessEnabler: AccessEnabler?

    init(
        name: String, settings: Settings, storage: URL, ownsStorage: Bool, recorder: CallbackRecorder,
        device: SimulatedPartnerFramework?
    ) {
        self.name = name
        self.settings = settings
        self.storage = storage
        self.ownsStorage = ownsStorage
        self.recorder = recorder
        self.device = device
        self.options = settings.options.mapValues { $0.foundationValue }
    }
}
