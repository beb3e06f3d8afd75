import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measurement 4: many simulated devices — each its own AccessEnabler, storage directory
/// and SimulatedPartnerFramework signed in to AppleBoarded — calling setRequestor at the
/// same instant and signing in through partner SSO against one sandbox over loopback HTTP.
///
/// The devices share one CurlTransport (the default), so the process holds a bounded number
/// of sockets (its six connections per host) however many devices there are, and the
/// thread-per-connection server stays far below its connection cap. A shared client queue
/// serves requests first come, first served: every device's first request before any
/// device's second. So that devices finish as they are served, not all at the end, each
/// device's first request waits for one of a bounded number of ``SignInSlots`` and keeps it
/// until its sign-in completes, as clients wait to be accepted by a busy server.
///
/// The same wave is also signed in by ``BareSSOClient`` first, on bare libcurl (the floor of
/// the wave: the rate goal is judged against it) and on bare URLSession (the earlier floor),
/// each with the same slots and a fresh sandbox.
enum ManyDevicesMeasurement {
    /// The least share of the bare wave's rate the SDK's wave must reach.
    static let rateShareGoal = 0.8
    /// The most memory one waiting device may hold, KiB.
    static let memoryGoalKiB = 32.0

    /// How a wave is run.
    struct Settings: Sendable {
        /// Devices in the wave.
        var devices: Int
        /// Devices signing in at once; the others wait for a slot.
        var slots: Int
        /// Seconds the wave may take before the measurement stops waiting.
        var deadline: Double
    }

    private struct Device {
        let client: AccessEnabler
        let observer: BenchmarkObserver
    }

    /// What one wave measured.
    private struct Outcome {
        var completed = 0
        var authenticated = 0
        var allCompleted = false
        /// Seconds from the wave's start until each device's `setRequestorComplete(1)`.
        var completionTimes = Sample()
        /// Seconds from the wave's start until every device's storage was on disk.
        var durableAfter: Double?
        var rssBefore: Double?
        var peak: Double?
        var peakResetWorked = false
        var resources = ResourcePeaks.Peaks()
        /// Process CPU seconds (every thread: SDK, libcurl, sandbox) until the last completion.
        var cpu = 0.0
        /// Seconds to create the AccessEnablers before the wave.
        var creation = 0.0
        /// VmRSS once the devices are created, before the first call, KiB.
        var rssCreated: Double?

        /// The last completion, in seconds from the start.
        var lastCompletion: Double? { completionTimes.percentile(100) }

        func perSecond() -> Double? {
            guard let last = lastCompletion, last > 0 else { return nil }
            return Double(completed) / last
        }

        func perDeviceKiB(_ count: Int) -> Double? {
            guard let peak, let rssBefore, count > 0 else { return nil }
            // Linux keeps RSS counts per thread and folds them in late (by up to 64 pages a
            // thread), so a wave that grew by less than that reads a little negative: none.
            return max(0, peak - rssBefore) / Double(count)
        }
    }

