import Foundation
import Synchronization

/// Streams every delivered callback, as an ``AccessEnablerEvent``, to each subscriber.
final class EventHub: Sendable {
    private struct Subscribers {
        var continuations: [UInt64: AsyncStream<AccessEnablerEvent>.Continuation] = [:]
        var counter: UInt64 = 0
    }

    private let subscribers = Mutex(Subscribers())
    /// How many streams are open, kept beside the list so publishing with none (an app that
    /// uses the delegate only) costs one atomic load and no lock.
    private let open = Atomic<Int>(0)

    /// Whether a stream is open.
    var hasSubscribers: Bool { open.load(ordering: .acquiring) > 0 }

    /// A new stream of the events delivered from now on.
    func subscribe() -> AsyncStream<AccessEnablerEvent> {
        let (stream, continuation) = AsyncStream<AccessEnablerEvent>.makeStream()
        let id: UInt64 = subscribers.withLock {
            $0.counter += 1
            $0.continuations[$0.counter] = continuation
            open.store($0.continuations.count, ordering: .releasing)
            return $0.counter
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            subscribers.withLock {
                $0.continuations[id] = nil
                open.store($0.continuations.count, ordering: .releasing)
            }
        }
        return stream
    }

    /// Hands `call` to every subscriber.
    func publish(_ call: DelegateCall) {
        guard open.load(ordering: .acquiring) > 0 else { return }
        let targets = subscribers.withLock { Array($0.continuations.values) }
        guard !targets.isEmpty else { return }
        let event = AccessEnablerEvent(call)
        targets.forEach { $0.yield(event) }
    }

    /// Ends every stream.
    func finish() {
        let targets = subscribers.withLock { subscribers in
            defer {
                subscribers.continuations.removeAll()
                open.store(0, ordering: .releasing)
            }
            return Array(subscribers.continuations.values)
        }
        targets.forEach { $0.finish() }
    }
}

extension AccessEnablerEvent {
    /// The event for a delivered callback: no `default`, so a callback added to
    /// ``DelegateCall`` is a compiler error here until the event says what it carries.
    init(_ call: DelegateCall) {
        switch call {
        case .setRequestorComplete(let status): self = .requestorComplete(status: status)
        case .setAuthenticationStatus(let status, let code):
            self = .authenticationStatus(status: status, errorCode: code)
        case .displayProviderDialog(let mvpds): self = .providerDialog(mvpds)
        case .navigateToUrl(let url): self = .navigate(url: url, useSVC: nil)
        case .navigateToUrlUsingSVC(let url, let svc): self = .navigate(url: url, useSVC: svc)
        case .presentTVProviderDialog(let dialog): self = .tvProviderDialogPresented(dialog)
        case .dismissTVProviderDialog(let dialog): self = .tvProviderDialogDismissed(dialog)
        case .setToken(let token, let resource): self = .token(MediaToken(resource: resource, serializedToken: token))
        case .tokenRequestFailed(let resource, let code, let description):
            self = .tokenRequestFailed(resource: resource, errorCode: code, description: description)
        case .selectedProvider(let mvpd): self = .selectedProvider(mvpd)
        case .setMetadataStatus(let value, let encrypted, let key, _):
            self = .metadata(MetadataResult(value: value, encrypted: encrypted, key: key))
        case .preauthorizedResources(let resources): self = .preauthorizedResources(resources)
        case .sendTrackingData(let data, let event): self = .trackingData(data, event: event)
        case .status(let status): self = .status(status)
        case .preauthorizeResult(let outcome, _):
            self = .preauthorizeResult(outcome.response, failure: outcome.isFailure)
        }
    }
}
