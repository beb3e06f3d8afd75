import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measurement 4: many simulated devices — each its own AccessEnabler, storage directory
/// and SimulatedPartnerFramework signed in to AppleBoarded — signing in through partner SSO
/// at setRequestor, all at once, against one sandbox over loopback HTTP.
///
/// The devices share one URLSessionTransport, so the client side keeps a bounded number of
/// connections (URLSession's per-host limit) and the thread-per-connection server stays far
/// below its connection limit.
enum ManyDevicesMeasurement {
    private struct Device {
        let client: AccessEnabler
        let observer: BenchmarkObserver
    }

    /// What one wave of devices measured.
    private struct Outcome {
        var completed = 0
        var authenticated = 0
        var allIdle = false
        var elapsed = 0.0
        var finishTimes = Sample()
        var rssBefore: Double?
        var peak: Double?
        var peakResetWorked = false
        var peakSockets = 0
        /// Process CPU seconds (every thread: SDK, URLSession, sandbox) during the wave.
        var cpu = 0.0
        /// The 1-minute load average when the wave started.
        var loadAtStart: Double?

        func perSecond() -> Double? { elapsed > 0 ? Double(completed) / elapsed : nil }

        func perDeviceKiB(_ count: Int) -> Double? {
            guard let peak, let rssBefore, count > 0 else { return nil }
            return (peak - rssBefore) / Double(count)
        }
    }

    static func run(devices count: Int, deadline: Double) async throws -> Benchmark.Section {
        let onDisk = try await wave(devices: count, deadline: deadline, storageBase: FileManager.default.temporaryDirectory)
        var rows: [Benchmark.Row] = [
            Benchmark.Row("completed / started", figures: [
                Benchmark.Figure("completed", Double(onDisk.completed)), Benchmark.Figure("authenticated after", Double(onDisk.authenticated)),
                Benchmark.Figure("devices", Double(count)),
            ], goal: "all complete, none lost", met: onDisk.completed == count && onDisk.authenticated == count,
            note: onDisk.allIdle ? nil : "deadline of \(Int(deadline)) s reached first"),
            rateRow("sign-ins per second", onDisk, goal: true),
            memoryRow("peak memory per device", onDisk, count, goal: true),
        ]
        var notes = [
            "\(count) AccessEnablers created first (each with its own storage directory and device), then setRequestor on all at once; time until every one is idle. Storage in the system temporary directory (a disk here).",
            "Memory per device = (VmHWM after − VmRSS before) / devices, from /proc/self/status" + (onDisk.peakResetWorked ? " (VmHWM reset through /proc/self/clear_refs before)." : " (VmHWM could not be reset: it may hold an earlier peak)."),
            "CPU per sign-in and cores busy count the whole process during the wave: SDK, URLSession/libcurl, the sandbox's server and handlers, the simulated devices. The load average counts other processes on the machine too.",
            "The per-device memory includes the sandbox's share (each device's DCR client, token and profile live in the same process).",
            "Connections: one shared URLSessionTransport (httpMaximumConnectionsPerHost \(URLSessionConfiguration.ephemeral.httpMaximumConnectionsPerHost)); peak sockets open in the process (client and server ends, listener included): \(onDisk.peakSockets).",
        ]
        if let memoryBase = BenchmarkScratch.memoryBackedBase {
            let inMemory = try await wave(devices: count, deadline: deadline, storageBase: memoryBase)
            rows.append(Benchmark.Row("completed, storage on /dev/shm (diagnostic)", figures: [
                Benchmark.Figure("completed", Double(inMemory.completed)), Benchmark.Figure("authenticated after", Double(inMemory.authenticated)),
                Benchmark.Figure("devices", Double(count)),
            ]))
            rows.append(rateRow("sign-ins per second, storage on /dev/shm (diagnostic)", inMemory, goal: false))
            notes.append("Diagnostic rows: a second wave with the storage directories on /dev/shm (tmpfs), where the store's fsyncs cost almost nothing.")
        }
        return Benchmark.Section(key: "manyDevices", title: "4. \(count) simulated devices signing in through SSO at once (one sandbox, loopback HTTP)", rows: rows, notes: notes)
    }

    private static func rateRow(_ label: String, _ outcome: Outcome, goal: Bool) -> Benchmark.Row {
        Benchmark.Row(label, figures: [
            Benchmark.Figure("rate", outcome.perSecond(), "/s"), Benchmark.Figure("wall", outcome.elapsed, "s"),
            Benchmark.Figure("median finish", outcome.finishTimes.median.map { $0 * 1e3 }, "ms"),
            Benchmark.Figure("last finish", outcome.finishTimes.percentile(100).map { $0 * 1e3 }, "ms"),
            Benchmark.Figure("CPU per sign-in", outcome.completed > 0 ? outcome.cpu / Double(outcome.completed) * 1e3 : nil, "ms"),
            Benchmark.Figure("cores busy", outcome.elapsed > 0 ? outcome.cpu / outcome.elapsed : nil),
            Benchmark.Figure("load at start", outcome.loadAtStart),
        ], goal: goal ? "> 200 /s on 2 cores" : nil, met: goal ? outcome.perSecond().map { $0 > 200 } ?? false : nil)
    }

