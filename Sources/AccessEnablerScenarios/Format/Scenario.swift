import AccessEnabler
import Foundation
import PassSandbox

/// A scenario file (the format is in Docs/scenarios/README.md): a device, a world, the steps an application takes, and the
/// callbacks it expects.
public struct Scenario: Sendable {
    /// The simulated device's TV provider account at the start.
    public struct Device: Sendable, Equatable {
        /// The app's permission: `granted`, `denied`, `restricted`, `notDetermined` or `error`.
        public var accessStatus: String = "granted"
        /// What the user answers when prompted: `granted`, `denied` or `notDetermined`.
        public var promptAnswer: String = "granted"
        /// The system-level sign-in, if any.
        public var signedIn: SignIn?
        /// The picker's scripted answers, one per interactive request.
        public var picker: [PickerEntry] = []
        /// A `PartnerFrameworkError` case name every metadata request fails with, or `nil`.
        public var failure: String?
        /// `false` when the scenario has no partner framework at all (`"device": null`).
        public var present: Bool = true

        /// A granted device signed in nowhere, with an empty picker script.
        public init() {}
    }

    /// A system-level sign-in.
    public struct SignIn: Sendable, Equatable {
        /// The provider's mapping id.
        public var provider: String
        /// The user signed in.
        public var user: String
        /// Seconds from the start of the scenario (or from the `device` step) until it expires.
        public var expiresIn: TimeInterval

        /// A sign-in to `provider` (a mapping id) as `user`, ending `expiresIn` seconds from now.
        public init(provider: String, user: String, expiresIn: TimeInterval = 86_400) {
            self.provider = provider
            self.user = user
            self.expiresIn = expiresIn
        }
    }

    /// One scripted answer of the system picker.
    public enum PickerEntry: Sendable, Equatable {
        case select(provider: String, user: String)
        case other
        case cancel
    }

    /// A change to the device between steps; only the keys given change.
    public struct DeviceChange: Sendable, Equatable {
        /// A new permission, or `nil` to keep it.
        public var accessStatus: String?
        /// A new prompt answer, or `nil` to keep it.
        public var promptAnswer: String?
        /// `.some(signIn)` signs in, `.some(nil)` signs out, `nil` keeps the sign-in.
        public var signedIn: SignIn??
        /// A new picker script, or `nil` to keep it.
        public var picker: [PickerEntry]?
        /// `.some(name)` makes metadata requests fail, `.some(nil)` heals them, `nil` keeps it.
        public var failure: String??

        /// A change of the keys given; `signedIn: .some(nil)` signs out, `failure: .some(nil)` clears it.
        public init(
            accessStatus: String? = nil, promptAnswer: String? = nil, signedIn: SignIn?? = nil,
            picker: [PickerEntry]? = nil, failure: String?? = nil
        ) {
            self.accessStatus = accessStatus
            self.promptAnswer = promptAnswer
            self.signedIn = signedIn
            self.picker = picker
            self.failure = failure
        }
    }

