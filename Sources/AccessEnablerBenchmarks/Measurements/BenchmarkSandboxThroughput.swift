import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Measurement 5: requests per second the sandbox answers over loopback HTTP on kept-alive
/// connections: N threads, each with one ``KeepAliveClient``, sending
/// `GET /api/v2/REF30/configuration` with a bearer token from DCR as fast as answers come,
/// for a fixed time.
enum SandboxThroughputMeasurement {
    static func run(connections: Int, seconds: Double) async throws -> Benchmark.Section {
        let sandbox = PassSandbox(world: .default, clock: SandboxClock())
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let port = server.port ?? 0
        let session = BareSSOClient.makeSession()
        defer { session.invalidateAndCancel() }
        let dcr = BareSSOClient(http: .urlSession(session), baseURL: baseURL, requestor: "REF30")
        let token = try await dcr.accessToken()
        let request = Array(
            ("GET /api/v2/REF30/configuration HTTP/1.1\r\n" + "Host: 127.0.0.1:\(port)\r\n"
                + "Authorization: Bearer \(token)\r\n"
                + "AP-Device-Identifier: fingerprint \(Data("benchmark-device".utf8).base64EncodedString())\r\n"
                + "X-Device-Info: \(dcr.deviceInfoHeader)\r\n"
                + "Accept: application/json\r\n" + "User-Agent: \(dcr.userAgent)\r\n\r\n").utf8)

        let tally = Tally()
        let cpuStart = ProcessMetrics.cpuSeconds()
        let start = ProcessMetrics.wallSeconds()
        let deadline = start + seconds
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<connections {
                group.enter()
                let thread = Thread {
                    hammer(port: UInt16(port), request: request, until: deadline, tally: tally)
                    group.leave()
                }
                thread.name = "benchmark.keep-alive-\(index)"
                thread.start()
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        let elapsed = ProcessMetrics.wallSeconds() - start
        let cpu = ProcessMetrics.cpuSeconds() - cpuStart
        let counts = tally.counts
        let rate = elapsed > 0 ? Double(counts.ok) / elapsed : nil
        var notes = [
            "\(connections) client threads, one kept-alive connection each, \(String(format: "%.1f", seconds)) s; every answer read completely (head + Content-Length body) before the next request.",
            "Client and server share the same cores: the client's CPU is part of the figure. Process CPU during the run: \(String(format: "%.2f", cpu)) s over \(String(format: "%.2f", elapsed)) s wall.",
        ]
        if counts.failed > 0 || counts.reconnects > 0 {
            notes.append("non-200 answers: \(counts.failed); reconnects: \(counts.reconnects)")
        }
        let met = rate.map { $0 > 20_000 && counts.failed == 0 } ?? false
        return Benchmark.Section(
            key: "sandboxThroughput",
            title: "5. Sandbox requests per second on keep-alive connections (GET configuration)",
            rows: [
                Benchmark.Row(
                    "requests per second",
                    figures: [
                        Benchmark.Figure("rate", rate, "/s"), Benchmark.Figure("answered", Double(counts.ok)),
                        Benchmark.Figure("connections", Double(connections)), Benchmark.Figure("wall", elapsed, "s"),
                    ], goal: "> 20000 /s on 2 cores", met: met)
            ], notes: notes,
            goals: [
                Benchmark.Goal(
                    "sandbox on \(connections) keep-alive connections", Benchmark.Figure("rate", rate, "/s"),
                    goal: "> 20000 /s", met: met)
            ])
    }

    /// One connection's loop: request, answer, repeat until `deadline`; reconnects (a
    /// bounded number of times) when the server closes.
    private static func hammer(port: UInt16, request: [UInt8], until deadline: Double, tally: Tally) {
        let client = KeepAliveClient(port: port)
        var reconnects = 0
        var connected = false
        while ProcessMetrics.wallSeconds() < deadline, reconnects < 10 {
            do {
                if !connected {
                    try client.connect()
                    connected = true
                }
                let answer = try client.exchange(request)
                tally.add(ok: answer.status == 200)
                if !answer.keepAlive {
                    client.close()
                    connected = false
                    reconnects += 1
                    tally.reconnected()
                }
            } catch {
                client.close()
                connected = false
                reconnects += 1
                tally.reconnected()
            }
        }
        client.close()
    }

    /// Answers counted across threads.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var ok = 0
        private var failed = 0
        private var reconnects = 0

        func add(ok success: Bool) { lock.withLock { if success { ok += 1 } else { failed += 1 } } }
        func reconnected() { lock.withLock { reconnects += 1 } }
        var counts: (ok: Int, failed: Int, reconnects: Int) { lock.withLock { (ok, failed, reconnects) } }
    }
}
