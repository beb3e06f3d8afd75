import Foundation

/// What listens to the callbacks besides the delegates: the async calls waiting for their
/// replies, the ``AccessEnabler/events`` streams and a test rig's ``CallMonitor``. While none
/// of them listens — an app that uses its delegate only — the dispatcher skips it altogether.
final class FacadeListeners: CallbackObserver {
    private let replies: ReplyRouter
    private let eventHub: EventHub
    private let monitor: CallMonitor

    init(replies: ReplyRouter, eventHub: EventHub, monitor: CallMonitor) {
        self.replies = replies
        self.eventHub = eventHub
        self.monitor = monitor
    }

    var isListening: Bool { replies.isCollecting || eventHub.hasSubscribers || monitor.isInstalled }

    func delivered(_ call: DelegateCall, owner: CallID?, others: [CallID]) {
        let owners = (owner.map { [$0] } ?? []) + others
        for owner in owners { replies.deliver(call, for: owner) }
        eventHub.publish(call)
        // A callback that also ends calls which carried the flow before its owner: for a
        // test rig following each call, those calls' flow was taken over by the owner.
        if let owner = owners.first { for earlier in owners.dropFirst() { monitor.flowTakenOver(earlier, by: owner) } }
        monitor.delivered(call, for: owners.first)
    }
}
