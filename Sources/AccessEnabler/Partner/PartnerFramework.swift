import Foundation

/// The device's TV-provider account service: the stand-in for Apple's Video Subscriber
/// Account framework.
///
/// On an Apple platform an implementation wraps `VSAccountManager`:
/// - ``accessStatus(prompt:)`` is `checkAccessStatus(options: [.prompt: prompt])`;
/// - ``accountMetadata(_:)`` is `enqueue(_ request: VSAccountMetadataRequest)`, with the
///   request's fields copied one to one from ``PartnerMetadataRequest`` and the answer's
///   from `VSAccountMetadata`; a thrown `VSError` becomes a ``PartnerFrameworkError``.
///
/// On Linux, PassSandbox ships a simulated device (`SimulatedPartnerFramework`); a set-top
/// box vendor plugs in its own system sign-in service the same way.
public protocol PartnerFramework: Sendable {
    /// The application's permission to read the user's TV-provider subscription.
    ///
    /// - Parameter prompt: `true` lets the framework ask the user when the permission is
    ///   not determined yet (`VSCheckAccessOption.prompt`); `false` answers silently.
    func accessStatus(prompt: Bool) async -> PartnerAccessResult

    /// Reads the signed-in account, opening the system provider picker or the MVPD login
    /// when `request.isInterruptionAllowed` is `true` and nobody is signed in.
    func accountMetadata(_ request: PartnerMetadataRequest) async throws(PartnerFrameworkError)
        -> PartnerAccountMetadata
}
