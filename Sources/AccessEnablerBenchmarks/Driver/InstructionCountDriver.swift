import AccessEnabler
import Foundation
import PassSandbox

/// A program that does one flow `count` times and nothing else, for counting its machine
/// instructions under `valgrind --tool=callgrind` (or timing it under `perf stat`):
/// `accessenabler bench --driver checkAuthentication --count 2000`.
///
/// It uses only the public API of `AccessEnabler` and `PassSandbox` that the first release
/// already had, so the same file builds against an older checkout and the two counts
/// compare like with like. Run it twice with different counts: the difference divided by
/// the difference in counts is the cost of one flow, without the set-up both runs share.
///
/// - `checkAuthentication`: one AccessEnabler signed in through partner SSO (an `appleSSO`
///   profile, so every check asks the partner framework); each round calls
///   `checkAuthentication()` and waits for `setAuthenticationStatus` to reach the delegate.
/// - `checkAuthenticationTracked`: the same with a delegate that also implements
///   `sendTrackingData` (the delegate of `checkAuthentication` implements neither spelling).
/// - `signIn`: each round creates an AccessEnabler over new storage with a device signed in
///   at system level, calls `setRequestor` (DCR register, token, configuration,
///   sessions/sso, profiles/sso) and waits for `setRequestorComplete`, then until the
///   store's files are written.
/// - `signInLoopback`: the same over loopback HTTP with a `URLSessionTransport` shared by
///   every round (what the sign-in benchmark times).
///
/// The sandbox answers in the same process, so its instructions are counted too (the
/// sandbox of each build: it changed between them as well).
public enum InstructionCountDriver {
    /// The flows the driver knows.
    public static let flows = ["checkAuthentication", "checkAuthenticationTracked", "signIn", "signInLoopback"]

    /// Runs `flow` `count` times; returns the number of rounds that ended as expected.
    /// `report` hears one line of summary.
    public static func run(flow: String, count: Int, report: @Sendable (String) -> Void) async -> Int {
        let sandbox = PassSandbox()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-driver-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let start = Date()
        let succeeded: Int
        switch flow {
        case "checkAuthentication", "checkAuthenticationTracked":
            succeeded = await checkAuthentications(
                count, sandbox: sandbox, storage: root.appendingPathComponent("check"),
                tracked: flow == "checkAuthenticationTracked")
        case "signInLoopback":
            guard let (server, baseURL) = try? sandbox.serveOverLoopback() else { return 0 }
            defer { server.shutdown() }
            succeeded = await signIns(count, sandbox: sandbox, root: root, over: (baseURL, URLSessionTransport()))
        default:
            succeeded = await signIns(count, sandbox: sandbox, root: root)
        }
        report(
            "\(flow): \(succeeded) of \(count) as expected in \(String(format: "%.3f", Date().timeIntervalSince(start))) s"
        )
        return succeeded
    }

    private static func checkAuthentications(_ count: Int, sandbox: PassSandbox, storage: URL, tracked: Bool) async
        -> Int
    {
        let observer = DriverObserver()
        let tracking = TrackingDriverObserver(observer)
        let client = makeClient(sandbox: sandbox, storage: storage, observer: observer)
        if tracked { client.delegate = tracking }
        _ = await observer.waitForRequestor { client.setRequestor("REF30") }
        await client.waitUntilIdle()
        var succeeded = 0
        for _ in 0..<count {
            let status = await observer.waitForAuthentication { client.checkAuthentication() }
            if status == 1 { succeeded += 1 }
        }
        return succeeded
    }

    private static func signIns(
        _ count: Int, sandbox: PassSandbox, root: URL, over wire: (URL, any HTTPTransport)? = nil
    ) async -> Int {
        var succeeded = 0
        for index in 0..<count {
            let observer = DriverObserver()
            let client = makeClient(
                sandbox: sandbox, storage: root.appendingPathComponent("device-\(index)"), observer: observer,
                wire: wire)
            let status = await observer.waitForRequestor { client.setRequestor("REF30") }
            await client.waitUntilIdle()
            if status == 1 { succeeded += 1 }
        }
        return succeeded
    }

    private static func makeClient(
        sandbox: PassSandbox, storage: URL, observer: DriverObserver, wire: (URL, any HTTPTransport)? = nil
    ) -> AccessEnabler {
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(wire?.0 ?? sandbox.baseURLForLinks)
        configuration.platform = .tvOS
        configuration.storageDirectory = storage
        configuration.clock = sandbox.clock
        configuration.transport = wire?.1 ?? sandbox.inProcessTransport
        configuration.partnerFramework = SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
        let client = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        client.delegate = observer
        return client
    }
}

/// The driver's delegate: resumes whoever waits for the next `setRequestorComplete` or
/// `setAuthenticationStatus`, and ignores everything else.
private final class DriverObserver: EntitlementDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var requestorWaiter: CheckedContinuation<Int32, Never>?
    private var authenticationWaiter: CheckedContinuation<Int32, Never>?

    /// Runs `call` and returns the status of the `setRequestorComplete` that follows.
    func waitForRequestor(_ call: () -> Void) async -> Int32 {
        await withCheckedContinuation { continuation in
            lock.withLock { requestorWaiter = continuation }
            call()
        }
    }

    /// Runs `call` and returns the status of the `setAuthenticationStatus` that follows.
    func waitForAuthentication(_ call: () -> Void) async -> Int32 {
        await withCheckedContinuation { continuation in
            lock.withLock { authenticationWaiter = continuation }
            call()
        }
    }

    func setRequestorComplete(_ status: Int32) {
        let waiter: CheckedContinuation<Int32, Never>? = lock.withLock {
            defer { requestorWaiter = nil }
            return requestorWaiter
        }
        waiter?.resume(returning: status)
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        let waiter: CheckedContinuation<Int32, Never>? = lock.withLock {
            defer { authenticationWaiter = nil }
            return authenticationWaiter
        }
        waiter?.resume(returning: status)
    }
}

/// The driver's delegate that also hears tracking events: forwards to a ``DriverObserver``.
private final class TrackingDriverObserver: EntitlementDelegate, @unchecked Sendable {
    private let inner: DriverObserver
    private let lock = NSLock()
    private var events = 0

    init(_ inner: DriverObserver) { self.inner = inner }

    func setRequestorComplete(_ status: Int32) { inner.setRequestorComplete(status) }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        inner.setAuthenticationStatus(status, errorCode: code)
    }
    func sendTrackingData(_ data: [String], forEventType event: Int32) { lock.withLock { events += 1 } }
}
