import Foundation
import Testing

@testable import AccessEnabler

/// A transport that answers from a script and notes, for every request, the injected
/// clock's reading when it arrived. DCR endpoints answer with fresh credentials and tokens
/// unless the script has an answer for them; each other request takes the next scripted
/// answer for its path (or the default answer when the script is used up).
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    struct Arrival: Sendable {
        var request: HTTPRequestMessage
        var at: Date
    }

    private let lock = NSLock()
    private let clock: any TimeSource
    private var script: [String: [HTTPResponseMessage]] = [:]
    private var arrivals: [Arrival] = []
    private var tokens = 0
    private let defaultAnswer: HTTPResponseMessage

    init(clock: any TimeSource, defaultAnswer: HTTPResponseMessage = .json(200, #"{"profiles":{}}"#)) {
        self.clock = clock
        self.defaultAnswer = defaultAnswer
    }

    /// Queues `answers` for requests whose path is `path`, in order.
    func script(_ path: String, _ answers: HTTPResponseMessage...) {
        lock.withLock { script[path, default: []] += answers }
    }

    var all: [Arrival] { lock.withLock { arrivals } }
    /// The `/api/v2` requests.
    var api: [Arrival] { all.filter { $0.request.url.path.hasPrefix("/api/v2") } }
    /// The requests to `path`.
    func arrivals(at path: String) -> [Arrival] { all.filter { $0.request.url.path == path } }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        let path = request.url.path
        return lock.withLock {
            arrivals.append(Arrival(request: request, at: clock.now))
            if var queued = script[path], !queued.isEmpty {
                let answer = queued.removeFirst()
                script[path] = queued
                return answer
            }
            switch path {
            case "/o/client/register":
                return .json(201, #"{"client_id":"client","client_secret":"secret"}"#)
            case "/o/client/token":
                tokens += 1
                return .json(201, #"{"access_token":"token-\#(tokens)","expires_in":86400}"#)
            default:
                return defaultAnswer
            }
        }
    }
}

extension HTTPResponseMessage {
    /// A 429 as Adobe Pass's edge sends it: an HTML page, plus any extra headers.
    static func throttled(_ headers: [(name: String, value: String)] = []) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: 429, headers: [("Content-Type", "text/html")] + headers,
            body: Data(
                "<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center></body></html>"
                    .utf8))
    }
}

enum MiddlewareFixtures {
    static let profilesPath = "/api/v2/SPX/profiles"

    /// A client over `transport` whose waits run on `clock`, with no jitter on retry waits
    /// (the schedule's exact seconds) unless `gate` says otherwise.
    static func client(
        _ transport: any HTTPTransport, clock: ManualTimeSource, gate: ThrottleGate? = nil,
        baseURL: URL = FakeAdobePass.baseURL
    ) -> RESTClient {
        RESTClient(
            baseURL: baseURL, softwareStatement: "statement", transport: transport, timeout: 30,
            credentials: InMemoryClientCredentialsCache(), timeSource: clock, userAgent: "UA",
            throttleGate: gate ?? ThrottleGate(clock: clock, jitter: .none))
    }
}

/// Waits (short real sleeps, up to a minute: only a bound on a hang, which a machine at
/// load 20 never reaches) until `condition` holds; the caller then checks it with `#expect`.
func eventually(_ condition: @Sendable () -> Bool) async {
    for _ in 0..<60_000 where !condition() {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// Lets other tasks run for a moment (used to show that something did not happen).
func settle() async {
    for _ in 0..<20 {
        await Task.yield()
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// Runs `body` and returns the typed error it throws, or records an issue.
func restFailure<T>(
    _ body: () async throws(RESTClientError) -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> RESTClientError? {
    do {
        _ = try await body()
        Issue.record("expected a failure", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Starts `body` in a task whose value is the typed error it threw, or `nil` on success.
func failingTask(_ body: @escaping @Sendable () async throws(RESTClientError) -> Void) -> Task<RESTClientError?, Never>
{
    Task {
        do throws(RESTClientError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}
