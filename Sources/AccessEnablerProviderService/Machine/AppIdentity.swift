/// How the service knows an app: the requestor id it signs in with at Adobe Pass, and the
/// name it presents to the person (what a permission prompt and `status` show).
///
/// The service cannot verify either: any process that may connect can present any identity
/// (see "What a local process can do" in Docs/ProviderService.md). The identity keys the
/// app's permission, no more.
package struct AppIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The most characters the requestor id or the name may have.
    package static let maximumLength = 128

    /// The Adobe Pass requestor id (`REF30`).
    package let requestor: String
    /// The app's name as the person knows it (`News`).
    package let name: String

    /// An identity, or `nil` when a part is empty, longer than ``maximumLength`` characters,
    /// or holds a control character.
    package init?(requestor: String, name: String) {
        guard Self.isAcceptable(requestor), Self.isAcceptable(name) else { return nil }
        self.requestor = requestor
        self.name = name
    }

    /// `News (REF30)`.
    package var description: String { "\(name) (\(requestor))" }

    /// By requestor, then name.
    package static func < (lhs: AppIdentity, rhs: AppIdentity) -> Bool {
        (lhs.requestor, lhs.name) < (rhs.requestor, rhs.name)
    }

    private static func isAcceptable(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maximumLength
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
