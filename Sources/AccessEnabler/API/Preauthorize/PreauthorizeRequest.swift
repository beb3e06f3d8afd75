import Foundation

/// What a Preauthorize API call asks: the resources to decide on and the features to turn
/// off for it (the legacy SDK's v3.6 `PreauthorizeRequest`).
///
/// Build one with ``Builder``:
///
/// ```swift
/// let request = PreauthorizeRequest.Builder()
///     .setResources(resources: ["news", "sports"])
///     .disableFeatures(features: [.LOCAL_CACHE])
///     .build()
/// ```
///
/// A request is a value: reuse it for as many calls as you like.
public struct PreauthorizeRequest: Sendable, Equatable {
    /// A feature of preauthorization that a request may turn off. All are on by default.
    public enum Feature: String, Sendable, Hashable, CaseIterable {
        /// Answer from the decisions the SDK has cached. Off: always ask Adobe Pass.
        case LOCAL_CACHE
        /// Let Adobe Pass answer from its own cache. Off: Adobe Pass asks the MVPD.
        case REMOTE_CACHE
    }

    /// The resource ids (or media RSS fragments agreed with the MVPD) to decide on, in order.
    public let resources: [String]
    /// The features turned off for this request.
    public let disabledFeatures: Set<Feature>

    /// Creates a request; ``Builder`` is the documented way.
    public init(resources: [String], disabledFeatures: Set<Feature> = []) {
        self.resources = resources
        self.disabledFeatures = disabledFeatures
    }

    /// Whether `feature` is on for this request.
    public func isEnabled(_ feature: Feature) -> Bool {
        !disabledFeatures.contains(feature)
    }
}

/// The name Adobe's Preauthorize sample code uses for ``PreauthorizeRequest``
/// (`PreauthorizationRequest.Builder()`, `Set<PreauthorizationRequest.Feature>`).
public typealias PreauthorizationRequest = PreauthorizeRequest
