import Foundation

/// The `selectedProvider` callback of ``EntitlementDelegate`` in today's spelling.
///
/// ``EntitlementDelegate`` inherits it; you never conform to it alone. It stands apart
/// because `MVPD?` (today's spelling) and `MVPD!` (the spelling Swift gives the Objective-C
/// header, declared in ``EntitlementDelegateLegacySpellings``) are one type to Swift: declared
/// in one protocol, or one inheriting the other, they would merge into a single requirement
/// that only one of the two spellings could implement. As siblings, each spelling is its own
/// requirement, and a delegate may implement either (Swift does not allow a type to
/// implement both, for the same reason).
public protocol SelectedProviderDelegate: AnyObject {
    /// The currently selected MVPD, or `nil`: the answer to `getSelectedProvider`.
    func selectedProvider(_ mvpd: MVPD?)
}