    /// One step.
    public enum Step: Sendable, Equatable {
        case setRequestor(String, serviceProviders: [String]?)
        case checkAuthentication
        case getAuthentication(forceAuthn: Bool, filter: [String], featured: [String])
        case setSelectedProvider(String?)
        /// The person signs in: on the page of the last `navigateToUrl`, or on the
        /// second screen with the last `REGCODE`, choosing `mvpd` on the `/activate` page
        /// when the session was opened without one.
        case login(username: String, password: String, mvpd: String? = nil)
        case handleExternalURL(String)
        case checkAuthorization(String)
        case getAuthorization(String)
        case checkPreauthorizedResources([String], cache: Bool)
        /// The Preauthorize API with the features to disable (`LOCAL_CACHE`, `REMOTE_CACHE`).
        case preauthorize(resources: [String], disable: [String])
        case getMetadata(opCode: String, key: String?, resource: String?)
        case getSelectedProvider
        case logout
        /// The person opens, on their phone, every MVPD logout page the app was given as a
        /// `LOGOUT_PAGE` status since the last `logout` step (a tvOS box shows them; nothing
        /// opens them on the device): the simulated user agent loads each one.
        case openLogoutPages
        /// Reads ``AccessEnabler/profiles`` (no request) and writes them as one transcript line.
        case profiles
        /// ``AccessEnabler/selectProfile(mvpd:)``, and a transcript line with its answer.
        case selectProfile(String)
        case device(DeviceChange)
        case world(mvpd: String, set: [String: JSONValue])
        case advanceClock(TimeInterval)
        /// The device's wall clock is set `seconds` away (negative: back) while real time — the
        /// sandbox's, and the device's monotonic clock — does not move.
        case jumpDeviceClock(TimeInterval)
        /// Adobe's throttling in the sandbox from now on (`nil`: off).
        case throttle(SandboxThrottle?)
        /// Adobe Pass invalidates the device's profiles (of one MVPD, or all).
        case invalidateProfiles(mvpd: String?)
        /// Adobe Pass gives the device a new TempPass window (of one MVPD, or all).
        case resetTempPass(mvpd: String?)
        case restart
        case setOptions([String: JSONValue])
        /// The sandbox endpoint misbehaves as the fault says from now on
        /// (`PassSandbox.inject(_:into:)`): the file's `fault` step carries every effect of
        /// ``SandboxFault`` (one member for each, in `ScenarioParser.faultMembers`).
        case fault(endpoint: SandboxEndpoint, SandboxFault)
        case clearFaults
        /// The app's service token from now on (`nil`: it presents none).
        case serviceToken(IdentityToken?)
        /// The app's platform identity from now on (`nil`: it presents none).
        case platformIdentity(IdentityToken?)
        /// Adobe Pass deletes the MVPD's profiles of every device (a single logout from elsewhere).
        case serverLogout(mvpd: String)

        /// The step as a person reads it: the facade call with its arguments, or what changed.
        public var summary: String {
            func quoted(_ s: String) -> String { "\"\(s)\"" }
            switch self {
            case .setRequestor(let id, let providers):
                return providers.map { "setRequestor(\(quoted(id)), serviceProviders: \($0))" }
                    ?? "setRequestor(\(quoted(id)))"
            case .checkAuthentication: return "checkAuthentication()"
            case .getAuthentication(let force, let filter, let featured):
                var arguments: [String] = []
                if force { arguments.append("forceAuthn: true") }
                if !filter.isEmpty { arguments.append("filter: \(filter)") }
                if !featured.isEmpty { arguments.append("featured: \(featured)") }
                return "getAuthentication(\(arguments.joined(separator: ", ")))"
            case .setSelectedProvider(let id): return "setSelectedProvider(\(id.map(quoted) ?? "nil"))"
            case .login(let username, _, nil):
                return
                    "the user signs in as \(username): on the MVPD page, or on a second screen with the registration code"
            case .login(let username, _, let mvpd?):
                return
                    "the user signs in as \(username): on the MVPD page, or on a second screen with the registration code, choosing \(mvpd)"
            case .handleExternalURL(let url): return "handleExternalURL(\(quoted(url)))"
            case .checkAuthorization(let resource): return "checkAuthorization(\(quoted(resource)))"
            case .getAuthorization(let resource): return "getAuthorization(\(quoted(resource)))"
            case .checkPreauthorizedResources(let resources, let cache):
                return cache
                    ? "checkPreauthorizedResources(\(resources))"
                    : "checkPreauthorizedResources(\(resources), cache: false)"
            case .preauthorize(let resources, let disable):
                return
                    "preauthorize(\(resources)\(disable.isEmpty ? "" : ", disabling \(disable.joined(separator: ", "))"))"
            case .getMetadata(let opCode, let key, let resource):
                return
                    "getMetadata(\(opCode)\(key.map { ", \(quoted($0))" } ?? "")\(resource.map { ", resource: \(quoted($0))" } ?? ""))"
            case .getSelectedProvider: return "getSelectedProvider()"
            case .logout: return "logout()"
            case .openLogoutPages: return "the person opens the logout pages the app showed, on a phone"
            case .profiles: return "the app reads its profiles"
            case .selectProfile(let mvpd): return "selectProfile(mvpd: \(quoted(mvpd)))"
            case .device(let change):
                var parts: [String] = []
                if let v = change.accessStatus { parts.append("permission \(v)") }
                if let v = change.promptAnswer { parts.append("prompt answer \(v)") }
                if let v = change.signedIn {
                    parts.append(v.map { "signed in to \($0.provider) as \($0.user)" } ?? "signed out at system level")
                }
                if let v = change.picker {
                    let entries = v.map { entry -> String in
                        switch entry {
                        case .select(let provider, _): provider
                        case .other: "Other TV Provider"
                        case .cancel: "cancel"
                        }
                    }
                    parts.append("picker will answer \(entries.joined(separator: ", "))")
                }
                if let v = change.failure {
                    parts.append(v.map { "account service fails with \($0)" } ?? "account service healthy")
                }
                return "device: " + parts.joined(separator: "; ")
            case .world(let mvpd, let changes):
                return "dashboard: \(mvpd) "
                    + changes.keys.sorted().map { "\($0) = \(changes[$0]!.compactText)" }.joined(separator: ", ")
            case .advanceClock(let seconds):
                return "time passes: \(Int(exactly: seconds.rounded()).map(String.init) ?? String(seconds)) s"
            case .throttle(let throttle):
                return throttle.map {
                    "Adobe Pass throttles: \($0.requestsPerSecond) request/s after a burst of \($0.burst)"
                } ?? "Adobe Pass stops throttling"
            case .invalidateProfiles(let mvpd):
                return "Adobe Pass invalidates the device's \(mvpd.map { "\($0) " } ?? "")profiles"
            case .resetTempPass(let mvpd):
                return "Adobe Pass resets the device's \(mvpd.map { "\($0) " } ?? "")TempPass"
            case .restart: return "the app is relaunched (new AccessEnabler over the same storage)"
            case .jumpDeviceClock(let seconds):
                let whole = Int(exactly: abs(seconds).rounded()).map(String.init) ?? String(abs(seconds))
                return "the device's date is set \(seconds < 0 ? "back" : "ahead") \(whole) s"
            case .setOptions(let options): return "setOptions(\(options.keys.sorted().joined(separator: ", ")))"
            case .fault(let endpoint, _): return "fault injected on \(endpoint.rawValue)"
            case .clearFaults: return "faults cleared"
            case .serviceToken(let token):
                return token.map {
                    "the app presents a service token for \($0.subject)\($0.issuer.map { " from \($0)" } ?? "")"
                } ?? "the app presents no service token"
            case .platformIdentity(let token):
                return token.map {
                    "the app presents a platform identity for \($0.subject)\($0.issuer.map { " from \($0)" } ?? "")"
                } ?? "the app presents no platform identity"
            case .serverLogout(let mvpd):
                return "Adobe Pass ends every \(mvpd) sign-in on every device (a single logout from elsewhere)"
            }
        }

