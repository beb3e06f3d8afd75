import AccessEnabler
import AccessEnablerScenarios
import Foundation

/// The benchmark's delegate: keeps only what the measurements check (the last terminal
/// callbacks and a few counts), so an app's delegate costs next to nothing in the timings.
final class BenchmarkObserver: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
    private let lock = NSLock()
    private var state = State()
    /// Told each time `setRequestorComplete` arrives (after it is recorded), on the
    /// callback queue.
    private let requestorCompleted: (@Sendable (Int32) -> Void)?

    /// An observer; `onRequestorComplete` hears every `setRequestorComplete` status.
    init(onRequestorComplete: (@Sendable (Int32) -> Void)? = nil) {
        requestorCompleted = onRequestorComplete
    }

    struct State {
        var requestorStatus: Int32?
        /// When `setRequestorComplete` reached the delegate (``ProcessMetrics/wallSeconds()``).
        var requestorCompletedAt: Double?
        var authenticationStatus: Int32?
        var authenticationError: String?
        /// When the last `setAuthenticationStatus` reached the delegate.
        var authenticationStatusAt: Double?
        /// When the last `setToken` or `tokenRequestFailed` reached the delegate.
        var tokenAnsweredAt: Double?
        var navigation: String?
        var providerDialogs = 0
        var tokens = 0
        var tokenFailures = 0
        var preauthorized: [String]?
        var statuses: [StatusID] = []
    }

    /// What arrived so far.
    var snapshot: State { lock.withLock { state } }

    /// Forgets everything but the last navigation URL (the web view stays where it is).
    func reset() {
        lock.withLock {
            let navigation = state.navigation
            state = State()
            state.navigation = navigation
        }
    }

    func setRequestorComplete(_ status: Int32) {
        let now = ProcessMetrics.wallSeconds()
        lock.withLock {
            state.requestorStatus = status
            state.requestorCompletedAt = now
        }
        requestorCompleted?(status)
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        let now = ProcessMetrics.wallSeconds()
        lock.withLock {
            state.authenticationStatus = status
            state.authenticationError = code
            state.authenticationStatusAt = now
        }
    }

    func displayProviderDialog(_ mvpds: [MVPD]) { lock.withLock { state.providerDialogs += 1 } }
    func navigateToUrl(_ url: String) { lock.withLock { state.navigation = url } }
    func navigateToUrl(_ url: String, useSVC: Bool) { lock.withLock { state.navigation = url } }
    func setToken(_ token: String, forResource resource: String) {
        let now = ProcessMetrics.wallSeconds()
        lock.withLock {
            state.tokens += 1
            state.tokenAnsweredAt = now
        }
    }

    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
        let now = ProcessMetrics.wallSeconds()
        lock.withLock {
            state.tokenFailures += 1
            state.tokenAnsweredAt = now
        }
    }

    func preauthorizedResources(_ resources: [String]) { lock.withLock { state.preauthorized = resources } }
    func status(_ status: AdvancedStatus) { lock.withLock { state.statuses.append(status.errorId) } }
}

/// Builds the AccessEnablers the benchmark drives: one software statement, tvOS, the
/// sandbox's clock, a given storage directory, partner framework and transport.
struct BenchmarkClientFactory: Sendable {
    let baseURL: URL
    let clock: any TimeSource
    let requestTimeout: TimeInterval

    func make(storage: URL, partner: (any PartnerFramework)?, transport: any HTTPTransport, observer: BenchmarkObserver)
        -> AccessEnabler
    {
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = .tvOS
        // The login-page flow is measured on this device; the second screen waits for a person.
        configuration.loginScreen = .thisDevice
        configuration.storageDirectory = storage
        configuration.partnerFramework = partner
        configuration.clock = clock
        configuration.requestTimeout = requestTimeout
        configuration.transport = transport
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = observer
        accessEnabler.statusDelegate = observer
        return accessEnabler
    }
}

/// A directory the benchmark removes when done: under the system's temporary directory
/// (a disk, where the SDK's fsyncs cost what they cost), or under a memory-backed file
/// system to show what the same work costs without them.
struct BenchmarkScratch: Sendable {
    let root: URL

    init(_ purpose: String, under base: URL = FileManager.default.temporaryDirectory) {
        root = base.appendingPathComponent("accessenabler-bench-\(purpose)-\(UUID().uuidString)")
    }

    /// `/dev/shm` when it is a writable directory (tmpfs on Linux: fsync returns at once).
    static var memoryBackedBase: URL? {
        let candidate = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: candidate.path)
        else { return nil }
        return candidate
    }

    /// A fresh, not yet existing storage directory under the root.
    func storage(_ name: String) -> URL { root.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// Runs `body` but stops waiting after `seconds`; returns `false` when the deadline came
/// first (the body then finishes on its own, unobserved).
func withDeadline(_ seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let gate = DeadlineGate()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        gate.install(continuation)
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            gate.finish(false)
        }
        Task {
            await body()
            gate.finish(true)
            timer.cancel()
        }
    }
}

/// Resumes a continuation once, with whichever of completion or deadline comes first.
private final class DeadlineGate: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    func install(_ continuation: CheckedContinuation<Bool, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func finish(_ completed: Bool) {
        let pending: CheckedContinuation<Bool, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: completed)
    }
}
