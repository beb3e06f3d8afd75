import Foundation
import Testing

@testable import AccessEnabler

/// Tracking events are built only for someone who hears them: a delegate that implements
/// `sendTrackingData` in neither spelling is recognised after its first event, while a
/// delegate implementing either spelling, or any listener of the callbacks (an events
/// stream, an async call, a test rig), keeps hearing every event.
@Suite struct EngineTrackingListenersTests {
    /// Implements no tracking spelling. (The process remembers such types: each test has its own.)
    final class Deaf: EntitlementDelegate, @unchecked Sendable {
        func setAuthenticationStatus(_ status: Int32, errorCode code: String) {}
    }

    /// Implements no tracking spelling either.
    final class AlsoDeaf: EntitlementDelegate, @unchecked Sendable {
        func setAuthenticationStatus(_ status: Int32, errorCode code: String) {}
    }

    /// Implements the legacy spelling only.
    final class LegacyListener: EntitlementDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var events = 0
        var count: Int { lock.withLock { events } }

        func setAuthenticationStatus(_ status: Int32, errorCode code: String) {}
        func sendTrackingData(_ data: [Any]!, forEventType event: Int32) { lock.withLock { events += 1 } }
    }

    private static let event = DelegateCall.sendTrackingData(
        ["true", "Plain1", "", "true", "unknown", "ios", "Linux (tvOS)"], event: TRACKING_AUTHENTICATION)

    @Test func aDelegateDeafToTrackingIsRecognisedAfterItsFirstEvent() async {
        let dispatcher = CallbackDispatcher(queue: DispatchQueue(label: "tracking-deaf"))
        let delegate = Deaf()
        dispatcher.setDelegate(delegate)
        #expect(dispatcher.wantsTrackingData, "not known yet: the first event goes out")
        dispatcher.dispatch(Self.event)
        await dispatcher.flush()
        #expect(!dispatcher.wantsTrackingData)
        #expect(SilentTrackingDelegates.contains(ObjectIdentifier(Deaf.self)))
    }

    @Test func anyListenerStillWantsTrackingFromADeafDelegate() async {
        let dispatcher = CallbackDispatcher(queue: DispatchQueue(label: "tracking-listened"))
        let delegate = AlsoDeaf()
        dispatcher.setDelegate(delegate)
        dispatcher.dispatch(Self.event)
        await dispatcher.flush()
        let hub = EventHub()
        dispatcher.setObserver(FacadeListeners(replies: ReplyRouter(), eventHub: hub, monitor: CallMonitor()))
        #expect(!dispatcher.wantsTrackingData, "nobody listens yet")
        let stream = hub.subscribe()
        #expect(dispatcher.wantsTrackingData, "an events stream hears tracking")
        dispatcher.dispatch(Self.event)
        var iterator = stream.makeAsyncIterator()
        guard let tracking = await iterator.next()?.trackingData else {
            Issue.record("the stream did not hear the tracking event")
            return
        }
        #expect(tracking.event == TRACKING_AUTHENTICATION && tracking.data.first == "true")
    }

    @Test func aDelegateListeningInTheLegacySpellingHearsEveryEvent() async {
        let dispatcher = CallbackDispatcher(queue: DispatchQueue(label: "tracking-legacy"))
        let delegate = LegacyListener()
        dispatcher.setDelegate(delegate)
        for _ in 0..<3 { dispatcher.dispatch(Self.event) }
        await dispatcher.flush()
        #expect(delegate.count == 3)
        #expect(dispatcher.wantsTrackingData)
        #expect(!SilentTrackingDelegates.contains(ObjectIdentifier(LegacyListener.self)))
    }
}
