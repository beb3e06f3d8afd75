import AccessEnabler
import AccessEnablerScenarios
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measurement 8: what a device costs while it waits. One AccessEnabler calls setRequestor
/// against a server that never answers (``SilentLoopbackServer``), so its first request
/// waits until the request timeout; the process's CPU time over that wait, per second of
/// it, is the figure. The same wait is measured on the default transport (libcurl) on a
/// connection opened for the request (as an app's first request, or a request with a body
/// after the connection idled) and on a connection kept alive from an earlier answer; on
/// URLSessionTransport; and for one bare request on a new connection, on bare libcurl (the
/// floor: what the platform's HTTP stack costs by itself) and on bare URLSession.
enum WaitingMeasurement {
    /// The goal: CPU seconds per second of waiting.
    static let goal = 0.002

    static func run(wait seconds: TimeInterval) async throws -> Benchmark.Section {
        let server = try SilentLoopbackServer()
        defer { server.shutdown() }
        let scratch = BenchmarkScratch("waiting")
        defer { scratch.remove() }

        let newConnection = await sdkWait(
            server: server, storage: scratch.storage("new"), seconds: seconds, over: CurlTransport(), warm: false)
        let keptAlive = await sdkWait(
            server: server, storage: scratch.storage("kept-alive"), seconds: seconds, over: CurlTransport(), warm: true)
        let onURLSession = await sdkWait(
            server: server, storage: scratch.storage("urlsession"), seconds: seconds, over: URLSessionTransport(),
            warm: false)
        let bareLibcurl = await bareLibcurlWait(server: server, seconds: seconds)
        let bare = await bareWait(server: server, seconds: seconds)

        func row(_ label: String, _ wait: Wait?, judged: Bool) -> Benchmark.Row {
            Benchmark.Row(
                label,
                figures: [
                    Benchmark.Figure("cores", wait?.cores), Benchmark.Figure("CPU", wait.map { $0.cpu * 1e3 }, "ms"),
                    Benchmark.Figure("wall", wait?.wall, "s"),
                ], goal: judged ? "≤ \(goal) cores" : nil, met: judged ? wait.map { $0.cores <= goal } ?? false : nil,
                note: wait == nil ? "the wait did not end as expected" : nil)
        }
        let rows = [
            row("CPU while one request waits", newConnection, judged: true),
            row("CPU while one request waits, kept-alive connection (diagnostic)", keptAlive, judged: false),
            row("CPU while one request waits, URLSessionTransport", onURLSession, judged: false),
            row("bare client (libcurl), one request waits on a new connection (floor)", bareLibcurl, judged: false),
            row("bare client (URLSession), one request waits on a new connection", bare, judged: false),
        ]
        let notes = [
            "A server on 127.0.0.1 that reads every request and never answers; the SDK's request timeout is \(format(seconds)) s. CPU = user + system time of the whole process (CLOCK_PROCESS_CPUTIME_ID) from setRequestor until setRequestorComplete(0); cores = CPU seconds per wall second.",
            "The SDK's row: a new AccessEnabler with its own CurlTransport (the default), so its first request (DCR "
                + "register) opens a connection; the kept-alive row first opens the transport's connection with an "
                + "answered GET, then the same request waits on it; the URLSessionTransport row is the first row on "
                + "URLSessionTransport.",
            "The floor: one request of a bare libcurl client (BareLibcurlClient) on a new connection, ended by "
                + "libcurl at the same timeout; beside it one bare URLSession data task, cancelled after the same "
                + "time.",
            "FoundationNetworking leaves the write-readiness source it registers while a connection is being opened "
                + "in place after libcurl asks only for reads, so until the first answer on that connection arrives "
                + "the source fires continuously (strace: poll, read and write on an eventfd, epoll_ctl, a few "
                + "thousand times a second): the URLSession rows. The libcurl transport sleeps in curl_multi_poll "
                + "until a socket, a timer or a new request wakes it.",
        ]
        let goals = [
            Benchmark.Goal(
                "CPU while one request waits", Benchmark.Figure("cores", newConnection?.cores), goal: "≤ \(goal)",
                met: newConnection.map { $0.cores <= goal } ?? false)
        ]
        return Benchmark.Section(
            key: "waiting", title: "8. CPU while a request waits for a server that never answers", rows: rows,
            notes: notes, goals: goals)
    }

