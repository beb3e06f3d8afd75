import Foundation

/// What a change of the profiles does to a requestor's record: the profiles afterwards, and
/// what no longer holds with them.
struct ProfileChange: Sendable, Equatable {
    /// The profiles to store.
    var profiles: RequestorProfiles
    /// The MVPDs whose media tokens are kept; `nil` keeps them all.
    var keepingMediaTokensOf: Set<String>?
    /// Whether the cached preauthorization answers go (they were another MVPD's).
    var droppingPreauthorizations: Bool
}
