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

    /// The permission, asked without a prompt, when the framework can tell it without
    /// waiting (a value it keeps in memory); `nil` when it must be asked through
    /// ``accessStatus(prompt:)``.
    ///
    /// `checkAuthentication` asks the partner framework every time on an `appleSSO` profile.
    /// A framework that answers here (and in ``accountMetadataAtHand(_:)``) lets that check
    /// finish on the calling thread, with no task and no deadline. Answer here exactly what
    /// `accessStatus(prompt: false)` would answer, as a call of it: the SDK does not ask that
    /// method as well. The default implementation returns `nil`; Apple's `VSAccountManager`
    /// has no such call, so a wrapper of it keeps the default.
    func accessStatusAtHand() -> PartnerAccessResult?

    /// The signed-in account, for a request that allows no interruption, when the framework
    /// can tell it without waiting; `nil` when it must be asked through ``accountMetadata(_:)``.
    ///
    /// Answer exactly what ``accountMetadata(_:)`` would answer for `request` (a failure as
    /// `.failure`), as a call of it: the SDK does not ask that method as well. The SDK asks
    /// here only for requests with ``PartnerMetadataRequest/isInterruptionAllowed`` `false`
    /// and no SAML request. The default implementation returns `nil`.
    func accountMetadataAtHand(_ request: PartnerMetadataRequest) -> Result<
        PartnerAccountMetadata, PartnerFrameworkError
    >?
}

extension PartnerFramework {
    /// `nil`: the permission is asked through ``accessStatus(prompt:)``.
    public func accessStatusAtHand() -> PartnerAccessResult? { nil }

    /// `nil`: the account is asked through ``accountMetadata(_:)``.
    public func accountMetadataAtHand(_ request: PartnerMetadataRequest) -> Result<
        PartnerAccountMetadata, PartnerFrameworkError
    >? { nil }
}