    static func run(_ settings: Settings) async throws -> Benchmark.Section {
        let count = settings.devices
        // The bare wave first, on a heap the SDK's wave has not grown: a later wave would fit
        // in pages the earlier one left resident, and its memory figure would read too low.
        let bare = try await bareWave(settings, on: .libcurl)
        let bareURLSession = try await bareWave(settings, on: .urlSession)
        let outcome = try await wave(settings)
        let bareRate = bare.perSecond()
        let rateShare = outcome.perSecond().flatMap { rate in bareRate.flatMap { $0 > 0 ? rate / $0 : nil } }
        let urlSessionShare = outcome.perSecond().flatMap { rate in
            bareURLSession.perSecond().flatMap { $0 > 0 ? rate / $0 : nil }
        }
        let times = outcome.completionTimes
        let spreadMet: Bool = {
            guard let half = times.percentile(50), let all = times.percentile(100), outcome.allCompleted else {
                return false
            }
            return half <= 0.6 * all
        }()
        let perDevice = outcome.perDeviceKiB(count)
        let rows: [Benchmark.Row] = [
            Benchmark.Row(
                "completed / started",
                figures: [
                    Benchmark.Figure("completed", Double(outcome.completed)),
                    Benchmark.Figure("authenticated after", Double(outcome.authenticated)),
                    Benchmark.Figure("devices", Double(count)),
                ], goal: "all \(count) complete and authenticated",
                met: outcome.completed == count && outcome.authenticated == count,
                note: outcome.allCompleted ? nil : "deadline of \(Int(settings.deadline)) s reached first"),
            Benchmark.Row(
                "sign-ins per second",
                figures: [
                    Benchmark.Figure("rate", outcome.perSecond(), "/s"),
                    Benchmark.Figure("wall", outcome.lastCompletion, "s"),
                    Benchmark.Figure(
                        "CPU per sign-in", outcome.completed > 0 ? outcome.cpu / Double(outcome.completed) * 1e3 : nil,
                        "ms"),
                    Benchmark.Figure("cores busy", outcome.lastCompletion.flatMap { $0 > 0 ? outcome.cpu / $0 : nil }),
                    Benchmark.Figure("share of the bare wave's rate", rateShare),
                    Benchmark.Figure("share of the bare URLSession wave's rate", urlSessionShare),
                ], goal: "≥ \(rateShareGoal) × the bare wave's",
                met: outcome.allCompleted && bare.allCompleted && (rateShare.map { $0 >= rateShareGoal } ?? false)),
            Benchmark.Row(
                "completed by (from the wave's start)",
                figures: [
                    Benchmark.Figure("10 %", times.percentile(10), "s"),
                    Benchmark.Figure("50 %", times.percentile(50), "s"),
                    Benchmark.Figure("90 %", times.percentile(90), "s"),
                    Benchmark.Figure("100 %", times.percentile(100), "s"),
                ], goal: "finish as served: 50 % by 60 % of the wave", met: spreadMet),
            Benchmark.Row(
                "peak memory per device",
                figures: [
                    Benchmark.Figure("per device", perDevice, "KiB"),
                    Benchmark.Figure("RSS before", outcome.rssBefore, "KiB"),
                    Benchmark.Figure("VmHWM after", outcome.peak, "KiB"),
                    Benchmark.Figure(
                        "created, before the first call",
                        outcome.rssCreated.flatMap { created in
                            outcome.rssBefore.map { max(0, created - $0) / Double(count) }
                        },
                        "KiB"),
                ], goal: "≤ \(Int(memoryGoalKiB)) KiB", met: perDevice.map { $0 <= memoryGoalKiB } ?? false),
            Benchmark.Row(
                "bare client wave",
                figures: [
                    Benchmark.Figure("rate", bareRate, "/s"),
                    Benchmark.Figure("per device", bare.perDeviceKiB(count), "KiB"),
                    Benchmark.Figure("completed", Double(bare.completed)),
                    Benchmark.Figure("wall", bare.lastCompletion, "s"),
                    Benchmark.Figure("RSS before", bare.rssBefore, "KiB"),
                    Benchmark.Figure(
                        "CPU per sign-in", bare.completed > 0 ? bare.cpu / Double(bare.completed) * 1e3 : nil, "ms"),
                ], note: bare.allCompleted ? nil : "deadline of \(Int(settings.deadline)) s reached first"),
            Benchmark.Row(
                "bare client wave (URLSession)",
                figures: [
                    Benchmark.Figure("rate", bareURLSession.perSecond(), "/s"),
                    Benchmark.Figure("per device", bareURLSession.perDeviceKiB(count), "KiB"),
                    Benchmark.Figure("completed", Double(bareURLSession.completed)),
                    Benchmark.Figure("wall", bareURLSession.lastCompletion, "s"),
                    Benchmark.Figure("RSS before", bareURLSession.rssBefore, "KiB"),
                    Benchmark.Figure(
                        "CPU per sign-in",
                        bareURLSession.completed > 0
                            ? bareURLSession.cpu / Double(bareURLSession.completed) * 1e3 : nil, "ms"),
                ], note: bareURLSession.allCompleted ? nil : "deadline of \(Int(settings.deadline)) s reached first"),
            Benchmark.Row(
                "every profile on disk (diagnostic)",
                figures: [
                    Benchmark.Figure("after", outcome.durableAfter, "s"),
                    Benchmark.Figure("rate", outcome.durableAfter.flatMap { $0 > 0 ? Double(count) / $0 : nil }, "/s"),
                ]),
            Benchmark.Row(
                "process resources at their peak (diagnostic)",
                figures: [
                    Benchmark.Figure("descriptors", Double(outcome.resources.descriptors)),
                    Benchmark.Figure("sockets", Double(outcome.resources.sockets)),
                    Benchmark.Figure("threads", Double(outcome.resources.threads)),
                    Benchmark.Figure("slots", Double(settings.slots)),
                ]),
        ]
        let notes = [
            "\(count) AccessEnablers created first (\(String(format: "%.1f", outcome.creation)) s; each with its own storage directory and device), then setRequestor on all at the same instant. A device has completed when setRequestorComplete(1) reaches its delegate; the rate is completions over the time of the last one.",
            "At most \(settings.slots) devices sign in at once: a device's first request waits for a slot, which it keeps until its sign-in completes (a shared first-come-first-served client queue would otherwise finish every device at the end of the wave). The wait counts in the completion times; the SDK's request timeout is the wave's deadline, \(Int(settings.deadline)) s, so waiting for a slot cannot time a request out.",
            "Proof that each completion is a sign-in: afterwards every device answers checkAuthentication with status 1.",
            "Memory per device = (VmHWM after − VmRSS before) / devices, from /proc/self/status"
                + (outcome.peakResetWorked
                    ? " (VmHWM reset through /proc/self/clear_refs before)"
                    : " (VmHWM could not be reset: it may hold an earlier peak)")
                + "; it includes the sandbox's state for each device (DCR client, token, profile) and the stored profiles waiting to be written.",
            "CPU per sign-in and cores busy count the whole process until the last completion: SDK, libcurl, the "
                + "sandbox's server and handlers, the simulated devices.",
            "Storage in the system temporary directory. The store writes behind the callback; 'every profile on disk' is when the last device's files were durable (fsync), measured from the wave's start.",
            "Bare client wave: the same \(count) devices (new simulated devices, a new sandbox and server) signed in "
                + "by BareSSOClient on bare libcurl (BareLibcurlClient: libcurl's multi interface and nothing else) "
                + "— the same six requests, the same \(settings.slots) slots, nothing stored — before the SDK's "
                + "wave, on a heap that wave has not grown; its rate and memory per device are measured the same "
                + "way. The rate goal is the SDK's rate as a share of this one, measured in the same run. 'bare "
                + "client wave (URLSession)' is the same wave on one bare URLSession (the earlier floor), run second.",
            "Before each wave's memory baseline, freed heap is handed back to the system (malloc_trim), so neither wave's baseline holds the other's leftovers.",
            "Peaks sampled every 10 ms from /proc/self: one shared CurlTransport (at most 6 connections per host); "
                + "file descriptor limit \(ResourcePeaks.descriptorLimit.map(String.init) ?? "none").",
        ]
        let completedAll = outcome.completed == count && outcome.authenticated == count
        let rateMet = outcome.allCompleted && bare.allCompleted && (rateShare.map { $0 >= rateShareGoal } ?? false)
        let halfShare = times.percentile(50).flatMap { half in times.percentile(100).map { half / $0 * 100 } }
        let goals = [
            Benchmark.Goal(
                "\(count) devices: completed and authenticated",
                Benchmark.Figure("devices", Double(min(outcome.completed, outcome.authenticated))),
                goal: "= \(count)", met: completedAll),
            Benchmark.Goal(
                "\(count) devices: sign-ins per second", Benchmark.Figure("share of the bare wave's rate", rateShare),
                goal: "≥ \(rateShareGoal)",
                met: rateMet),
            Benchmark.Goal(
                "\(count) devices: half of them done by", Benchmark.Figure("share of the wave", halfShare, "%"),
                goal: "≤ 60 %", met: spreadMet),
            Benchmark.Goal(
                "\(count) devices: peak memory per device", Benchmark.Figure("per device", perDevice, "KiB"),
                goal: "≤ \(Int(memoryGoalKiB)) KiB",
                met: perDevice.map { $0 <= memoryGoalKiB } ?? false),
        ]
        return Benchmark.Section(
            key: "manyDevices",
            title: "4. \(count) simulated devices signing in through SSO at once (one sandbox, loopback HTTP)",
            rows: rows, notes: notes,
            goals: goals)
    }

