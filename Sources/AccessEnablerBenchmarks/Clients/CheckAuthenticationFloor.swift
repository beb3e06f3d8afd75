import AccessEnabler
import Foundation
import Synchronization

/// The floor of `checkAuthentication` on an `appleSSO` profile: a program that does only what
/// such a check cannot avoid, and nothing else. It reads the published state (the signed-in
/// provider and its expiry, under a lock), asks the partner framework its two silent
/// questions (permission, then the signed-in account), and delivers one callback on the
/// callback queue, to a caller that waits for it.
///
/// A partner framework with its answers at hand (`accessStatusAtHand()`,
/// `accountMetadataAtHand(_:)`, as the simulated device has them) answers on the calling
/// thread; otherwise the questions are asked by a task started on the calling thread
/// (`Task.immediate`). Either way the one hop is the callback's, onto the callback queue.
/// (The floor assumes that a permission at hand comes with the account at hand.)
///
/// The benchmark times it exactly as it times the SDK's check, so the SDK's figure reads as
/// a ratio to what the work costs at the least on the same machine, in the same run.
final class CheckAuthenticationFloor: Sendable {
    /// What a check reads: the provider signed in and until when.
    struct Published: Sendable {
        var provider: String
        var expiresAt: Date
    }

    private let published: Mutex<Published>
    private let partner: any PartnerFramework
    private let supportedProviders: [String]
    private let clock: @Sendable () -> Date
    /// Where the callback is delivered (a serial queue, as the SDK's callback queue).
    let callbackQueue: DispatchQueue

    init(
        published: Published, partner: any PartnerFramework, supportedProviders: [String],
        clock: @escaping @Sendable () -> Date,
        callbackQueue: DispatchQueue = DispatchQueue(label: "accessenabler.bench.floor-callbacks")
    ) {
        self.published = Mutex(published)
        self.partner = partner
        self.supportedProviders = supportedProviders
        self.clock = clock
        self.callbackQueue = callbackQueue
    }

    /// Checks, then calls `deliver` on the callback queue with 1 (signed in) or 0.
    func check(_ deliver: @escaping @Sendable (Int32) -> Void) {
        let profile = published.withLock { $0 }
        let (partner, supported, clock, queue) = (partner, supportedProviders, clock, callbackQueue)
        if let access = partner.accessStatusAtHand() {
            var signedIn = false
            if access == .granted,
                case .success(let account)? = partner.accountMetadataAtHand(
                    PartnerMetadataRequest(isInterruptionAllowed: false, supportedAccountProviderIdentifiers: supported)
                )
            {
                signedIn = account.accountProviderIdentifier == profile.provider && clock() < profile.expiresAt
            }
            let status: Int32 = signedIn ? 1 : 0
            return queue.async { deliver(status) }
        }
        Task.immediate {
            var signedIn = false
            if await partner.accessStatus(prompt: false) == .granted,
                let account = try? await partner.accountMetadata(
                    PartnerMetadataRequest(isInterruptionAllowed: false, supportedAccountProviderIdentifiers: supported)
                )
            {
                signedIn = account.accountProviderIdentifier == profile.provider && clock() < profile.expiresAt
            }
            let status: Int32 = signedIn ? 1 : 0
            queue.async { deliver(status) }
        }
    }

    /// Checks and returns the status once the callback has been delivered.
    func checkAndWait() async -> Int32 {
        await withCheckedContinuation { continuation in
            check { continuation.resume(returning: $0) }
        }
    }
}