    /// One wait: CPU seconds, wall seconds, and their ratio.
    struct Wait {
        var cpu: Double
        var wall: Double
        var cores: Double { wall > 0 ? cpu / wall : 0 }
    }

    /// setRequestor on a new AccessEnabler over `transport` whose first request waits `seconds`
    /// for the silent server; with `warm`, on a connection the transport opened and kept alive
    /// before.
    private static func sdkWait(
        server: SilentLoopbackServer, storage: URL, seconds: TimeInterval, over transport: any HTTPTransport, warm: Bool
    ) async -> Wait? {
        if warm {
            let request = HTTPRequestMessage(method: "GET", url: server.baseURL.appendingPathComponent("warm"))
            guard (try? await transport.send(request, timeout: 5))?.status == 200 else { return nil }
        }
        let completed = RequestorCompletion()
        let observer = BenchmarkObserver { status in completed.finish(status) }
        let factory = BenchmarkClientFactory(
            baseURL: server.baseURL, clock: SystemTimeSource(), requestTimeout: seconds)
        let client = factory.make(storage: storage, partner: nil, transport: transport, observer: observer)
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        let status = await completed.wait { client.setRequestor("REF30") }
        let wait = Wait(cpu: ProcessMetrics.cpuSeconds() - cpuStart, wall: ProcessMetrics.wallSeconds() - start)
        await client.waitUntilIdle()
        return status == 0 ? wait : nil
    }

    /// A bare libcurl request on a new connection, ended by libcurl after `seconds`: the
    /// SDK's first request, DCR's registration, as the bare client sends it.
    private static func bareLibcurlWait(server: SilentLoopbackServer, seconds: TimeInterval) async -> Wait? {
        guard let client = try? BareLibcurlClient() else { return nil }
        defer { client.shutdown() }
        let request = BareSSOClient(http: .libcurl(client), baseURL: server.baseURL, requestor: "REF30").registration
        let url = server.baseURL.appendingPathComponent(request.path)
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        let failed =
            (try? await client.send(request.method, url, request.headers, body: request.body, timeout: seconds)) == nil
        let wait = Wait(cpu: ProcessMetrics.cpuSeconds() - cpuStart, wall: ProcessMetrics.wallSeconds() - start)
        return failed ? wait : nil
    }

    /// A bare data task on a new connection, cancelled after `seconds`: DCR's registration,
    /// as the bare client sends it.
    private static func bareWait(server: SilentLoopbackServer, seconds: TimeInterval) async -> Wait? {
        let session = BareSSOClient.makeSession()
        defer { session.invalidateAndCancel() }
        let registration = BareSSOClient(
            http: .urlSession(session), baseURL: server.baseURL, requestor: "REF30"
        ).registration
        var request = URLRequest(
            url: server.baseURL.appendingPathComponent(registration.path), timeoutInterval: seconds)
        request.httpMethod = registration.method
        for (name, value) in registration.headers { request.addValue(value, forHTTPHeaderField: name) }
        request.httpBody = registration.body
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        let failed: Bool = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { _, _, error in continuation.resume(returning: error != nil) }
            task.resume()
            // FoundationNetworking does not keep the request's own timeout: end it as the SDK does.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { task.cancel() }
        }
        let wait = Wait(cpu: ProcessMetrics.cpuSeconds() - cpuStart, wall: ProcessMetrics.wallSeconds() - start)
        return failed ? wait : nil
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}

/// Resumes whoever waits for `setRequestorComplete`, with its status.
private final class RequestorCompletion: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: CheckedContinuation<Int32, Never>?
    private var status: Int32?

    /// Runs `call` and returns the status of the `setRequestorComplete` that follows.
    func wait(_ call: () -> Void) async -> Int32 {
        await withCheckedContinuation { continuation in
            lock.withLock { waiter = continuation }
            call()
        }
    }

    func finish(_ status: Int32) {
        let waiter: CheckedContinuation<Int32, Never>? = lock.withLock {
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: status)
    }
}