        /// The step's key, as the transcript's marker names it.
        public var name: String {
            switch self {
            case .setRequestor: "setRequestor"
            case .checkAuthentication: "checkAuthentication"
            case .getAuthentication: "getAuthentication"
            case .setSelectedProvider: "setSelectedProvider"
            case .login: "login"
            case .handleExternalURL: "handleExternalURL"
            case .checkAuthorization: "checkAuthorization"
            case .getAuthorization: "getAuthorization"
            case .checkPreauthorizedResources: "checkPreauthorizedResources"
            case .preauthorize: "preauthorize"
            case .getMetadata: "getMetadata"
            case .getSelectedProvider: "getSelectedProvider"
            case .logout: "logout"
            case .openLogoutPages: "openLogoutPages"
            case .profiles: "profiles"
            case .selectProfile: "selectProfile"
            case .device: "device"
            case .world: "world"
            case .advanceClock: "advanceClock"
            case .jumpDeviceClock: "jumpDeviceClock"
            case .throttle: "throttle"
            case .invalidateProfiles: "invalidateProfiles"
            case .resetTempPass: "resetTempPass"
            case .restart: "restart"
            case .setOptions: "setOptions"
            case .fault: "fault"
            case .clearFaults: "clearFaults"
            case .serviceToken: "serviceToken"
            case .platformIdentity: "platformIdentity"
            case .serverLogout: "serverLogout"
            }
        }
    }

    /// A JSON Web Signature an app presents for single sign-on (`{"sub": …, "issuer"?: …}`):
    /// the runner has the sandbox sign it for ``subject``, valid until 24 hours after the
    /// scenario's start.
    public struct IdentityToken: Sendable, Equatable {
        /// The `sub` claim: the person's account at the identity service.
        public var subject: String
        /// The identity service that signs it; `nil`: the world's default one
        /// (`sandbox-identity` for a service token, `sandbox-platform` for a platform identity).
        public var issuer: String?

