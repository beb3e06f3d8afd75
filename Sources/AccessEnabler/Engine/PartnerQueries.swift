import Foundation

extension EntitlementEngine {
    /// Asks the partner framework, without prompting, for the permission and the signed-in
    /// account. Both questions share one deadline (the request timeout): a framework that
    /// never answers counts as an error rather than a hang.
    func partnerSnapshot(_ partner: any PartnerFramework) async -> PartnerSnapshot {
        let request = PartnerMetadataRequest(isInterruptionAllowed: false, supportedAccountProviderIdentifiers: sortedMappingIDs)
        let timedOut = PartnerSnapshot(
            access: .error(code: "timeout", message: "The TV provider account service did not answer in time."), account: nil, metadataError: nil)
        return await withDeadline(seconds: configuration.requestTimeout, fallback: timedOut) {
            let access = await partner.accessStatus(prompt: false)
            guard access == .granted else { return PartnerSnapshot(access: access, account: nil, metadataError: nil) }
            do throws(PartnerFrameworkError) {
                return PartnerSnapshot(access: access, account: try await partner.accountMetadata(request), metadataError: nil)
            } catch {
                return PartnerSnapshot(access: access, account: nil, metadataError: error)
            }
        }
    }

    /// The advanced status a partner permission implies for status checks (VSA403, VSA404,
    /// APPL), or `nil` when permission is granted.
    func permissionStatus(_ access: PartnerAccessResult, errorID: String) -> AdvancedStatus? {
        switch access {
        case .granted: return nil
        case .denied: return StatusCatalog.status("VSA403", message: "The user's TV provider permission is denied for this application.")
        case .restricted: return StatusCatalog.status("VSA403", message: "The user's TV provider permission is restricted for this application.")
        case .notDetermined: return StatusCatalog.status("VSA404", message: "The user's TV provider permission is undetermined for this application.")
        case .error(let code, let message):
            return StatusCatalog.status(errorID, message: "The TV provider account service reported an error.", details: "\(code): \(message)")
        }
    }
}

/// Runs `operation`, returning `fallback` if it has not finished after `seconds`. The
/// operation is cancelled then and its late answer dropped; unlike a task group, this
/// returns on time even when the operation ignores cancellation.
///
/// The deadline is a cancellable dispatch timer rather than a sleeping task: an answer in
/// time cancels it, so nothing stays scheduled for the rest of the timeout and no extra
/// task has to start for every query.
func withDeadline<T: Sendable>(seconds: TimeInterval, fallback: T, _ operation: @escaping @Sendable () async -> T) async -> T {
    let gate = OnceGate<T>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        gate.install(continuation)
        let work = Task {
            let value = await operation()
            gate.resume(with: value)
        }
        let deadline = DispatchWorkItem {
            if gate.resume(with: fallback) { work.cancel() }
        }
        gate.attach(deadline)
        DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0.001), execute: deadline)
    }
}

/// Resumes a continuation exactly once, whoever comes first, and then cancels the
/// deadline's timer.
private final class OnceGate<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    private var resumed = false
    private var timer: DispatchWorkItem?

    func install(_ continuation: CheckedContinuation<T, Never>) { lock.withLock { self.continuation = continuation } }

    /// Keeps `timer` to cancel on resumption (cancels it at once if that already happened).
    func attach(_ timer: DispatchWorkItem) {
        let cancelNow: Bool = lock.withLock {
            if resumed { return true }
            self.timer = timer
            return false
        }
        if cancelNow { timer.cancel() }
    }

    /// Resumes with `value` if nobody has yet; returns whether this call did.
    @discardableResult
    func resume(with value: T) -> Bool {
        let (pending, timer): (CheckedContinuation<T, Never>?, DispatchWorkItem?) = lock.withLock {
            guard !resumed else { return (nil, nil) }
            resumed = true
            defer {
                continuation = nil
                self.timer = nil
            }
            return (continuation, self.timer)
        }
        timer?.cancel()
        pending?.resume(returning: value)
        return pending != nil
    }
}
