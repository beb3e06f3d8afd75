import Foundation

/// What `setRequestor` learned about the requestor, as one immutable value: its MVPDs in
/// configuration order, which service provider serves each, and the partner mapping ids.
/// Built by a pure merge of the configurations; replaced whole, never edited, so any
/// reader (a flow, a child task, a synchronous check) sees a consistent picture.
struct RequestorCatalog: Sendable, Equatable {
    /// The requestor id.
    let requestor: String
    /// The MVPDs in configuration order (merged across service providers).
    let mvpds: [MVPD]
    let mvpdsByID: [String: MVPD]
    /// The base URL of the service provider each MVPD came from.
    let serviceProviderForMVPD: [String: URL]
    /// MVPD ids whose login needs a Safari View Controller (`requiresSVC` in configuration).
    let svcMVPDs: Set<String>
    /// The partner mapping ids the configuration knows.
    let knownMappingIDs: Set<String>
    /// The same ids in a stable order, for partner metadata requests.
    let sortedMappingIDs: [String]
    /// Whether at least one MVPD has platform services (partner single sign-on).
    let hasPlatformServices: Bool

    /// One service provider's configuration answer.
    struct Source: Sendable {
        /// The service provider's base URL.
        let serviceProvider: URL
        let configuration: ServiceConfiguration
    }

    /// Merges configurations in the order they answered: the first to name an MVPD wins
    /// it, and later calls for that MVPD go to the service provider it came from.
    init(requestor: String, merging sources: [Source]) {
        var merged: [MVPD] = []
        var byID: [String: MVPD] = [:]
        var origin: [String: URL] = [:]
        var svc: Set<String> = []
        for source in sources {
            for configured in source.configuration.mvpds where byID[configured.id] == nil {
                let mvpd = configured.facadeMVPD
                merged.append(mvpd)
                byID[mvpd.id] = mvpd
                origin[mvpd.id] = source.serviceProvider
                if configured.requiresSVC == true { svc.insert(mvpd.id) }
            }
        }
        self.requestor = requestor
        mvpds = merged
        mvpdsByID = byID
        serviceProviderForMVPD = origin
        svcMVPDs = svc
        knownMappingIDs = Set(merged.compactMap(\.platformMappingId))
        sortedMappingIDs = knownMappingIDs.sorted()
        hasPlatformServices = merged.contains { $0.enablePlatformServices }
    }

    /// A catalog of only the providers this device remembers (stored with its profiles),
    /// for what needs no full configuration: asking the partner framework about a sign-in it
    /// made, sending a request to the service provider that serves an MVPD. Not the
    /// requestor's list of MVPDs: the configuration is (``init(requestor:merging:)``).
    init(requestor: String, storedProviders: [StoredProvider]) {
        var seen: Set<String> = []
        let providers = storedProviders.filter { seen.insert($0.id).inserted }
        self.requestor = requestor
        mvpds = providers.map(\.facadeMVPD)
        mvpdsByID = Dictionary(uniqueKeysWithValues: mvpds.map { ($0.id, $0) })
        serviceProviderForMVPD = Dictionary(
            uniqueKeysWithValues: providers.compactMap { provider in
                provider.serviceProviderURL.flatMap(URL.init(string:)).map { (provider.id, $0) }
            })
        svcMVPDs = Set(providers.filter(\.requiresSVC).map(\.id))
        knownMappingIDs = Set(mvpds.compactMap(\.platformMappingId))
        sortedMappingIDs = knownMappingIDs.sorted()
        hasPlatformServices = mvpds.contains { $0.enablePlatformServices }
    }

    /// The MVPDs the system picker shows: the filter's (order kept, duplicates and MVPDs
    /// without platform services dropped), or every MVPD shown in the platform picker.
    func pickerProviders(filter: PickerFilter?) -> [MVPD] {
        let eligible = { (mvpd: MVPD) in mvpd.enablePlatformServices || mvpd.displayInPlatformPicker }
        if let filter, !filter.providers.isEmpty {
            var seen: Set<String> = []
            return filter.providers.compactMap { id in
                guard seen.insert(id).inserted, let mvpd = mvpdsByID[id], eligible(mvpd) else { return nil }
                return mvpd
            }
        }
        return mvpds.filter { $0.displayInPlatformPicker && eligible($0) }
    }

    /// The featured MVPDs of `filter` that the picker shows.
    func featuredProviders(filter: PickerFilter?, shown: [MVPD]) -> [String] {
        guard let filter else { return [] }
        let shownIDs = Set(shown.map(\.id))
        return filter.featured.filter { shownIDs.contains($0) }
    }
}
