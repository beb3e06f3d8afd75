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
            deviceIdentity: store.deviceIdentity, deviceInfo: optionDeviceInfo ?? defaultDeviceInfo,
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

    /// Queries every service provider at once; results come back in the order they answered.
    private static func fetchConfigurations(
        requestor: String, from clients: [RESTClient], context: RequestContext
    ) async -> [(RESTClient, Result<ServiceConfiguration, RESTClientError>)] {
        @Sendable func fetch(_ client: RESTClient) async -> (RESTClient, Result<ServiceConfiguration, RESTClientError>)
        {
            do throws(RESTClientError) {
                return (client, .success(try await client.configuration(serviceProvider: requestor, context: context)))
            } catch {
                return (client, .failure(error))
            }
        }
        // One service provider (the usual case) needs no task group.
        if clients.count == 1, let client = clients.first { return [await fetch(client)] }
        return await withTaskGroup(of: (RESTClient, Result<ServiceConfiguration, RESTClientError>).self) { group in
            for client in clients { group.addTask { await fetch(client) } }
            var outcomes: [(RESTClient, Result<ServiceConfiguration, RESTClientError>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// The legacy `device_info` option laid over `fallback` (``DeviceInfoOption``); `nil`
    /// when it cannot be read (the facade reported it when the app set it).
    static func deviceInfo(_ option: String, over fallback: DeviceInfo) -> DeviceInfo? {
        try? DeviceInfoOption.read(option, over: fallback).get()
    }
}
