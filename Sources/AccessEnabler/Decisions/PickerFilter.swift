import Foundation

/// Which providers the system picker shows: `getAuthentication(filter:)`'s argument.
struct PickerFilter: Sendable, Equatable {
    /// MVPD ids to show, in order.
    var providers: [String]
    /// MVPD ids to feature.
    var featured: [String]
}
