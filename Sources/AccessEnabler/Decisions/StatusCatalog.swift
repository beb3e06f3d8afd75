import Foundation

/// The advanced status codes the SDK reports, with their documented levels.
enum StatusCatalog {
    private static let infoIDs: Set<String> = ["N000", "N003", "N004", "N005", "N011", "VSA203", "VSA403", "VSA404", "VSA503", "REGCODE", "Z011"]
    private static let warningIDs: Set<String> = ["N010", "Z010", "SEC412", "CFG100", "N111"]

    /// The documented level of `id`: info, warning, or error for everything else.
    static func level(of id: String) -> AdvancedStatus.Level {
        if infoIDs.contains(id) { return .info }
        if warningIDs.contains(id) { return .warning }
        return .error
    }

    /// A status with its documented level.
    static func status(_ id: String, message: String?, details: String? = nil, resource: String? = nil, enhancedError: EnhancedError? = nil) -> AdvancedStatus {
        AdvancedStatus(errorId: id, level: level(of: id), message: message, details: details, resource: resource, enhancedError: enhancedError)
    }
}
