import Foundation

/// What a mirror shows in place of a secret — an access token, a client secret, a media
/// token, a SAML response, a device identifier: whether there is one and how long it is,
/// never its value. `dump(_:)`, a debugger's `po` and anything else that walks a `Mirror`
/// print it as `hidden (N characters)` (or `none`).
struct HiddenSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret's length in characters, `nil` when there is none.
    let length: Int?

    /// Stands for `secret` (`nil`: there is none).
    init(_ secret: String?) {
        length = secret?.count
    }

    var description: String { length.map { "hidden (\($0) characters)" } ?? "none" }
    var debugDescription: String { description }
    /// No children: nothing of the secret is reachable through the mirror.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// What a mirror shows of a value that is code or an object the SDK does not own (a
    /// closure, a transport, a partner framework): its type, or `none`.
    static func kind(of value: Any?) -> String {
        guard let value else { return "none" }
        return String(describing: type(of: value))
    }
}
