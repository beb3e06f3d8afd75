import Foundation

/// Everything an ``AccessEnabler`` needs besides its software statement. Every field has a
/// default, so `AccessEnablerConfiguration()` is a production iOS configuration.
public struct AccessEnablerConfiguration: Sendable {
    /// Which Adobe Pass deployment to talk to: the four servers of Adobe's published API
    /// descriptions of REST API V2 and Dynamic Client Registration, or any other base URL.
    ///
    /// Adobe's REST API V2 checklist asks for development and QA in the two non-production
    /// environments, Prequal-Production (``prequalProduction``) and Release-Staging
    /// (``staging``), before Release-Production (``production``).
    public enum Environment: Sendable, Equatable {
        /// Release-Production, `https://sp.auth.adobe.com`.
        case production
        /// Release-Staging, `https://sp.auth-staging.adobe.com`.
        case staging
        /// Prequal-Production, `https://sp-prequal.auth.adobe.com`.
        case prequalProduction
        /// Prequal-Staging, `https://sp-prequal.auth-staging.adobe.com`.
        case prequalStaging
        /// Any base URL under which `/api/v2` and `/o/client` live (a PassSandbox, a proxy).
        case custom(URL)

        /// The base URL of the deployment.
        public var baseURL: URL {
            switch self {
            case .production: URL(string: "https://sp.auth.adobe.com")!
            case .staging: URL(string: "https://sp.auth-staging.adobe.com")!
            case .prequalProduction: URL(string: "https://sp-prequal.auth.adobe.com")!
            case .prequalStaging: URL(string: "https://sp-prequal.auth-staging.adobe.com")!
            case .custom(let url): url
            }
        }
    }

    /// The legacy SDK flavour to behave as.
    public enum Platform: String, Sendable, Equatable {
        /// iOS/iPadOS: logout navigates to the MVPD logout page.
        case iOS
        /// tvOS: logout does not navigate.
        case tvOS
    }

    /// Where the person signs in with their MVPD.
    public enum LoginScreen: String, Sendable, Equatable {
        /// On this device: the SDK calls `navigateToUrl` with the MVPD login page and the app
        /// opens it in a web view, then hands the redirect to `handleExternalURL`.
        case thisDevice
        /// On another device (a phone or a computer): the SDK reports status `REGCODE` with a
        /// registration code, the app shows it, the person enters it on the second screen,
        /// and the SDK polls Adobe Pass until the sign-in is done. For TVs and set-top boxes,
        /// which have no browser.
        case secondScreen
    }

