import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// AccessEnablers over one storage directory see each other (the storage contract for
/// several AccessEnablers): a sign-in or a logout by one is what the other's next call
/// reads — checkAuthentication included, with no setRequestor and no network call —
/// whether they live in one process or in two, and under INTEGRITY_CHECK_ALL nothing either
/// writes looks damaged to the other.
@Suite("Shared storage", .timeLimit(.minutes(20)))
struct SharedStorageTests {
    /// One AccessEnabler of a test, with its own recorder.
    final class App: @unchecked Sendable {
        let accessEnabler: AccessEnabler
        let recorder = CallbackRecorder(revealSecrets: true)

        init(_ configuration: AccessEnablerConfiguration) {
            accessEnabler = AccessEnabler(
                storageCheck: .INTEGRITY_CHECK_ALL, softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = recorder
            accessEnabler.statusDelegate = recorder
        }

        /// Runs `body`, waits (bounded) until its callbacks are delivered and what it stored is
        /// on disk, and returns the callback signatures.
        func call(_ body: @escaping (AccessEnabler) -> Void) async -> [String] {
            recorder.reset()
            body(accessEnabler)
            let accessEnabler = self.accessEnabler
            #expect(await whileProgressing(accessEnabler) { await accessEnabler.waitUntilIdle() })
            return recorder.takeSignatures()
        }

        /// getAuthentication → setSelectedProvider(NotBoarded) → the login page → handleExternalURL.
        func signIn(through agent: SimulatedUserAgent) async throws {
            #expect(await call { $0.getAuthentication() } == [regularDialog])
            #expect(
                await call { $0.setSelectedProvider("NotBoarded") } == [
                    "sendTrackingData(2,NotBoarded)", "navigateToUrl(authenticate)",
                ])
            let page = try #require(recorder.lastNavigationURL)
            let landing = try await agent.login(
                startingAt: page, username: "alice", password: "alice123", redirectPrefix: "adobepass://ios.app")
            #expect(
                await call { $0.handleExternalURL(landing) } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        }
    }

    /// A sandbox on loopback HTTP and the configuration of every app over one storage
    /// directory; the sandbox and the apps all read the wall clock, as two processes would.
    final class World: @unchecked Sendable {
        let sandbox = PassSandbox(clock: .system)
        let server: LoopbackHTTPServer
        let baseURL: URL
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-shared-\(UUID().uuidString)")

        init() throws {
            server = LoopbackHTTPServer(port: 0, handler: sandbox)
            _ = try server.start()
            baseURL = try #require(server.baseURL)
            sandbox.baseURLForLinks = baseURL
        }

        deinit {
            server.shutdown()
            try? FileManager.default.removeItem(at: storage)
        }

        var configuration: AccessEnablerConfiguration {
            Self.configuration(baseURL: baseURL, storage: storage)
        }

        static func configuration(baseURL: URL, storage: URL) -> AccessEnablerConfiguration {
            var configuration = AccessEnablerConfiguration(
                environment: .custom(baseURL), platform: .tvOS, storageDirectory: storage)
            configuration.loginScreen = .thisDevice
            configuration.transport = CurlTransport()
            configuration.requestTimeout = SanitizerTiming.scaled(10)
            return configuration
        }
    }

