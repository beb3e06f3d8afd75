import Foundation

extension EntitlementEngine {
    /// The REST client at `url` (created once per base URL). Client credentials belong to
    /// the deployment that issued them: each service provider keeps its own, across
    /// launches (its profiles are bound to that client).
    func client(atBaseURL url: URL) -> RESTClient {
        let key = url.absoluteString
        if let existing = clientsByBaseURL[key] { return existing }
        let client = clientFactory.client(
            baseURL: url, credentials: ServiceProviderCredentialsCache(store: store, baseURL: key))
        clientsByBaseURL[key] = client
        return client
    }

    /// The client a request goes to: its service provider's, else the configured environment's.
    func client(for target: RESTTarget) -> RESTClient {
        target.serviceProvider.map(client(atBaseURL:)) ?? primaryClient
    }

    /// The request context every REST call carries: device identity, device information,
    /// options, and what the target adds (the partner status, the TempPass identity).
    func context(for target: RESTTarget? = nil) -> RequestContext {
        var context = RequestContext(
            deviceIdentity: store.deviceIdentity, deviceInfo: (optionDeviceInfo ?? defaultDeviceInfo).value,
            visitorID: options.visitorID,
            userAgent: configuration.userAgent, partnerStatus: target?.partnerStatus,
            applicationProfile: options.applicationProfile)
        if target?.tempPassIdentity == true { context.tempPassIdentity = tempPassIdentity }
        return context
    }

    /// The partner side of authentication for `catalog`, when a partner framework is configured.
    func partnerSignIn(_ catalog: RequestorCatalog) -> PartnerSignIn? {
        guard let partner = configuration.partnerFramework else { return nil }
        let (clients, primary) = (clientsByBaseURL, primaryClient)
        return PartnerSignIn(
            partner: partner, catalog: catalog,
            client: { mvpd in catalog.serviceProviderForMVPD[mvpd].flatMap { clients[$0.absoluteString] } ?? primary },
            context: context(), domainName: configuration.domainName, redirectURL: configuration.redirectURL,
            interactionTimeout: configuration.partnerInteractionTimeout, silentTimeout: configuration.requestTimeout,
            clock: configuration.clock)
    }

    /// The configuration of every service provider, merged in the order they answered
    /// ("first responder wins" per MVPD); fails only when none answered.
    static func loadCatalog(requestor: String, from clients: [RESTClient], context: RequestContext) async -> Result<
        RequestorCatalog, RESTClientError
    > {
        let outcomes = await fetchConfigurations(requestor: requestor, from: clients, context: context)
        var sources: [RequestorCatalog.Source] = []
        var firstError: RESTClientError?
        for (client, result) in outcomes {
            switch result {
            case .success(let configuration):
                sources.append(RequestorCatalog.Source(serviceProvider: client.baseURL, configuration: configuration))
            case .failure(let error): if firstError == nil { firstError = error }
            }
        }
        if sources.isEmpty, let firstError { return .failure(firstError) }
        return .success(RequestorCatalog(requestor: requestor, merging: sources))
    }

    /// Queries every service provider at once; results come back in the order their answers
    /// arrived (a failure after every answer). Ranked by arrival, not by when each child task
    /// finished reading its answer: on a busy machine a later answer can be decoded first.
    private static func fetchConfigurations(
        requestor: String, from clients: [RESTClient], context: RequestContext
    ) async -> [(RESTClient, Result<ServiceConfiguration, RESTClientError>)] {
        typealias Outcome = (RESTClient, Result<ServiceConfiguration, RESTClientError>, ContinuousClock.Instant?)
        @Sendable func fetch(_ client: RESTClient) async -> Outcome {
            do throws(RESTClientError) {
                let answer = try await client.configurationAnswer(serviceProvider: requestor, context: context)
                return (client, .success(answer.configuration), answer.arrival)
            } catch {
                return (client, .failure(error), nil)
            }
        }
        // One service provider (the usual case) needs no task group.
        if clients.count == 1, let client = clients.first {
            let (client, result, _) = await fetch(client)
            return [(client, result)]
        }
        return await withTaskGroup(of: Outcome.self) { group in
            for client in clients { group.addTask { await fetch(client) } }
            var outcomes: [Outcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return Self.byArrival(outcomes).map { ($0.0, $0.1) }
        }
    }

    /// `outcomes` (in the order their tasks finished) ranked by when their answers arrived;
    /// those with no arrival keep their order, after the others.
    static func byArrival<Source, Value>(_ outcomes: [(Source, Value, ContinuousClock.Instant?)]) -> [(
        Source, Value, ContinuousClock.Instant?
    )] {
        outcomes.enumerated().sorted { left, right in
            switch (left.element.2, right.element.2) {
            case (let l?, let r?) where l != r: l < r
            case (.some, nil): true
            case (nil, .some): false
            default: left.offset < right.offset
            }
        }.map(\.element)
    }

    /// The legacy `device_info` option laid over `fallback` (``DeviceInfoOption``); `nil`
    /// when it cannot be read (the facade reported it when the app set it).
    static func deviceInfo(_ option: String, over fallback: DeviceInfo) -> DeviceInfo? {
        try? DeviceInfoOption.read(option, over: fallback).get()
    }
}