        /// A token for `subject` from `issuer` (`nil`: the default identity service).
        public init(subject: String, issuer: String? = nil) {
            self.subject = subject
            self.issuer = issuer
        }
    }

    /// Where the person chooses the provider when the login happens on a second screen.
    ///
    /// The same cases as the SDK's own choice; the runner hands it to the app's configuration.
    public enum ProviderChoice: String, Sendable, Equatable, CaseIterable {
        /// The app's provider list (or the partner picker) on the device.
        case onDevice
        /// The `/activate` page on the second screen.
        case onSecondScreen
    }

    /// Where an app other than `A` keeps its storage.
    public enum Storage: Sendable, Equatable {
        /// A directory of its own: another device, as Adobe Pass sees it.
        case own
        /// The directory of the app with this name: the same device and storage.
        case sharedWith(String)
    }

    /// An app beside the top-level one (named `A`): another AccessEnabler in the same run.
    /// A key left `nil` takes the top-level scenario's value; the identity tokens are the
    /// exception: `nil` means the app presents none.
    public struct App: Sendable, Equatable {
        /// The SDK flavour; `nil`: the scenario's.
        public var platform: AccessEnablerConfiguration.Platform?
        /// Where the MVPD login happens; `nil`: the scenario's.
        public var loginScreen: AccessEnablerConfiguration.LoginScreen?
        /// Where the provider is chosen on a second screen; `nil`: the scenario's.
        public var providerChoice: ProviderChoice?
        /// The software statement it registers with; `nil`: the scenario's.
        public var softwareStatement: String?
        /// Its simulated TV provider account at the start (a device of its own, set up as
        /// this says); `nil`: set up as the scenario's `device`.
        public var device: Device?
        /// Its `setOptions` values before the first step; `nil`: the scenario's.
        public var options: [String: JSONValue]?
        /// The service token it presents from the start; `nil`: none.
        public var serviceToken: IdentityToken?
        /// The platform identity it presents from the start; `nil`: none.
        public var platformIdentity: IdentityToken?
        /// Its storage directory.
        public var storage: Storage = .own

        /// An app that takes every setting from the scenario and has storage of its own.
        public init() {}
    }

    /// The name of the top-level app.
    public static let topLevelApp = "A"

    /// The SDK flavour.
    public var platform: AccessEnablerConfiguration.Platform = .tvOS
    /// Where the MVPD login happens; `nil`: the platform's default (tvOS: a second screen,
    /// iOS: this device).
    public var loginScreen: AccessEnablerConfiguration.LoginScreen?
    /// The sandbox's world.
    public var world: SandboxWorld = .default
    /// The software statement the SDK registers with.
    public var softwareStatement: String = "STATEMENT"
    /// The simulated device at the start.
    public var device = Device()
    /// `setOptions` values applied before the first step.
    public var options: [String: JSONValue] = [:]
    /// Where the person chooses the provider when the login happens on a second screen.
    public var providerChoice: ProviderChoice = .onDevice
    /// The service token app `A` presents from the start; `nil`: none.
    public var serviceToken: IdentityToken?
    /// The platform identity app `A` presents from the start; `nil`: none.
    public var platformIdentity: IdentityToken?
    /// The apps beside `A`, by name.
    public var apps: [String: App] = [:]
    /// The steps, run in order, each to quiescence.
    public var steps: [Step] = []
    /// The app each step acts for, by step index, for the steps that name one other than
    /// `A` (see ``app(ofStep:)``).
    public var stepApps: [Int: String] = [:]
    /// Transcript lines that must appear, in this order.
    public var expect: [[String: JSONValue]] = []

    /// Creates an empty scenario (default world, tvOS, a granted device signed in nowhere).
    public init() {}

    /// The name of the app step `index` acts for: `A` unless the step names another.
    public func app(ofStep index: Int) -> String { stepApps[index] ?? Self.topLevelApp }

    /// Every app's name: `A` first, then the others in alphabetical order.
    public var appNames: [String] { [Self.topLevelApp] + apps.keys.sorted() }
}