    @Test func twoAccessEnablersInOneProcessSeeEachOthersSignInAndLogout() async throws {
        let world = try World()
        let first = App(world.configuration)
        let second = App(world.configuration)
        #expect(await first.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await second.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await second.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])

        try await first.signIn(through: SimulatedUserAgent(httpBase: world.baseURL))
        // No setRequestor: the next call reads what the first one stored.
        #expect(
            await second.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])
        #expect(
            await second.call { $0.checkAuthorization("news") } == [
                "sendTrackingData(1,true,NotBoarded)", "setToken(news)",
            ])

        #expect(await first.call { $0.logout() } == [logoutPage, notAuthenticated])
        #expect(
            await second.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        // Neither saw anything it could not trust.
        #expect(
            !(first.recorder.lines + second.recorder.lines).contains {
                $0.callback == "status" && $0["errorId"] == .string("SEC412")
            })
    }

    @Test func anAccessEnablerInAnotherProcessSeesThisOnesSignInAndLogout() async throws {
        let world = try World()
        let app = App(world.configuration)
        #expect(await app.call { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(
            await app.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])

        // Another process (this test binary again) signs in over the same storage…
        let signIn = try await SharedStorageHelper.run(.signIn, world: world)
        #expect(signIn.contains("HELPER signedIn=1"), "\(signIn)")
        // …and this process's next call reads it, with no setRequestor.
        #expect(await app.call { $0.checkAuthentication() } == ["sendTrackingData(0,true,NotBoarded)", authenticated])

        let logout = try await SharedStorageHelper.run(.logout, world: world)
        #expect(logout.contains("HELPER signedIn=0"), "\(logout)")
        #expect(
            await app.call { $0.checkAuthentication() } == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
        #expect(!signIn.contains("SEC412") && !logout.contains("SEC412"), "no integrity failure in the other process")

        // And the other way round: a sign-in here is what the other process finds.
        try await app.signIn(through: SimulatedUserAgent(httpBase: world.baseURL))
        let check = try await SharedStorageHelper.run(.check, world: world)
        #expect(check.contains("HELPER signedIn=1"), "\(check)")
    }
}

/// The other process of ``SharedStorageTests``: this test binary run again with one test,
/// ``SharedStorageHelperProcess``, told what to do through its environment.
enum SharedStorageHelper {
    enum Action: String {
        /// setRequestor, then sign in through the login page.
        case signIn
        /// setRequestor, then logout.
        case logout
        /// setRequestor, then checkAuthentication.
        case check
    }

    static let actionVariable = "ACCESSENABLER_SHARED_STORAGE_ACTION"
    static let baseURLVariable = "ACCESSENABLER_SHARED_STORAGE_BASE_URL"
    static let storageVariable = "ACCESSENABLER_SHARED_STORAGE_DIRECTORY"

    /// Runs the helper process for `action` and returns what it printed.
    static func run(_ action: Action, world: SharedStorageTests.World) async throws -> String {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return try await ChildProcessGate.shared.withGate {
            let child = try RunningCommand(
                binary, ["--testing-library", "swift-testing", "--filter", "SharedStorageHelperProcess"],
                environment: [
                    actionVariable: action.rawValue, baseURLVariable: world.baseURL.absoluteString,
                    storageVariable: world.storage.path,
                    "SWIFT_BACKTRACE": "enable=no",
                ])
            let status = try await child.waitForExit(timeout: SanitizerTiming.scaled(300))
            #expect(status == 0, "the helper process failed: \(child.output)\(child.errors)")
            return child.output
        }
    }
}

/// Runs only in the helper process of ``SharedStorageTests`` (its environment names an
/// action); skipped in every other run.
@Suite struct SharedStorageHelperProcess {
    @Test(.enabled(if: ProcessInfo.processInfo.environment[SharedStorageHelper.actionVariable] != nil))
    func act() async throws {
        let environment = ProcessInfo.processInfo.environment
        let action = try #require(
            environment[SharedStorageHelper.actionVariable].flatMap(SharedStorageHelper.Action.init(rawValue:)))
        let baseURL = try #require(environment[SharedStorageHelper.baseURLVariable].flatMap(URL.init(string:)))
        let storage = URL(fileURLWithPath: try #require(environment[SharedStorageHelper.storageVariable]))
        let app = SharedStorageTests.App(SharedStorageTests.World.configuration(baseURL: baseURL, storage: storage))
        let requestor = await app.call { $0.setRequestor("REF30") }
        print("HELPER setRequestor=\(requestor)")
        switch action {
        case .signIn: try await app.signIn(through: SimulatedUserAgent(httpBase: baseURL))
        case .logout: print("HELPER logout=\(await app.call { $0.logout() })")
        case .check: break
        }
        let check = await app.call { $0.checkAuthentication() }
        print("HELPER check=\(check)")
        print("HELPER signedIn=\(check.last == authenticated ? 1 : 0)")
    }
}
