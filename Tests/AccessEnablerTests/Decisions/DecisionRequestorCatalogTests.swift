import Foundation
import Testing

@testable import AccessEnabler

/// The requestor's catalog: a pure merge of the service providers' configurations, and the
/// providers the system picker shows.
@Suite struct DecisionRequestorCatalogTests {
    static let primary = URL(string: "https://primary.example")!
    static let secondary = URL(string: "https://secondary.example")!

    static func configuration(_ mvpds: [(id: String, services: Bool, picker: Bool, svc: Bool)]) -> ServiceConfiguration
    {
        let entries = mvpds.map { mvpd in
            """
            {"id":"\(mvpd.id)","displayName":"\(mvpd.id) TV","enablePlatformServices":\(mvpd.services),"displayInPlatformPicker":\(mvpd.picker),\
            "platformMappingId":"map-\(mvpd.id)","isTempPass":false,"isProxy":false,"enforcePlatformPermissions":false,"requiresSVC":\(mvpd.svc)}
            """
        }
        let json = #"{"requestor":{"id":"REF30","domains":[],"mvpds":["# + entries.joined(separator: ",") + "]}}"
        return try! JSONDecoder().decode(ServiceConfiguration.self, from: Data(json.utf8))
    }

    static let catalog = RequestorCatalog(
        requestor: "REF30",
        merging: [
            .init(
                serviceProvider: primary,
                configuration: configuration([
                    ("A", true, true, false), ("B", false, false, true), ("C", false, true, false),
                ])),
            .init(
                serviceProvider: secondary,
                configuration: configuration([("B", true, true, false), ("D", true, false, false)])),
        ])

    @Test func theFirstServiceProviderToNameAnMVPDWinsIt() {
        let catalog = Self.catalog
        #expect(catalog.mvpds.map(\.id) == ["A", "B", "C", "D"])
        #expect(
            catalog.serviceProviderForMVPD == [
                "A": Self.primary, "B": Self.primary, "C": Self.primary, "D": Self.secondary,
            ])
        #expect(catalog.mvpdsByID["B"]?.enablePlatformServices == false, "the primary's B, not the secondary's")
        #expect(catalog.svcMVPDs == ["B"])
        #expect(catalog.knownMappingIDs == ["map-A", "map-B", "map-C", "map-D"])
        #expect(catalog.sortedMappingIDs == ["map-A", "map-B", "map-C", "map-D"])
        #expect(catalog.hasPlatformServices)
    }

    /// What storage keeps of a configuration (so a relaunch reuses it) gives the same catalog
    /// back, through JSON as the store writes it, and only for the service providers it came from.
    @Test func aStoredConfigurationGivesTheSameCatalogBackForItsServiceProvidersOnly() throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)
        let stored = StoredConfiguration(
            CachedConfiguration(catalog: Self.catalog, fetchedAt: fetchedAt),
            serviceProviders: [Self.primary, Self.secondary])
        let read = try JSONDecoder().decode(StoredConfiguration.self, from: JSONEncoder().encode(stored))
        #expect(read == stored)
        #expect(read.validationProblem == nil)
        let cached = try #require(read.cached(requestor: "REF30", serviceProviders: [Self.primary, Self.secondary]))
        #expect(cached.catalog == Self.catalog)
        #expect(cached.fetchedAt == fetchedAt)
        #expect(
            read.cached(requestor: "REF30", serviceProviders: [Self.primary]) == nil,
            "another list of service providers")
        var damaged = read
        damaged.providers[1].id = ""
        #expect(damaged.validationProblem == "provider without id")
    }

    @Test func nothingToMergeIsAnEmptyCatalog() {
        let empty = RequestorCatalog(requestor: "REF30", merging: [])
        #expect(empty.mvpds.isEmpty && !empty.hasPlatformServices && empty.knownMappingIDs.isEmpty)
    }

    @Test func thePickerShowsTheFiltersEligibleProvidersInItsOrder() {
        let catalog = Self.catalog
        #expect(
            catalog.pickerProviders(filter: nil).map(\.id) == ["A", "C"],
            "without a filter: those shown in the platform picker")
        let filter = PickerFilter(providers: ["D", "B", "D", "X", "A"], featured: ["A", "B", "X"])
        let shown = catalog.pickerProviders(filter: filter)
        #expect(shown.map(\.id) == ["D", "A"], "order kept, duplicates, unknown and ineligible providers dropped")
        #expect(catalog.featuredProviders(filter: filter, shown: shown) == ["A"])
        #expect(catalog.featuredProviders(filter: nil, shown: shown).isEmpty)
    }
}