    private static func memoryRow(_ label: String, _ outcome: Outcome, _ count: Int, goal: Bool) -> Benchmark.Row {
        Benchmark.Row(label, figures: [
            Benchmark.Figure("per device", outcome.perDeviceKiB(count), "KiB"), Benchmark.Figure("RSS before", outcome.rssBefore, "KiB"),
            Benchmark.Figure("VmHWM after", outcome.peak, "KiB"),
        ], goal: goal ? "< 256 KiB" : nil, met: goal ? outcome.perDeviceKiB(count).map { $0 < 256 } ?? false : nil)
    }

    /// One wave: a fresh sandbox and server, `count` devices with storage under `storageBase`.
    private static func wave(devices count: Int, deadline: Double, storageBase: URL) async throws -> Outcome {
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let scratch = BenchmarkScratch("devices", under: storageBase)
        defer { scratch.remove() }
        let transport = URLSessionTransport()
        let factory = BenchmarkClientFactory(baseURL: baseURL, clock: SandboxTimeSource(sandbox.clock), requestTimeout: 30)

        // Warm the process (URLSession, the server's first connection) so the memory
        // figure is the devices' and not one-time set-up.
        let warm = factory.make(storage: scratch.storage("warm"), partner: signedInDevice(sandbox), transport: transport, observer: BenchmarkObserver())
        warm.setRequestor("REF30")
        await warm.waitUntilIdle()

        var outcome = Outcome()
        outcome.peakResetWorked = ProcessMetrics.resetPeakResidentSize()
        outcome.rssBefore = ProcessMetrics.statusKiB("VmRSS")
        var devices: [Device] = []
        devices.reserveCapacity(count)
        for index in 0..<count {
            let observer = BenchmarkObserver()
            let client = factory.make(storage: scratch.storage("device-\(index)"), partner: signedInDevice(sandbox), transport: transport, observer: observer)
            devices.append(Device(client: client, observer: observer))
        }
        let sockets = SocketCounter()
        sockets.start()
        outcome.loadAtStart = Benchmark.Machine.oneMinuteLoad()
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        for device in devices { device.client.setRequestor("REF30") }
        let finishTimes = FinishTimes()
        let clients = devices.map(\.client)
        outcome.allIdle = await withDeadline(deadline) {
            await withTaskGroup(of: Void.self) { group in
                for client in clients {
                    group.addTask {
                        await client.waitUntilIdle()
                        finishTimes.add(ProcessMetrics.wallSeconds() - start)
                    }
                }
            }
        }
        outcome.elapsed = ProcessMetrics.wallSeconds() - start
        outcome.cpu = ProcessMetrics.cpuSeconds() - cpuStart
        sockets.stop()
        outcome.peakSockets = sockets.peak
        outcome.peak = ProcessMetrics.statusKiB("VmHWM")
        outcome.finishTimes = finishTimes.sample
        outcome.completed = devices.filter { $0.observer.snapshot.requestorStatus == 1 }.count

        // Proof that each completion is a sign-in: every device now checks as authenticated.
        if outcome.allIdle {
            for device in devices { device.client.checkAuthentication() }
            for device in devices {
                await device.client.waitUntilIdle()
                if device.observer.snapshot.authenticationStatus == 1 { outcome.authenticated += 1 }
            }
        }
        return outcome
    }

    private static func signedInDevice(_ sandbox: PassSandbox) -> SimulatedPartnerFramework {
        SimulatedPartnerFramework(sandbox: sandbox, signedIn: SystemSignIn(
            provider: "AppleBoarded", username: "alice", expiresAt: sandbox.clock.now.addingTimeInterval(86_400)))
    }
}

/// When each device finished, in seconds from the start.
private final class FinishTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times = Sample()

    func add(_ seconds: Double) { lock.withLock { times.add(seconds) } }
    var sample: Sample { lock.withLock { times } }
}

/// Samples how many sockets the process holds open, every few milliseconds on its own
/// thread, until stopped; keeps the peak.
final class SocketCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false
    private var highest = 0
    private let done = DispatchSemaphore(value: 0)

    var peak: Int { lock.withLock { highest } }

    func start() {
        lock.withLock { running = true }
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let open = Self.openSockets()
                lock.withLock { highest = max(highest, open) }
                usleep(10_000)
            }
            done.signal()
        }
        thread.name = "benchmark.socket-counter"
        thread.start()
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }

    private static func openSockets() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return entries.reduce(0) { count, entry in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? ""
            return count + (target.hasPrefix("socket:") ? 1 : 0)
        }
    }
}
