import Foundation

/// Streams every delivered callback, as an ``AccessEnablerEvent``, to each subscriber.
final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UInt64: AsyncStream<AccessEnablerEvent>.Continuation] = [:]
    private var counter: UInt64 = 0

    /// A new stream of the events delivered from now on.
    func subscribe() -> AsyncStream<AccessEnablerEvent> {
        let (stream, continuation) = AsyncStream<AccessEnablerEvent>.makeStream()
        let id: UInt64 = lock.withLock {
            counter += 1
            subscribers[counter] = continuation
            return counter
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `call` to every subscriber.
    func publish(_ call: DelegateCall) {
        let targets = lock.withLock { Array(subscribers.values) }
        guard !targets.isEmpty else { return }
        let event = AccessEnablerEvent(call)
        targets.forEach { $0.yield(event) }
    }

    /// Ends every stream.
    func finish() {
        let targets = lock.withLock { () -> [AsyncStream<AccessEnablerEvent>.Continuation] in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        targets.forEach { $0.finish() }
    }
}

extension AccessEnablerEvent {
    /// The event for a delivered callback.
    init(_ call: DelegateCall) {
        switch call {
        case .setRequestorComplete(let status): self = .requestorComplete(status: status)
        case .setAuthenticationStatus(let status, let code): self = .authenticationStatus(status: status, errorCode: code)
        case .displayProviderDialog(let mvpds): self = .providerDialog(mvpds)
        case .navigateToUrl(let url): self = .navigate(url: url, useSVC: nil)
        case .navigateToUrlUsingSVC(let url, let svc): self = .navigate(url: url, useSVC: svc)
        case .presentTVProviderDialog(let dialog): self = .tvProviderDialogPresented(dialog)
        case .dismissTVProviderDialog(let dialog): self = .tvProviderDialogDismissed(dialog)
        case .setToken(let token, let resource): self = .token(MediaToken(resource: resource, serializedToken: token))
        case .tokenRequestFailed(let resource, let code, let description): self = .tokenRequestFailed(resource: resource, errorCode: code, description: description)
        case .selectedProvider(let mvpd): self = .selectedProvider(mvpd)
        case .setMetadataStatus(let value, let encrypted, let key, _): self = .metadata(MetadataResult(value: value, encrypted: encrypted, key: key))
        case .preauthorizedResources(let resources): self = .preauthorizedResources(resources)
        case .sendTrackingData(let data, let event): self = .trackingData(data, event: event)
        case .status(let status): self = .status(status)
        case .preauthorizeResult(let outcome, _): self = .preauthorizeResult(outcome.response, failure: outcome.isFailure)
        }
    }
}
