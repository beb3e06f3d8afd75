import Foundation

extension StoredProvider {
    /// What the SDK stores of `mvpd`, served by `serviceProviderURL`.
    init(_ mvpd: MVPD, serviceProviderURL: String?, requiresSVC: Bool) {
        self.init(
            id: mvpd.id, displayName: mvpd.displayName, logoURL: mvpd.logoURL, serviceProviderURL: serviceProviderURL,
            enablePlatformServices: mvpd.enablePlatformServices, boardingStatus: mvpd.boardingStatus,
            displayInPlatformPicker: mvpd.displayInPlatformPicker, platformMappingId: mvpd.platformMappingId,
            isTempPass: mvpd.isTempPass,
            isProxy: mvpd.isProxy, requiresSVC: requiresSVC)
    }

    /// The legacy `MVPD` object for the stored provider; a provider known by its id alone
    /// is named by its id.
    var facadeMVPD: MVPD {
        MVPD(
            id: id, displayName: displayName ?? id, logoURL: logoURL, enablePlatformServices: enablePlatformServices,
            boardingStatus: boardingStatus, displayInPlatformPicker: displayInPlatformPicker,
            platformMappingId: platformMappingId,
            isTempPass: isTempPass, isProxy: isProxy)
    }
}

extension RequestorCatalog {
    /// What the configuration says of `mvpd` in the form the SDK stores with a profile.
    func storedProvider(_ mvpd: String) -> StoredProvider? {
        mvpdsByID[mvpd].map {
            StoredProvider(
                $0, serviceProviderURL: serviceProviderForMVPD[mvpd]?.absoluteString,
                requiresSVC: svcMVPDs.contains(mvpd))
        }
    }
}

extension RequestorCatalog {
    /// The catalog partner questions and request targets read: `configuration` when the SDK
    /// has one, else the providers stored with `profiles` and the one remembered.
    static func known(configuration: RequestorCatalog?, requestor: String, profiles: RequestorProfiles)
        -> RequestorCatalog
    {
        if let configuration { return configuration }
        let providers = profiles.all.compactMap(\.provider) + [profiles.remembered].compactMap { $0 }
        return RequestorCatalog(requestor: requestor, storedProviders: providers)
    }
}
