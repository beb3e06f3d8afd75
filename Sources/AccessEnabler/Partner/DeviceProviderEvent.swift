import Foundation

/// What the device's provider service tells its subscribers (``DeviceProviderService/events()``).
public enum DeviceProviderEvent: Sendable, Equatable {
    /// The stream is connected to the service: every event from now on reaches it.
    case subscribed
    /// A household sign-in started: show the person `code` and where to type it (`url`);
    /// the code works until `expiresAt`.
    case signInStarted(code: String, url: String, expiresAt: Date)
    /// The household signed in to `provider` (a platform mapping id) until `expiresAt`.
    case signedIn(provider: String, expiresAt: Date)
    /// The household signed out at the service ("Settings → TV Provider"): an app's next
    /// `checkAuthentication` reports it; call it now to update the screen.
    case signedOut
    /// A sign-in under way ended without one: `cancelled`, `otherProvider`, `expired`,
    /// `chosenOnly` (a provider that signs in in the app only).
    case signInEnded(reason: String)
    /// An app's permission changed (`requestor`, `name`: the app; `accessStatus`: now).
    case permissionChanged(requestor: String, name: String, accessStatus: PartnerAccessResult)
    /// The connection to the service ended, saying why; the stream connects again.
    case connectionLost(String)

    /// The event an event line carries, or `nil` for a line that is not a known event.
    init?(line: [UInt8]) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
            let name = object["event"] as? String
        else { return nil }
        switch name {
        case "signInStarted":
            guard let signIn = object["signIn"] as? [String: Any], let code = signIn["code"] as? String,
                let url = signIn["url"] as? String,
                let expiresAt = signIn["expiresAt"].flatMap(ProviderServiceLine.date(milliseconds:))
            else { return nil }
            self = .signInStarted(code: code, url: url, expiresAt: expiresAt)
        case "signedIn":
            guard let provider = object["provider"] as? String,
                let expiresAt = object["expiresAt"].flatMap(ProviderServiceLine.date(milliseconds:))
            else {
                return nil
            }
            self = .signedIn(provider: provider, expiresAt: expiresAt)
        case "signedOut":
            self = .signedOut
        case "signInEnded":
            self = .signInEnded(reason: (object["reason"] as? String) ?? "")
        case "permissionChanged":
            guard let app = object["app"] as? [String: Any], let requestor = app["requestor"] as? String,
                let appName = app["name"] as? String
            else {
                return nil
            }
            let access: PartnerAccessResult
            switch object["accessStatus"] as? String {
            case "granted": access = .granted
            case "denied": access = .denied
            case "restricted": access = .restricted
            case "notDetermined": access = .notDetermined
            default: return nil
            }
            self = .permissionChanged(requestor: requestor, name: appName, accessStatus: access)
        default:
            return nil
        }
    }
}

/// Keeps a subscription to the service open for an ``AsyncStream`` of its events,
/// connecting again after a loss, until the stream ends.
enum ProviderServiceSubscription {
    /// Seconds between two attempts to connect, at most.
    static let longestRetryDelay: TimeInterval = 5

    static func stream(socketPath: String, connectTimeout: TimeInterval) -> AsyncStream<DeviceProviderEvent> {
        let (stream, continuation) = AsyncStream<DeviceProviderEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let state = SubscriptionState()
        continuation.onTermination = { _ in state.end() }
        let thread = Thread {
            var delay: TimeInterval = 0.25
            while !state.ended {
                let request = ProviderServiceLine.subscribe()
                var subscribed = false
                let ending = ProviderServiceSocket.listen(
                    path: socketPath, line: request.line, connectTimeout: connectTimeout, registered: state.register
                ) { line in
                    if !subscribed {
                        // The first line answers the subscription itself.
                        subscribed = ProviderServiceLine.Answer(line, expectedID: request.id)?.error == nil
                        if subscribed { continuation.yield(.subscribed) }
                        return
                    }
                    if let event = DeviceProviderEvent(line: line) { continuation.yield(event) }
                }
                if state.ended { break }
                continuation.yield(.connectionLost(ending.message))
                if subscribed { delay = 0.25 }
                state.sleep(delay)
                delay = min(delay * 2, longestRetryDelay)
            }
            continuation.finish()
        }
        thread.name = "accessenabler.provider-service-events"
        thread.start()
        return stream
    }
}

/// Whether a subscription's stream ended, and the socket to cancel when it does.
private final class SubscriptionState: @unchecked Sendable {
    private let condition = NSCondition()
    private var isEnded = false
    private var socket: ProviderServiceSocket?

    var ended: Bool { condition.withLock { isEnded } }

    /// Keeps `socket` to cancel at the end; `false` when the stream already ended.
    func register(_ socket: ProviderServiceSocket) -> Bool {
        condition.withLock {
            self.socket = socket
            return !isEnded
        }
    }

    func end() {
        let current: ProviderServiceSocket? = condition.withLock {
            isEnded = true
            condition.broadcast()
            return socket
        }
        current?.cancel()
    }

    /// Waits `seconds`, or less when the stream ends.
    func sleep(_ seconds: TimeInterval) {
        condition.withLock {
            let until = Date().addingTimeInterval(seconds)
            while !isEnded, condition.wait(until: until) {}
        }
    }
}
