import Foundation

@testable import PassSandbox

/// A gate a handler can wait at until the test opens it.
actor HTTPTestGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var arrivals = 0

    func wait() async {
        arrivals += 1
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// The handler of the server tests.
///
/// - `/drop` answers with `dropConnection`.
/// - `/close` answers with `Connection: close`.
/// - `/gate` waits at `gate` before answering.
/// - Anything else describes the request in a text body, one fact per line:
///   `method M`, `path P`, `query NAME=VALUE` (each, decoded), `header NAME: VALUE`
///   (each), then `body` followed by the body bytes.
struct HTTPTestHandler: SandboxRequestHandler {
    let gate = HTTPTestGate()

    func respond(to request: SandboxRequest) async -> SandboxResponse {
        switch request.path {
        case "/drop":
            return SandboxResponse(status: 200, body: Array("never sent".utf8), dropConnection: true)
        case "/close":
            return SandboxResponse(status: 200, headers: [("Connection", "close")], body: Array("bye".utf8))
        case "/gate":
            await gate.wait()
            return SandboxResponse(status: 200, body: Array("gate passed".utf8))
        default:
            var lines = ["method \(request.method)", "path \(request.path)"]
            lines += request.query.map { "query \($0.name)=\($0.value)" }
            lines += request.headers.map { "header \($0.name): \($0.value)" }
            lines.append("body")
            let body = Array((lines.joined(separator: "\n") + "\n").utf8) + request.body
            return SandboxResponse(
                status: 200, headers: [("Content-Type", "text/plain"), ("X-Echo-Path", request.path)], body: body)
        }
    }
}

/// The limits of a test server whose test is not about its timeouts: the sizes and the
/// connection cap of a default server, and timeouts of ten minutes (an hour between
/// requests), so a machine at load 20, where a test can take minutes, never meets them.
let patientLimits = LoopbackHTTPServerLimits(headerTimeout: 600, idleTimeout: 3_600, bodyTimeout: 600)

/// Starts a server for one test and shuts it down afterwards, whatever happens.
func withHTTPTestServer<Result>(
    limits: LoopbackHTTPServerLimits = patientLimits,
    handler: HTTPTestHandler = HTTPTestHandler(),
    _ body: (LoopbackHTTPServer, Int) async throws -> Result
) async throws -> Result {
    let server = LoopbackHTTPServer(limits: limits, handler: handler)
    let port = try server.start()
    defer { server.shutdown() }
    return try await body(server, port)
}

/// A well-formed GET with the given extra header lines.
func httpGet(_ target: String, _ extraHeaders: [String] = []) -> String {
    (["GET \(target) HTTP/1.1", "Host: 127.0.0.1"] + extraHeaders).joined(separator: "\r\n") + "\r\n\r\n"
}
