import AccessEnabler
import Foundation
import PassSandbox

/// A long run of one process against PassSandbox over loopback HTTP, sampling its resident
/// memory, to tell a leak from a process that has reached its working size:
/// `accessenabler bench --soak MINUTES`.
///
/// One app signs in and out again and again, as a person would over a long evening, with
/// every kind of call in between. A round, all on one AccessEnabler (iOS: this device's
/// login page, followed by a simulated user agent over HTTP):
/// `checkAuthentication`, `getAuthentication`, `setSelectedProvider`, the login page,
/// `handleExternalURL`, `checkAuthentication` twice, `checkAuthorization`,
/// `getAuthorization`, `checkPreauthorizedResources`, `getMetadata` (authentication,
/// device id, user metadata), `getSelectedProvider`, `logout` and its page, then
/// `handleExternalURL` with where it lands. Every tenth round relaunches the app (a new
/// AccessEnabler over the same storage, `setRequestor` again). Each call is waited for
/// until the SDK is idle, so the run measures a steady stream of calls, not a growing
/// backlog. The command line serves the sandbox from a process of its own, so the readings
/// are the app's alone: a sandbox keeps every session it opened for a day, as Adobe Pass
/// does, and would grow in the app's process.
public struct Soak: Sendable {
    /// One reading of resident memory.
    public struct Sample: Sendable {
        /// Seconds since the run started.
        public var seconds: Double
        /// Resident set size, in bytes.
        public var residentBytes: Int
        /// Facade calls made so far.
        public var calls: Int
    }

    /// What a run measured.
    public struct Result: Sendable {
        /// The readings, one per sampling interval, the first at the start.
        public var samples: [Sample]
        /// Facade calls made.
        public var calls: Int
        /// REST and DCR requests the SDK sent for them.
        public var requests: Int
        /// Rounds that ended as a healthy round does (signed in, then signed out).
        public var roundsAsExpected: Int
        /// Rounds run.
        public var rounds: Int

        /// The reading nearest to `seconds` after the start.
        public func sample(near seconds: Double) -> Sample? {
            samples.min { abs($0.seconds - seconds) < abs($1.seconds - seconds) }
        }

        /// A summary: the run's length, the calls, resident memory at 2 minutes and at the
        /// end, and the growth in between.
        public var summary: String {
            guard let first = samples.first, let last = samples.last else { return "soak: no sample" }
            let settled = sample(near: 120) ?? first
            let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
            let growth = last.residentBytes - settled.residentBytes
            let peak = samples.map(\.residentBytes).max() ?? 0
            return """
                soak: \(String(format: "%.0f", last.seconds)) s, \(calls) calls (\(String(format: "%.0f", Double(calls) / max(last.seconds, 1))) a second), \
                \(requests) requests, \(roundsAsExpected) of \(rounds) rounds as expected
                resident memory: \(megabytes(first.residentBytes)) at the start, \(megabytes(settled.residentBytes)) at \
                \(String(format: "%.0f", settled.seconds)) s, \(megabytes(last.residentBytes)) at the end \
                (\(growth >= 0 ? "+" : "")\(String(format: "%.2f", Double(growth) / 1_048_576)) MB after \(String(format: "%.0f", settled.seconds)) s), \
                peak \(megabytes(peak))
                """
        }
    }

    /// How long the run lasts, in seconds.
    public var duration: TimeInterval
    /// Seconds between two readings of resident memory.
    public var sampleInterval: TimeInterval
    /// A PassSandbox already serving (in another process: then the readings are the app's
    /// alone), or `nil` to serve one in this process.
    public var sandboxURL: URL?

    /// A run of `duration` seconds, reading memory every `sampleInterval` seconds, against
    /// the sandbox at `sandboxURL` or, without one, a sandbox served by this process.
    public init(duration: TimeInterval, sampleInterval: TimeInterval = 10, sandboxURL: URL? = nil) {
        self.duration = duration
        self.sampleInterval = sampleInterval
        self.sandboxURL = sandboxURL
    }

    /// Runs the soak; `report` hears each reading as a line as it is taken.
    public func run(report: @escaping @Sendable (String) -> Void) async throws -> Result {
        var server: LoopbackHTTPServer?
        defer { server?.shutdown() }
        let baseURL: URL
        if let sandboxURL {
            baseURL = sandboxURL
        } else {
            let served = try PassSandbox().serveOverLoopback()
            (server, baseURL) = (served.0, served.1)
        }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-soak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }

        let counter = SoakCounter()
        let sampler = SoakSampler(interval: sampleInterval, calls: { counter.calls }, report: report)
        sampler.start()
        let started = Date()
        var rounds = 0
        var asExpected = 0
        var app: SoakApp?
        while Date().timeIntervalSince(started) < duration {
            if app == nil || rounds % 10 == 0 {
                app = nil
                let fresh = SoakApp(baseURL: baseURL, storage: storage, counter: counter)
                await fresh.call { $0.setRequestor("REF30") }
                app = fresh
            }
            if let app, await app.round() { asExpected += 1 }
            rounds += 1
        }
        app = nil
        let samples = sampler.stop()
        return Result(
            samples: samples, calls: counter.calls, requests: counter.requests, roundsAsExpected: asExpected,
            rounds: rounds)
    }

    /// This process's resident set size in bytes, from `/proc/self/statm` (0 where there is none).
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The facade calls made so far, by every app of the run, and the requests they sent.
private final class SoakCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var sent = 0

    var calls: Int { lock.withLock { count } }
    var requests: Int { lock.withLock { sent } }

    func add() { lock.withLock { count += 1 } }
    func addRequest() { lock.withLock { sent += 1 } }
}