    /// One wave: a fresh sandbox and server, `settings.devices` devices with storage in the
    /// system temporary directory.
    private static func wave(_ settings: Settings) async throws -> Outcome {
        let count = settings.devices
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let scratch = BenchmarkScratch("devices")
        defer { scratch.remove() }
        let shared = CurlTransport()
        let factory = BenchmarkClientFactory(
            baseURL: baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: settings.deadline)

        // Warm the process (the transport's thread, the server's first connection) so the memory
        // figure is the devices' and not one-time set-up.
        let warm = factory.make(
            storage: scratch.storage("warm"), partner: signedInDevice(sandbox), transport: shared,
            observer: BenchmarkObserver())
        warm.setRequestor("REF30")
        await warm.waitUntilIdle()

        var outcome = Outcome()
        ProcessMetrics.returnFreedMemory()
        outcome.peakResetWorked = ProcessMetrics.resetPeakResidentSize()
        outcome.rssBefore = ProcessMetrics.statusKiB("VmRSS")
        let slots = SignInSlots(capacity: settings.slots)
        let tally = CompletionTally(expected: count)
        let creationStart = ProcessMetrics.wallSeconds()
        var devices: [Device] = []
        devices.reserveCapacity(count)
        for index in 0..<count {
            let transport = SlottedTransport(shared, slots: slots)
            let observer = BenchmarkObserver { _ in
                transport.finish()
                tally.add()
            }
            let client = factory.make(
                storage: scratch.storage("device-\(index)"), partner: signedInDevice(sandbox), transport: transport,
                observer: observer)
            devices.append(Device(client: client, observer: observer))
        }
        outcome.creation = ProcessMetrics.wallSeconds() - creationStart
        outcome.rssCreated = ProcessMetrics.statusKiB("VmRSS")

        let resources = ResourcePeaks()
        resources.start()
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        for device in devices { device.client.setRequestor("REF30") }
        outcome.allCompleted = await withDeadline(settings.deadline) { await tally.waitForAll() }
        outcome.cpu = ProcessMetrics.cpuSeconds() - cpuStart
        for device in devices {
            let state = device.observer.snapshot
            guard state.requestorStatus == 1, let at = state.requestorCompletedAt else { continue }
            outcome.completed += 1
            outcome.completionTimes.add(at - start)
        }

        // Every device's files on disk: each waits for its own batches, which go first.
        if outcome.allCompleted {
            for device in devices { await device.client.waitUntilIdle() }
            outcome.durableAfter = ProcessMetrics.wallSeconds() - start
        }
        resources.stop()
        outcome.resources = resources.peaks
        outcome.peak = ProcessMetrics.statusKiB("VmHWM")

        // Proof that each completion is a sign-in: every device now checks as authenticated.
        if outcome.allCompleted {
            for device in devices { device.client.checkAuthentication() }
            for device in devices {
                await device.client.waitUntilIdle()
                if device.observer.snapshot.authenticationStatus == 1 { outcome.authenticated += 1 }
            }
        }
        return outcome
    }

