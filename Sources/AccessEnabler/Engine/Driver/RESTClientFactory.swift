import Foundation

/// Makes an engine's REST clients (one per service provider) over one transport, assembled
/// here once: the configured transport (libcurl's by default) inside an
/// ``ObservedTransport`` (progress, the response size limit, diagnostics when the app asked
/// for them, Adobe's time from every answer's `Date`).
struct RESTClientFactory: Sendable {
    let softwareStatement: String
    /// The AccessEnabler's configuration, held once for the facade, the engine and the clients.
    let sharedConfiguration: Shared<AccessEnablerConfiguration>
    var configuration: AccessEnablerConfiguration { sharedConfiguration.value }
    /// Adobe's throttling, as seen by this AccessEnabler: shared by every client.
    let throttleGate: ThrottleGate
    /// The decorated transport every client sends through.
    let transport: any HTTPTransport
    /// What access tokens' lifetimes are timed on: the configuration's clock, steady across a
    /// jump of the device's date.
    let tokenClock: SteadyTimeSource

    init(
        softwareStatement: String, configuration sharedConfiguration: Shared<AccessEnablerConfiguration>,
        throttleGate: ThrottleGate, serverClock: ServerClock, activity: ActivityTracker
    ) {
        self.softwareStatement = softwareStatement
        self.sharedConfiguration = sharedConfiguration
        let configuration = sharedConfiguration.value
        self.throttleGate = throttleGate
        transport = ObservedTransport(
            inner: configuration.transport, activity: activity, limit: max(1, configuration.maximumResponseBodySize),
            diagnostics: configuration.diagnostics, clock: configuration.clock, serverClock: serverClock)
        tokenClock = SteadyTimeSource(configuration.clock)
    }

    /// The client of the service provider at `baseURL`, registered with `credentials`.
    func client(baseURL: URL, credentials: any ClientCredentialsCache) -> RESTClient {
        var client = RESTClient(
            baseURL: baseURL, softwareStatement: softwareStatement, transport: transport,
            timeout: configuration.requestTimeout, credentials: credentials, timeSource: tokenClock,
            userAgent: configuration.userAgent, throttleGate: throttleGate)
        client.singleSignOn = SingleSignOnTokenSource(
            serviceToken: configuration.serviceToken, platformIdentity: configuration.platformIdentity)
        return client
    }
}