/// Reads resident memory every `interval` seconds on a thread of its own, so a busy run
/// cannot delay a reading.
private final class SoakSampler: @unchecked Sendable {
    private let interval: TimeInterval
    private let calls: @Sendable () -> Int
    private let report: @Sendable (String) -> Void
    private let condition = NSCondition()
    private var samples: [Soak.Sample] = []
    private var stopped = false
    private var finished = false

    init(interval: TimeInterval, calls: @escaping @Sendable () -> Int, report: @escaping @Sendable (String) -> Void) {
        self.interval = max(interval, 0.1)
        self.calls = calls
        self.report = report
    }

    func start() {
        let thread = Thread { [self] in sample() }
        thread.name = "soak sampler"
        thread.start()
    }

    /// Stops the sampler after a last reading; returns every reading.
    func stop() -> [Soak.Sample] {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        return samples
    }

    private func sample() {
        let started = Date()
        var next = started
        condition.lock()
        defer {
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            let reading = Soak.Sample(
                seconds: Date().timeIntervalSince(started), residentBytes: Soak.residentBytes(), calls: calls())
            samples.append(reading)
            report(
                String(
                    format: "soak: %5.0f s  resident %6.1f MB  %d calls", reading.seconds,
                    Double(reading.residentBytes) / 1_048_576, reading.calls))
            if stopped { return }
            next = next.addingTimeInterval(interval)
            while !stopped && Date() < next { _ = condition.wait(until: next) }
        }
    }
}

/// One app of the soak: an AccessEnabler on iOS over loopback HTTP, its delegate (which
/// takes every callback, as an app does), and the person at its login and logout pages.
private final class SoakApp: EntitlementDelegate, @unchecked Sendable {
    private static let redirect = "adobepass://ios.app"
    private let counter: SoakCounter
    private let userAgent: SimulatedUserAgent
    private let lock = NSLock()
    private var navigation: String?
    private var authenticated: Int32 = -1
    private var accessEnabler: AccessEnabler!

    init(baseURL: URL, storage: URL, counter: SoakCounter) {
        self.counter = counter
        self.userAgent = SimulatedUserAgent(httpBase: baseURL)
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = .iOS
        configuration.storageDirectory = storage
        configuration.diagnostics = { diagnostic in
            if case .restExchange = diagnostic { counter.addRequest() }
        }
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = self
        self.accessEnabler = accessEnabler
    }

    /// Makes one facade call and waits until the SDK is idle.
    func call(_ body: (AccessEnabler) -> Void) async {
        counter.add()
        body(accessEnabler)
        await accessEnabler.waitUntilIdle()
    }

    /// One round: sign in through the login page, every kind of call, sign out through the
    /// logout page. Whether it ended as a healthy round does.
    func round() async -> Bool {
        await call { $0.checkAuthentication() }
        await call { $0.getAuthentication() }
        await call { $0.setSelectedProvider("NotBoarded") }
        guard let login = takeNavigation(),
            let landing = try? await userAgent.login(
                startingAt: login, username: "alice", password: "alice123", redirectPrefix: Self.redirect)
        else { return false }
        await call { $0.handleExternalURL(landing) }
        let signedIn = lock.withLock { authenticated } == ACCESS_ENABLER_STATUS_SUCCESS
        await call { $0.checkAuthentication() }
        await call { $0.checkAuthentication() }
        await call { $0.checkAuthorization("news") }
        await call { $0.getAuthorization("sports") }
        await call { $0.checkPreauthorizedResources(["news", "sports", "movies"]) }
        await call { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]) }
        await call { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]) }
        await call { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "zip"]) }
        await call { $0.getSelectedProvider() }
        await call { $0.logout() }
        if let logoutPage = takeNavigation(),
            let landing = try? await userAgent.follow(logoutPage, redirectPrefix: Self.redirect)
        {
            await call { $0.handleExternalURL(landing) }
        }
        let signedOut = lock.withLock { authenticated } == ACCESS_ENABLER_STATUS_ERROR
        return signedIn && signedOut
    }

    private func takeNavigation() -> String? {
        lock.withLock {
            defer { navigation = nil }
            return navigation
        }
    }

    func setRequestorComplete(_ status: Int32) {}
    func setAuthenticationStatus(_ status: Int32, errorCode code: String) { lock.withLock { authenticated = status } }
    func displayProviderDialog(_ mvpds: [MVPD]) {}
    func navigateToUrl(_ url: String) { lock.withLock { navigation = url } }
    func setToken(_ token: String, forResource resource: String) {}
    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {}
    func preauthorizedResources(_ resources: [String]) {}
    func setMetadataStatus(_ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any])
    {}
    func selectedProvider(_ mvpd: MVPD?) {}
    func sendTrackingData(_ data: [String], forEventType event: Int32) {}
}
