import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The facade over the default transport when PassSandbox's answers are cut: a hostile
/// server forwards every request to the sandbox and writes its answer back, except the one
/// a test arms, which it cuts at a byte offset by a close (FIN) or a reset (RST). At every
/// offset of the answer the call ends in exactly its one documented terminal callback, and
/// the stored session stays.
@Suite(.timeLimit(.minutes(20)))
struct HostileFacadeTests {
    /// A facade whose environment is a hostile server in front of the sandbox.
    final class HostileRig: @unchecked Sendable {
        let proxy: HostileHTTPServer
        let harness: RegularHarness
        private let lock = NSLock()
        private var sandbox: PassSandbox?
        private var armed: (pathSuffix: String, offset: Int, ending: HostileHTTPServer.Ending)?
        private var lastFull: [UInt8] = []

        init() throws {
            let box = Box()
            proxy = try HostileHTTPServer { request in await box.rig?.answer(request) ?? .init([], ending: .close) }
            harness = try RegularHarness(.loopbackHTTP, environmentURL: proxy.baseURL)
            lock.withLock { sandbox = harness.sandboxes[0] }
            box.rig = self
        }

        deinit {
            proxy.shutdown()
            harness.stop()
        }

        /// The next request whose path ends with `pathSuffix` gets the sandbox's answer cut
        /// at `offset` and ended by `ending`.
        func cut(_ pathSuffix: String, at offset: Int, by ending: HostileHTTPServer.Ending) {
            lock.withLock { armed = (pathSuffix, offset, ending) }
        }

        /// The whole answer last served to a request that was cut (or would have been).
        var lastAnswer: [UInt8] { lock.withLock { lastFull } }

        /// Requests whose path ends with `suffix` that reached the hostile server.
        func count(_ suffix: String) -> Int { proxy.requests.filter { $0.path.hasSuffix(suffix) }.count }

        fileprivate func answer(_ request: HostileHTTPServer.Request) async -> HostileHTTPServer.Answer {
            guard let sandbox = lock.withLock({ sandbox }) else { return .init([], ending: .close) }
            let response = await sandbox.respond(
                to: SandboxRequest(
                    method: request.method, target: request.target, headers: request.headers, body: request.body,
                    connection: "hostile"))
            guard !response.dropConnection else { return .init([], ending: .close) }
            let bytes = HostileAnswers.plain(
                status: response.status, headers: response.headers.map { ($0.name, $0.value) }, body: response.body)
            let cut: (Int, HostileHTTPServer.Ending)? = lock.withLock {
                guard let armed, request.path.hasSuffix(armed.pathSuffix) else { return nil }
                self.armed = nil
                lastFull = bytes
                return (armed.offset, armed.ending)
            }
            guard let (offset, ending) = cut else { return .init(bytes) }
            return .init(Array(bytes[..<min(offset, bytes.count)]), ending: ending)
        }

        private final class Box: @unchecked Sendable {
            var rig: HostileRig?
        }
    }

    private let signedIn = ["sendTrackingData(0,true,NotBoarded)", authenticated]

    /// A rig signed in to NotBoarded, and the length of the answer to `pathSuffix`'s next request.
    private func signedInRig(measuring pathSuffix: String, with call: (AccessEnabler) -> Void) async throws -> (
        HostileRig, Int
    ) {
        let rig = try HostileRig()
        #expect(await rig.harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        try await rig.harness.logIn(mvpd: "NotBoarded")
        // One whole answer first, to learn its length (the cut at its end is the whole answer).
        rig.cut(pathSuffix, at: .max, by: .keepAlive)
        _ = await rig.harness.call(call)
        let length = rig.lastAnswer.count
        try #require(length > 100, "the answer to \(pathSuffix) was measured")
        return (rig, length)
    }

    @Test(arguments: [HostileHTTPServer.Ending.close, .reset])
    func anAuthorizationAnswerCutAtEveryOffsetEndsInOneCallbackAndKeepsTheSession(ending: HostileHTTPServer.Ending)
        async throws
    {
        let path = "/decisions/authorize/NotBoarded"
        let (rig, length) = try await signedInRig(measuring: path) { $0.checkAuthorization("news") }
        let failed = [
            "status(Z500,error)", "sendTrackingData(1,false,NotBoarded)",
            "tokenRequestFailed(news,\(GENERIC_AUTHORIZATION_ERROR))",
        ]
        let granted = ["sendTrackingData(1,true,NotBoarded)", "setToken(news)"]
        var wholeAnswers = 0
        let before = rig.count(path)
        for offset in 0...length {
            rig.cut(path, at: offset, by: ending)
            let callbacks = await rig.harness.call { $0.checkAuthorization("news") }
            if offset == length && callbacks == granted {
                wholeAnswers += 1
                continue
            }
            #expect(callbacks == failed, "cut at \(offset) of \(length) by \(ending)")
            if offset % 97 == 0 {
                #expect(await rig.harness.call { $0.checkAuthentication() } == signedIn, "after the cut at \(offset)")
            }
        }
        #expect(ending == .reset || wholeAnswers == 1, "the whole answer, closed after its last byte, grants")
        #expect(rig.count(path) - before == length + 1, "one request per offset, none repeated")
        #expect(await rig.harness.call { $0.checkAuthentication() } == signedIn)
        // The session is on disk too.
        rig.harness.relaunch()
        #expect(await rig.harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await rig.harness.call { $0.checkAuthentication() } == signedIn)
        #expect(await rig.harness.call { $0.checkAuthorization("news") } == granted)
    }

    @Test(arguments: [HostileHTTPServer.Ending.close, .reset])
    func setRequestorsProfilesAnswerCutAtEveryOffsetEndsInOneCallbackAndKeepsTheSession(
        ending: HostileHTTPServer.Ending
    ) async throws {
        let path = "/api/v2/REF30/profiles"
        let (rig, length) = try await signedInRig(measuring: path) { $0.setRequestor("REF30") }
        let before = rig.count(path)
        for offset in 0...length {
            rig.cut(path, at: offset, by: ending)
            // A launch: a new AccessEnabler over the stored session, whose setRequestor asks the profiles.
            rig.harness.relaunch()
            let callbacks = await rig.harness.call { $0.setRequestor("REF30") }
            #expect(callbacks == ["setRequestorComplete(1)"], "cut at \(offset) of \(length) by \(ending)")
            if offset % 53 == 0 {
                #expect(await rig.harness.call { $0.checkAuthentication() } == signedIn, "after the cut at \(offset)")
            }
        }
        // A GET whose kept-alive connection ends before the status line is whole is repeated
        // once by libcurl on a new connection (and answered whole there): only those.
        let statusLine = (rig.lastAnswer.firstIndex(of: 10) ?? 0) + 1
        let repeated = rig.count(path) - before - (length + 1)
        #expect(
            (0...statusLine).contains(repeated),
            "\(repeated) requests repeated, for a status line of \(statusLine) bytes")
        rig.harness.relaunch()
        #expect(await rig.harness.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await rig.harness.call { $0.checkAuthentication() } == signedIn)
    }
}