    /// The bare HTTP client a bare wave signs in on.
    private enum BareKind { case libcurl, urlSession }

    /// The bare client's wave: a fresh sandbox and server, `settings.devices` new devices,
    /// each signed in by ``BareSSOClient`` on one shared bare client of `kind`, through the
    /// same slots.
    private static func bareWave(_ settings: Settings, on kind: BareKind) async throws -> Outcome {
        let count = settings.devices
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let session = BareSSOClient.makeSession()
        defer { session.invalidateAndCancel() }
        let libcurl = kind == .libcurl ? try BareLibcurlClient() : nil
        defer { libcurl?.shutdown() }
        let client = BareSSOClient(
            http: libcurl.map { .libcurl($0) } ?? .urlSession(session), baseURL: baseURL, requestor: "REF30")
        // Warm the process and the session's first connection, as the SDK's wave does.
        _ = try? await client.signIn(device: signedInDevice(sandbox))

        var outcome = Outcome()
        ProcessMetrics.returnFreedMemory()
        outcome.peakResetWorked = ProcessMetrics.resetPeakResidentSize()
        outcome.rssBefore = ProcessMetrics.statusKiB("VmRSS")
        let slots = SignInSlots(capacity: settings.slots)
        let tally = CompletionTally(expected: count)
        let completions = CompletionTimes()
        let devices = (0..<count).map { _ in signedInDevice(sandbox) }
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        for device in devices {
            Task {
                await slots.acquire()
                let signedIn = (try? await client.signIn(device: device)) != nil
                slots.release()
                if signedIn { completions.add(ProcessMetrics.wallSeconds() - start) }
                tally.add()
            }
        }
        outcome.allCompleted = await withDeadline(settings.deadline) { await tally.waitForAll() }
        outcome.cpu = ProcessMetrics.cpuSeconds() - cpuStart
        outcome.peak = ProcessMetrics.statusKiB("VmHWM")
        for time in completions.values {
            outcome.completed += 1
            outcome.completionTimes.add(time)
        }
        outcome.allCompleted = outcome.allCompleted && outcome.completed == count
        return outcome
    }

    private static func signedInDevice(_ sandbox: PassSandbox) -> SimulatedPartnerFramework {
        SimulatedPartnerFramework(
            sandbox: sandbox,
            signedIn: SystemSignIn(
                provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
    }
}

/// Counts completions and wakes whoever waits for all of them.
private final class CompletionTally: @unchecked Sendable {
    private let lock = NSLock()
    private let expected: Int
    private var count = 0
    private var waiter: CheckedContinuation<Void, Never>?

    init(expected: Int) { self.expected = expected }

    func add() {
        let ready: CheckedContinuation<Void, Never>? = lock.withLock {
            count += 1
            guard count >= expected else { return nil }
            defer { waiter = nil }
            return waiter
        }
        ready?.resume()
    }

    /// Returns once `expected` completions were counted.
    func waitForAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = lock.withLock {
                guard count < expected else { return true }
                waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// The completion times of a wave's devices, from any thread.
private final class CompletionTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Double] = []

    func add(_ seconds: Double) { lock.withLock { times.append(seconds) } }

    var values: [Double] { lock.withLock { times } }
}
