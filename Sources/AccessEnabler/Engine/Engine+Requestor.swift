import Foundation

extension EntitlementEngine {
    /// `setRequestor`: DCR (cached), configuration from every service provider concurrently,
    /// then the partner framework's silent checks. Delivers only `setRequestorComplete`
    /// (plus advanced statuses).
    func setRequestor(_ id: String, serviceProviders: [String]?) async {
        let trimmed = id.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            fail(requestor: StatusCatalog.status(.cfg400, message: "setRequestor needs a requestor id; an empty one was given."))
            return
        }
        let security = TransportSecurityPolicy(allowsInsecureHTTP: configuration.allowsInsecureHTTP)
        if let refusal = security.refusal(for: configuration.environment.baseURL, role: "The environment") {
            fail(requestor: StatusCatalog.status(.cfg400, message: refusal))
            return
        }
        var clients: [RESTClient] = [primaryClient]
        if let serviceProviders, !serviceProviders.isEmpty {
            var parsed: [RESTClient] = []
            for text in serviceProviders {
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                    fail(requestor: StatusCatalog.status(.cfg404, message: "setRequestor was given a service provider URL that is not an http(s) URL: \(text)"))
                    return
                }
                if let refusal = security.refusal(for: url, role: "The service provider URL") {
                    fail(requestor: StatusCatalog.status(.cfg404, message: refusal))
                    return
                }
                parsed.append(clientForBaseURL(url))
            }
            clients = parsed
        }
        // Apps call setRequestor again when they come back to the foreground; a login the
        // user is finishing in the web view for the same requestor survives that (the state
        // machine decides what ends, and delivers what the ended flow still owes).
        await perform(machine.requestorChanged(sameRequestor: requestorID == trimmed))
        requestorID = trimmed

        requestorClients = clients
        switch await loadCatalog(requestor: trimmed, from: clients) {
        case .failure(let error):
            fail(requestor: ErrorClassification.requestorStatus(error))
            return
        case .success(let merged):
            catalog = merged
            requestorState = .ready
            reportClockDifferenceIfNew()
        }

        if let signIn = partnerSignIn() {
            await reconcilePartnerSignIn(signIn)
        }
        emit(.setRequestorComplete(ACCESS_ENABLER_STATUS_SUCCESS))
    }

    private func fail(requestor status: AdvancedStatus) {
        requestorState = .failed(status)
        emitStatus(status)
        emit(.setRequestorComplete(ACCESS_ENABLER_STATUS_ERROR))
    }

    private func clientForBaseURL(_ url: URL) -> RESTClient {
        let key = url.absoluteString
        if let existing = clientsByBaseURL[key] { return existing }
        // Client credentials belong to the deployment that issued them: each service provider
        // keeps its own, across launches (its profiles are bound to that client).
        let client = EntitlementEngine.makeClient(
            baseURL: url, softwareStatement: softwareStatement, configuration: configuration,
            credentials: ServiceProviderCredentialsCache(store: store, baseURL: key), throttleGate: throttleGate,
            serverClock: serverClock)
        clientsByBaseURL[key] = client
        return client
    }

    /// The configuration of every service provider, merged; fails only when none answered.
    func loadCatalog(requestor: String, from clients: [RESTClient]) async -> Result<RequestorCatalog, RESTClientError> {
        let outcomes = await fetchConfigurations(requestor: requestor, from: clients)
        var sources: [RequestorCatalog.Source] = []
        var firstError: RESTClientError?
        for outcome in outcomes {
            switch outcome.result {
            case .success(let configuration): sources.append(RequestorCatalog.Source(client: outcome.client, configuration: configuration))
            case .failure(let error): if firstError == nil { firstError = error }
            }
        }
        if sources.isEmpty, let firstError { return .failure(firstError) }
        return .success(RequestorCatalog(requestor: requestor, merging: sources))
    }

    private struct ConfigurationOutcome: Sendable {
        let client: RESTClient
        let result: Result<ServiceConfiguration, RESTClientError>
    }

    /// Queries every service provider at once; results come back in the order they
    /// answered, so "first responder wins" per MVPD.
    private func fetchConfigurations(requestor: String, from clients: [RESTClient]) async -> [ConfigurationOutcome] {
        let context = context()
        // One service provider (the usual case) needs no task group: no child task, no hop.
        if clients.count == 1, let client = clients.first {
            do throws(RESTClientError) {
                return [ConfigurationOutcome(client: client, result: .success(try await client.configuration(serviceProvider: requestor, context: context)))]
            } catch {
                return [ConfigurationOutcome(client: client, result: .failure(error))]
            }
        }
        return await withTaskGroup(of: ConfigurationOutcome.self) { group in
            for client in clients {
                group.addTask {
                    do throws(RESTClientError) {
                        return ConfigurationOutcome(client: client, result: .success(try await client.configuration(serviceProvider: requestor, context: context)))
                    } catch {
                        return ConfigurationOutcome(client: client, result: .failure(error))
                    }
                }
            }
            var outcomes: [ConfigurationOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// The silent part of setRequestor with a partner framework: report a permission
    /// problem, drop an `appleSSO` profile whose system sign-in is gone, and exchange a
    /// system sign-in for an Adobe profile when no valid profile is stored.
    private func reconcilePartnerSignIn(_ signIn: PartnerSignIn) async {
        let snapshot = await signIn.snapshot()
        if let status = PartnerSignIn.permissionStatus(snapshot.access, errorID: .appl) {
            emitStatus(status)
            return
        }
        if let error = snapshot.metadataError {
            emitStatus(StatusCatalog.status(.appl, message: "The TV provider account service could not be read.", details: "\(error.code): \(error.message)"))
            return
        }
        guard let requestor = requestorID else { return }
        let stored = store.profile(requestor: requestor)
        if let stored, stored.type == .appleSSO,
           ProfileValidity.evaluate(stored, configuredMVPDs: mvpdsByID, partner: snapshot, now: adobeNow) == .partnerSignInGone {
            store.removeProfile(requestor: requestor)
        }
        if let current = store.profile(requestor: requestor),
           ProfileValidity.evaluate(current, configuredMVPDs: mvpdsByID, partner: snapshot, now: adobeNow) == .valid {
            return
        }
        guard let providerID = snapshot.signedInProvider(at: now),
              case .partnerExchange(let mvpd, _) = PickerOutcome.classify(providerID: providerID, mvpds: mvpds),
              let status = PartnerStatusValidation.validatedStatus(access: snapshot.access, account: snapshot.account, knownMappingIDs: knownMappingIDs, now: now)
        else { return }
        // Silent: any failure simply leaves the user unauthenticated.
        if case .authenticated(let profile, _) = await signIn.exchange(mvpd: mvpd, partnerStatus: status, interactive: false) {
            store.setProfile(profile)
        }
    }
}