    /// The Adobe Pass deployment. Default: production.
    public var environment: Environment = .production
    /// The SDK flavour. Default: iOS — a phone or tablet flavour: a TV or set-top box sets
    /// ``Platform/tvOS``. Left at its default, the first `setRequestor` says so through
    /// ``diagnostics`` (``Diagnostic/defaultPlatform(message:)``) and standard error.
    public var platform: Platform {
        get { explicitPlatform ?? .iOS }
        set { explicitPlatform = newValue }
    }
    private var explicitPlatform: Platform?
    /// Whether ``platform`` was never set (the default applies).
    var platformLeftAtDefault: Bool { explicitPlatform == nil }
    /// Where the MVPD login happens. Default: ``LoginScreen/secondScreen`` when
    /// ``platform`` is tvOS (a TV has no browser), ``LoginScreen/thisDevice`` on iOS.
    public var loginScreen: LoginScreen {
        get { explicitLoginScreen ?? (platform == .tvOS ? .secondScreen : .thisDevice) }
        set { explicitLoginScreen = newValue }
    }
    private var explicitLoginScreen: LoginScreen?
    /// Where the person chooses the provider when ``loginScreen`` is
    /// ``LoginScreen/secondScreen``. Default: ``ProviderChoice/onDevice``.
    public var providerChoice: ProviderChoice = .onDevice
    /// Seconds between two polls for the profile of a second-screen sign-in (and after a
    /// login page reached the redirect URL). Default 5; values from 0 to 3 are raised to 3,
    /// the least REST API V2 allows. At most 60: a value above it, negative, infinite or not
    /// a number is refused by `setRequestor` (status CFG400 naming it).
    public var secondScreenPollInterval: TimeInterval = 5
    /// The most resources one preauthorization request asks about; more are asked in
    /// several requests, and their answers come together in the call's one callback. Default
    /// 5, the usual limit of an integration (Adobe's FAQ: "usually up to 5"); set it to your
    /// integrations' limit in the TVE Dashboard. `nil`: one request for any number. Whatever
    /// it is, a request Adobe Pass refuses as too many (`too_many_resources`) is split in
    /// halves — never the same list twice — and later requests keep the smaller size. Zero or
    /// less is refused by `setRequestor` (status CFG400).
    public var preauthorizationBatchSize: Int? = 5
    /// The `X-Device-Info` fields. `nil`: a description of this Linux device for ``platform``.
    public var deviceInfo: DeviceInfo?
    /// A stable identifier of this device that the application keeps itself (for example
    /// from its own device registry or a hardware serial). `nil`: the SDK creates one and
    /// stores it. When set, its SHA-256 (lowercase hex) is the device identifier, sent as
    /// `AP-Device-Identifier: fingerprint <Base64 of the hash>` and returned as
    /// `METADATA_DEVICE_ID`; the value itself never leaves the device. Changing it signs the
    /// user out: Adobe Pass keeps profiles per device identifier.
    public var deviceIdentifier: String?
    /// Where tokens, credentials and the device identifier are stored. Default:
    /// `$XDG_DATA_HOME/accessenabler` or `~/.local/share/accessenabler` (worked out once per
    /// process, when first read).
    public var storageDirectory: URL {
        get { chosenStorageDirectory ?? Self.defaultStorageDirectory }
        set { chosenStorageDirectory = newValue }
    }
    private var chosenStorageDirectory: URL?
    private static let defaultStorageDirectory = TokenStore.defaultDirectory()
    /// The device's TV provider account service. `nil`: no partner single sign-on; the
    /// regular flows only.
    public var partnerFramework: (any PartnerFramework)?
    /// The app's service token for single sign-on: a JWS its own identity service issued for
    /// the signed-in user, sent as `AD-Service-Token` on the requests whose Adobe Pass pages
    /// list that header (creating a session, the profiles requests, decisions, logout).
    /// Another app presenting a token of the same user (same issuer and subject) finds the
    /// sign-in at its next `setRequestor`, and a logout ends it for every app. `nil` (the
    /// default): no service token.
    ///
    /// Called before each request that carries the header, so a renewed token is used at
    /// once; keep it cheap (return the token your app caches). Returning `nil` sends no
    /// header for that request. A token that cannot be a header value — empty, or holding a
    /// control character such as CR, LF or NUL — is never sent and never dropped silently:
    /// the request is not made, and the call reports status N500 naming the header, then
    /// ends with its failure callback. The token never appears in diagnostics.
    public var serviceToken: (@Sendable () async -> String?)? = nil
    /// The device platform's identity for single sign-on: a JWS the platform issued for its
    /// user or device, sent as `Adobe-Subject-Token` on the same requests as
    /// ``serviceToken``, with the same rules (an empty one, or one with a control
    /// character, is N500 naming `Adobe-Subject-Token`). `nil` (the default): none.
    public var platformIdentity: (@Sendable () async -> String?)? = nil
    /// The queue delegate callbacks arrive on. It should be serial: callbacks are dispatched
    /// in order, and a concurrent queue would reorder them.
    public var callbackQueue: DispatchQueue = DispatchQueue(label: "accessenabler.callbacks")
    /// The URL the MVPD login and logout pages end on; the app hands it to `handleExternalURL`.
    public var redirectURL: String = "adobepass://ios.app"
    /// The domain name sent when creating authentication sessions.
    public var domainName: String = "adobe.com"
    /// How long one REST call may take before it fails with a timeout, in seconds, from
    /// 0.001 to 3,600 (another value is refused by `setRequestor`: status CFG400). It also
    /// bounds every throttling back-off: a call whose request would wait longer than this
    /// for Adobe Pass's `Retry-After` ends at once, throttled, with the time to retry.
    public var requestTimeout: TimeInterval = 30
    /// The most bytes of response body the SDK reads from Adobe Pass for one request.
    /// Default 4 MiB, far above any documented answer (a configuration with hundreds of
    /// MVPDs is tens of KiB). A longer body is not read past the limit and the call fails as
    /// for an answer that is not the documented JSON: setRequestor with status CFG500, an
    /// authentication with N500, an authorization with Z500. At least 1,024 (a smaller
    /// value is refused by `setRequestor`: status CFG400).
    public var maximumResponseBodySize = 4 * 1024 * 1024
    /// How long the partner framework may take to answer a question that involves the user
    /// (the permission prompt, the system picker, the MVPD login), in seconds. Past it the
    /// answer counts as a failed request (VSA503) and the regular flow takes over. Silent
    /// questions are bounded by ``requestTimeout``. From 0.001 to 86,400 (another value is
    /// refused by `setRequestor`: status CFG400).
    public var partnerInteractionTimeout: TimeInterval = 600
    /// Where the SDK reads the time (TTLs). Tests inject a ``ManualTimeSource``.
    public var clock: any TimeSource = SystemTimeSource()
    /// How the SDK waits on ``clock`` (poll intervals, throttling back-offs). `nil`: the
    /// clock itself when it is a ``Sleeper`` (a ``ManualTimeSource`` is), else real time
    /// (``SystemSleeper``).
    public var sleeper: (any Sleeper)?
    /// How requests reach Adobe Pass. Default: ``CurlTransport/shared`` (libcurl, one event
    /// thread for every request; where libcurl cannot be loaded it sends through
    /// ``URLSessionTransport`` and says so). ``URLSessionTransport/shared`` stays available.
    public var transport: any HTTPTransport = CurlTransport.shared
    /// Receives the SDK's diagnostics — every REST exchange (method, path, status,
    /// duration), every advanced status, storage problems and unimplemented callbacks —
    /// for the app's own logging. Secrets are never included. Called on the SDK's threads;
    /// keep it quick. `nil`: nothing is reported.
    public var diagnostics: (@Sendable (Diagnostic) -> Void)?
    /// The `User-Agent` sent with every request. Default: `AccessEnabler-Linux/` and the
    /// SDK's version (``AccessEnabler/getVersion()-swift.type.method``).
    public var userAgent: String = "AccessEnabler-Linux/\(SDKVersion.current)"
    /// Whether the SDK may talk plain `http://` to a host other than this machine. Default
    /// `false`: a ``Environment/custom(_:)`` environment or a `serviceProviders` URL with
    /// `http://` is refused at `setRequestor` (status CFG400 for the environment, CFG404 for
    /// a service provider URL) unless its host is loopback (`127.0.0.0/8`, `::1`,
    /// `localhost`). Set it only for a test rig on a trusted network: over plain HTTP the
    /// client secret, access tokens and media tokens cross the network in clear.
    public var allowsInsecureHTTP = false

    /// The sleeper the SDK uses: ``sleeper``, else the clock when it can wait, else real time.
    var effectiveSleeper: any Sleeper {
        if let sleeper { return sleeper }
        if let clock = clock as? any Sleeper { return clock }
        return SystemSleeper(clock: clock)
    }

    /// A production iOS configuration; change the fields you need.
    public init() {}

    /// A configuration with the most used fields set.
    public init(
        environment: Environment, platform: Platform? = nil, storageDirectory: URL? = nil,
        partnerFramework: (any PartnerFramework)? = nil, transport: (any HTTPTransport)? = nil,
        clock: (any TimeSource)? = nil, callbackQueue: DispatchQueue? = nil
    ) {
        self.environment = environment
        if let platform { self.platform = platform }
        if let storageDirectory { self.storageDirectory = storageDirectory }
        self.partnerFramework = partnerFramework
        if let transport { self.transport = transport }
        if let clock { self.clock = clock }
        if let callbackQueue { self.callbackQueue = callbackQueue }
    }
}
