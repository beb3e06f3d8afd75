import Foundation

/// The system TV provider picker the SDK is about to show or has closed: the value
/// `presentTVProviderDialog` and `dismissTVProviderDialog` carry. On Apple platforms this was
/// the `VSAccountManager` view controller; here it describes what the picker shows.
public struct TVProviderDialog: Sendable, Equatable {
    /// The MVPD ids shown in the picker, in picker order.
    public var providers: [String]
    /// The MVPD ids featured at the top of the picker.
    public var featured: [String]

    /// Creates a dialog description.
    public init(providers: [String], featured: [String]) {
        self.providers = providers
        self.featured = featured
    }
}

#if !canImport(UIKit)
/// On platforms without UIKit (Linux), the type of the `viewController` the legacy
/// `presentTvProviderDialog(_ viewController: UIViewController!)` and
/// `dismissTvProviderDialog(_:)` callbacks receive, so those methods compile as written for
/// iOS. There is no view controller to present: the partner framework shows its own picker,
/// and the value says which providers it shows (``TVProviderDialog``).
public typealias UIViewController = TVProviderDialog
#endif
