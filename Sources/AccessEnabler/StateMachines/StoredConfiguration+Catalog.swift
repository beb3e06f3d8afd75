import Foundation

extension StoredConfiguration {
    /// What the SDK stores of `cached`, fetched from `serviceProviders`.
    init(_ cached: CachedConfiguration, serviceProviders: [URL]) {
        let catalog = cached.catalog
        self.init(
            serviceProviders: serviceProviders.map(\.absoluteString), fetchedAt: cached.fetchedAt,
            providers: catalog.mvpds.compactMap { catalog.storedProvider($0.id) })
    }

    /// The configuration of `requestor` as the engine caches it, when it was fetched from
    /// `serviceProviders` (a configuration of other service providers is not theirs).
    func cached(requestor: String, serviceProviders: [URL]) -> CachedConfiguration? {
        guard self.serviceProviders == serviceProviders.map(\.absoluteString) else { return nil }
        return CachedConfiguration(
            catalog: RequestorCatalog(requestor: requestor, storedProviders: providers), fetchedAt: fetchedAt)
    }
}
