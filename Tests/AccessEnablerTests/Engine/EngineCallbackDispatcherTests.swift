import Foundation
import Testing

@testable import AccessEnabler

/// The dispatcher: every callback on the configured queue, in order, once to the delegates
/// (held weakly) and to the observer with every call it belongs to.
@Suite struct EngineCallbackDispatcherTests {
    static let queueKey = DispatchSpecificKey<String>()

    final class Recorder: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
        let log = NSLockedValue<[String]>([])
        func record(_ line: String) {
            let onQueue = DispatchQueue.getSpecific(key: EngineCallbackDispatcherTests.queueKey) == "callbacks"
            log.withLock { $0.append(onQueue ? line : "OFF-QUEUE " + line) }
        }
        func setRequestorComplete(_ status: Int32) { record("setRequestorComplete(\(status))") }
        func setToken(_ token: String, forResource resource: String) { record("setToken(\(resource))") }
        func status(_ status: AdvancedStatus) { record("status(\(status.errorId))") }
    }

    static func queue() -> DispatchQueue {
        let queue = DispatchQueue(label: "test.callbacks")
        queue.setSpecific(key: queueKey, value: "callbacks")
        return queue
    }

    @Test func callbacksReachTheDelegatesOnTheQueueInOrder() async {
        let dispatcher = CallbackDispatcher(queue: Self.queue())
        let recorder = Recorder()
        dispatcher.setDelegate(recorder)
        dispatcher.setStatusDelegate(recorder)
        dispatcher.dispatch(.setRequestorComplete(1))
        dispatcher.dispatch(.status(StatusCatalog.status(.n000, message: "m")))
        dispatcher.dispatch([.setToken("t", resource: "a"), .setToken("t", resource: "b")])
        await dispatcher.flush()
        #expect(
            recorder.log.withLock { $0 } == ["setRequestorComplete(1)", "status(N000)", "setToken(a)", "setToken(b)"])
    }

    @Test func theObserverSeesEachCallbackOnceWithEveryCallItBelongsTo() async {
        let dispatcher = CallbackDispatcher(queue: Self.queue())
        let seen = NSLockedValue<[(String, [UInt64])]>([])
        dispatcher.setObserver { call, owners in
            seen.withLock { $0.append((MachineHarness.signature(call), owners.map(\.value))) }
        }
        dispatcher.dispatch(.setRequestorComplete(1), for: CallID(value: 1))
        dispatcher.dispatch(.setRequestorComplete(0), for: CallID(value: 2), alsoEnding: [CallID(value: 7)])
        dispatcher.dispatch(.setRequestorComplete(1))
        await dispatcher.flush()
        let got = seen.withLock { $0 }
        #expect(got.map(\.0) == ["setRequestorComplete(1)", "setRequestorComplete(0)", "setRequestorComplete(1)"])
        #expect(got.map(\.1) == [[1], [2, 7], []])
    }

    @Test func delegatesAreHeldWeakly() async {
        let dispatcher = CallbackDispatcher(queue: Self.queue())
        var recorder: Recorder? = Recorder()
        weak let released = recorder
        dispatcher.setDelegate(recorder)
        recorder = nil
        #expect(released == nil)
        #expect(dispatcher.currentDelegate == nil)
        dispatcher.dispatch(.setRequestorComplete(1))
        await dispatcher.flush()
    }

    @Test func workQueuedAfterADispatchRunsAfterItsDelivery() async {
        let dispatcher = CallbackDispatcher(queue: Self.queue())
        let recorder = Recorder()
        dispatcher.setDelegate(recorder)
        let afterwards = NSLockedValue<[String]?>(nil)
        dispatcher.dispatch(
            [.setRequestorComplete(1)], then: { afterwards.withLock { $0 = recorder.log.withLock { $0 } } })
        await dispatcher.flush()
        #expect(afterwards.withLock { $0 } == ["setRequestorComplete(1)"])
    }
}
