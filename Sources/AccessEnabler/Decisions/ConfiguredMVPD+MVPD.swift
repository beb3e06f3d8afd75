import Foundation

extension ConfiguredMVPD {
    /// The legacy `MVPD` object the delegate receives for this configuration entry.
    var facadeMVPD: MVPD {
        MVPD(
            id: id, displayName: displayName, logoURL: logoUrl, enablePlatformServices: enablePlatformServices,
            boardingStatus: boardingStatus, displayInPlatformPicker: displayInPlatformPicker,
            platformMappingId: platformMappingId, isTempPass: isTempPass, isProxy: isProxy)
    }
}
