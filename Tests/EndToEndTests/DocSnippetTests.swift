// swift-format-ignore-file
import AccessEnabler
import AccessEnablerScenarios
import Foundation
import Glibc
import PassSandbox
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift snippets of the SDK's DocC articles (Sources/AccessEnabler/AccessEnabler.docc)
// are in this file as real code, so a newcomer who copies one copies code that compiles; the
// tests below run them against PassSandbox. `DocReferenceTests` checks that each ```swift
// block of the articles (and of README) still appears in compiled code line for line. Keep
// the two in step: change the snippet here, then paste it there. swift-format leaves this
// file as it is, so the snippets keep the layout of the articles.

// MARK: - WhatStillNeedsAChange.md: "Status ids are typed"

/// What an app written against string status ids does with them, unchanged.
func legacyReactions(to status: AdvancedStatus, codeFromServer: String) -> [String] {
    var seen: [String] = []
    if status.errorId == "REGCODE" { seen.append("show the code") }     // a string literal is a StatusID
    switch status.errorId {                                              // literal patterns match
    case "N003": seen.append("another provider")
    default: break
    }
    seen.append("\(status.errorId)")                                      // description is the legacy spelling
    if let id = status.dictionary["errorId"] as? String { seen.append(id) } // the legacy dictionary keeps a String
    if status.errorId == codeFromServer { seen.append("same id") }      // a StatusID equals a String spelling it
    return seen
}

// MARK: - WhatStillNeedsAChange.md: "A legacy singleton in Swift 6"

/// The legacy singleton, in the Swift 6 language mode: what it holds is immutable or behind
/// a lock, so the one shared instance may be used from any thread.
final class EntitlementManager: EntitlementDelegate, @unchecked Sendable {
    static let shared = EntitlementManager(softwareStatement: "your software statement", configuration: AccessEnablerConfiguration())

    let accessEnabler: AccessEnabler                 // Sendable: call it from any thread
    private let lock = NSLock()
    private var signedIn = false                     // written by callbacks, read by the app: under `lock`

    init(softwareStatement: String, configuration: AccessEnablerConfiguration) {
        accessEnabler = AccessEnabler(softwareStatement: softwareStatement, configuration: configuration)
        accessEnabler.delegate = self
    }

    var isSignedIn: Bool { lock.withLock { signedIn } }

    func setRequestorComplete(_ status: Int32) {
        if status == ACCESS_ENABLER_STATUS_SUCCESS { accessEnabler.checkAuthentication() }
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        lock.withLock { signedIn = status == ACCESS_ENABLER_STATUS_SUCCESS }
    }
}

// MARK: - ConfigurationYouMustSupply.md

/// The configuration a production TV app sets up.
func makeProductionAccessEnabler(softwareStatement: String, storage: URL) -> AccessEnabler {
    var configuration = AccessEnablerConfiguration()
    configuration.environment = .production          // .staging while you integrate; .custom(url) for PassSandbox or a proxy
    configuration.platform = .tvOS                   // .iOS: logout opens the MVPD logout page; .tvOS: it does not
    configuration.loginScreen = .secondScreen        // the default on tvOS; .thisDevice opens the login page here
    configuration.partnerFramework = nil             // your PartnerFramework, for single sign-on; nil: regular flows only
    configuration.serviceToken = nil                 // your identity service's token, for single sign-on across your apps; nil: none
    configuration.storageDirectory = storage         // default: $XDG_DATA_HOME/accessenabler
    configuration.redirectURL = "adobepass://ios.app"
    configuration.requestTimeout = 30                // seconds per REST call
    configuration.secondScreenPollInterval = 5       // seconds between polls for a second-screen sign-in (3 at least)
    configuration.preauthorizationBatchSize = 5      // the resource limit of your integrations; nil: one request
    return AccessEnabler(storageCheck: .INTEGRITY_CHECK_ALL, softwareStatement: softwareStatement, configuration: configuration)
}

// MARK: - SecondScreenSignIn.md: what a TV app shows

/// Shows a tvOS sign-in on the TV: the registration code, then how it ended.
final class TVSignInPresenter: EntitlementDelegate, EntitlementStatus {
    private let activationAddress: String            // your second-screen site, such as "tv.example.com/activate"
    private let show: @Sendable (String) -> Void
    private var lastStatus: AdvancedStatus?          // callbacks arrive one at a time, in order, on the callback queue

    init(activationAddress: String, show: @escaping @Sendable (String) -> Void) {
        self.activationAddress = activationAddress
        self.show = show
    }

    func setRequestorComplete(_ status: Int32) {}

    func displayProviderDialog(_ mvpds: [MVPD]) {
        show(mvpds.map(\.displayName).joined(separator: "\n"))   // the person picks one; the app calls setSelectedProvider
    }

    func status(_ status: AdvancedStatus) {
        lastStatus = status
        switch status.errorId {
        case "REGCODE", "REG200":                    // the code; again once the TV reaches Adobe Pass again
            if let code = status.details { show("On your phone or computer, go to \(activationAddress) and enter \(code)") }
        case "REG404":                               // the TV has not reached Adobe Pass for a while; the code still works
            show("This TV cannot reach your TV provider right now: check its network connection.")
        default: break
        }
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
        defer { lastStatus = nil }
        if status == ACCESS_ENABLER_STATUS_SUCCESS {
            show("You're signed in.")
            return
        }
        switch lastStatus?.errorId {
        case "N130": show("The code has expired. Choose your TV provider again to get a new one.")
        case "REG500": show("Signing in is not possible right now. Please try again later.")
        case "N005": show("")                         // the person backed out: back to where they were
        default: break                               // checkAuthentication, logout, …: nothing to show
        }
    }
}

// MARK: - WritingNewCodeWithAsyncAwait.md

/// What the app does for the person while signing in.
protocol SignInScreen: Sendable {
    /// Lets the person pick an MVPD; `nil` when they back out.
    func chooseProvider(from mvpds: [MVPD]) async -> String?
    /// Shows a line of text on the screen.
    func show(_ text: String)
    /// Opens the MVPD login page and returns the URL it ends on (the redirect URL).
    func openLoginPage(_ url: String) async throws -> String
}

/// Carries an authentication step through to the end; throws when it fails.
func finishSignIn(_ step: AuthenticationStep, with accessEnabler: AccessEnabler, on screen: some SignInScreen) async throws {
    switch step {
    case .authenticated:
        return
    case .chooseProvider(let mvpds):
        let next = try await accessEnabler.selectProvider(await screen.chooseProvider(from: mvpds))
        try await finishSignIn(next, with: accessEnabler, on: screen)
    case .enterCodeOnSecondScreen(let code):
        screen.show("On your phone or computer, go to tv.example.com/activate and enter \(code)")
        _ = try await accessEnabler.secondScreenSignIn()      // throws when the code expires (N130)
    case .openLoginPage(let url, _):
        let redirect = try await screen.openLoginPage(url)
        guard try await accessEnabler.handleRedirect(redirect).isAuthenticated else {
            throw AccessEnablerError(errorCode: GENERIC_AUTHENTICATION_ERROR, message: "The login did not complete.")
        }
    }
}

/// Signs the person in if needed and returns a media token for `resource`.
func signInAndAuthorize(_ resource: String, using accessEnabler: AccessEnabler, on screen: some SignInScreen) async throws -> MediaToken {
    try await accessEnabler.configure(requestor: "REF30")
    try await finishSignIn(try await accessEnabler.authenticate(), with: accessEnabler, on: screen)
    return try await accessEnabler.authorize(resource)
}

/// Writes what the SDK delivers to the app's log, whichever call asked for it. Take `events`
/// (`accessEnabler.events`) before the calls whose callbacks it is to see.
func logEvents(_ events: AsyncStream<AccessEnablerEvent>, to log: @escaping @Sendable (String) -> Void) async {
    for await event in events {
        if let status = event.status {
            log("\(status.errorId): \(status.message ?? "")")
            continue
        }
        switch event.kind {
        case .authenticationStatus:
            log("authenticated: \(event.authenticationStatus?.status == ACCESS_ENABLER_STATUS_SUCCESS)")
        case .token, .tokenRequestFailed: log("authorization: \(event.kind)")
        default: break                               // other callbacks, and those a later version adds
        }
    }
}

// MARK: - SigningInOnThisDevice.md: a custom-scheme handler

/// A named pipe through which `mytvapp --redirect URL`, started by the desktop, hands the
/// URL to the running app.
final class RedirectInbox {
    private let source: DispatchSourceRead

    /// In the running app: creates the pipe at `path` and hands every URL written to it to `handle`.
    init(path: String, handle: @escaping @Sendable (String) -> Void) throws {
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Read and write: the pipe stays open between two senders instead of ending.
        let descriptor = open(path, O_RDWR | O_NONBLOCK)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let lines = LineBuffer()
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "redirect-inbox"))
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &bytes, bytes.count)
            if count > 0 { lines.append(bytes[0..<count]).forEach(handle) }
        }
        source.setCancelHandler {
            Glibc.close(descriptor)
            unlink(path)
        }
        source.resume()
    }

    /// Stops listening and removes the pipe.
    func close() { source.cancel() }

    /// In `mytvapp --redirect URL`: hands `url` to the running app; `false` when no app listens.
    static func send(_ url: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK)    // fails at once when nobody reads
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        let line = Array((url + "\n").utf8)
        return write(descriptor, line, line.count) == line.count
    }
}

/// Bytes in, complete lines out. Used on the inbox's one serial queue only.
final class LineBuffer: @unchecked Sendable {
    private var pending: [UInt8] = []

    /// Adds `bytes` and returns the lines they complete.
    func append(_ bytes: ArraySlice<UInt8>) -> [String] {
        pending += bytes
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines.filter { !$0.isEmpty }
    }
}

/// Where the pipe lives: the user's runtime directory, which only the user can enter.
func redirectInboxPath() -> String {
    (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()) + "/mytvapp-redirect"
}

/// `mytvapp --redirect URL`, which the desktop runs: hands the URL to the running app and
/// returns the exit status; `nil` when the arguments ask for something else.
func forwardRedirect(arguments: [String], inboxPath: String) -> Int32? {
    guard arguments.count == 3, arguments[1] == "--redirect" else { return nil }
    if RedirectInbox.send(arguments[2], to: inboxPath) { return 0 }
    FileHandle.standardError.write(Data("mytvapp is not running: start it, then sign in again.\n".utf8))
    return 1
}

// MARK: - SigningInOnThisDevice.md: an http loopback redirect URL

/// Listens on `http://127.0.0.1:PORT` for the browser arriving at the redirect URL.
final class LoopbackRedirectListener: Sendable {
    private let descriptor: Int32
    /// The port listened on (the one asked for, or the free one picked for 0).
    let port: UInt16

    init(port: UInt16) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)    // 127.0.0.1 only
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && listen(socketDescriptor, 8) == 0
                    && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard listening else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE)
            Glibc.close(socketDescriptor)
            throw error
        }
        descriptor = socketDescriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// Waits for the next request whose path starts with `path`, answers the browser with a
    /// short page, and returns the full URL it asked for. Other requests get a 404.
    func nextRedirect(path: String = "/callback") throws -> String {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EBADF) }
            defer { Glibc.close(connection) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)                        // a silent client cannot hold the app
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request = ""
            var bytes = [UInt8](repeating: 0, count: 4096)
            while request.utf8.count < 16_384, !request.contains("\r\n\r\n") {
                let count = recv(connection, &bytes, bytes.count, 0)
                if count <= 0 { break }
                request += String(decoding: bytes[0..<count], as: UTF8.self)
            }
            // The request line: "GET /callback?… HTTP/1.1".
            let requestLine = (request.split(whereSeparator: \.isNewline).first ?? "").split(separator: " ")
            let target = requestLine.count == 3 ? String(requestLine[1]) : ""
            let found = target.hasPrefix(path)
            let page = found ? "<p>You're signed in. You can close this window and go back to the app.</p>" : "<p>Not found.</p>"
            let response = "HTTP/1.1 \(found ? "200 OK" : "404 Not Found")\r\nContent-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
            _ = Array(response.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if found { return "http://127.0.0.1:\(port)\(target)" }
        }
    }

    /// Stops listening; a waiting ``nextRedirect(path:)`` throws.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }
}

// MARK: - TestingWithPassSandbox.md

/// An AccessEnabler talking to a PassSandbox served on loopback HTTP, on the sandbox's
/// clock. Shut the server down when the test ends (`server.shutdown()`).
func makeSandboxedAccessEnabler(platform: AccessEnablerConfiguration.Platform) throws -> (AccessEnabler, PassSandbox, LoopbackHTTPServer) {
    let sandbox = PassSandbox()                                  // the built-in world; a manual clock at 2026-01-01
    let (server, baseURL) = try sandbox.serveOverLoopback()      // http://127.0.0.1:<a free port>
    var configuration = AccessEnablerConfiguration()
    configuration.environment = .custom(baseURL)
    configuration.platform = platform                            // .tvOS signs in on a second screen
    configuration.clock = sandbox.clock                          // one time for both: expiries agree, polls wait for advance(by:)
    configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ae-\(UUID().uuidString)")
    let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
    return (accessEnabler, sandbox, server)
}

// MARK: - GoingToProduction.md: logging

/// Sends the SDK's diagnostics to the app's log.
func sendDiagnostics(of configuration: inout AccessEnablerConfiguration, to log: @escaping @Sendable (String) -> Void) {
    configuration.diagnostics = { diagnostic in
        switch diagnostic {
        case .restExchange(let exchange): log("\(exchange)")      // POST /api/v2/REF30/sessions → 200 (12 ms)
        case .status(let status): log("\(status.errorId): \(status.message ?? "")")
        case .storageProblem(let message), .unimplementedCallback(_, let message), .unusedOption(_, let message),
             .defaultPlatform(let message), .noDelegate(_, let message), .transportFallback(let message): log(message)
        }
    }
}

// MARK: - OneTVProviderSignInForEveryApp.md

/// A TV app's configuration whose partner framework is the device's provider service.
func configurationWithTheDevicesProviderService() -> AccessEnablerConfiguration {
    var configuration = AccessEnablerConfiguration()
    configuration.platform = .tvOS
    configuration.partnerFramework = DeviceProviderService(requestor: "REF30", appName: "News")
    return configuration
}

/// Shows the household sign-in's code as the service starts one, and checks again when the
/// household signs out, for as long as the app runs.
func followTheDevicesProviderService(_ service: DeviceProviderService, accessEnabler: AccessEnabler, screen: some SignInScreen) async {
    for await event in service.events() {
        switch event {
        case .signInStarted(let code, let url, _): screen.show("On your phone, open \(url) and enter \(code)")
        case .signedOut: accessEnabler.checkAuthentication()
        default: break
        }
    }
}

// MARK: - GoingToProduction.md: a logout page on a TV, a throttled call, the profiles

/// Shows each tvOS logout page as a QR code (the article's status handler).
final class LogoutPageShower: EntitlementStatus, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var codes: [String] = []

    func showQRCode(_ url: String, caption: String) { lock.withLock { codes.append(url) } }

    func status(_ status: AdvancedStatus) {
        if status.errorId == .logoutPage, let url = status.details {
            showQRCode(url, caption: "Open this on your phone to sign out of your TV provider too")
        }
    }
}

/// Tells a throttled call from a denial (the article's status handler).
final class ThrottleReader: EntitlementStatus, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var retries: [Int] = []
    private(set) var denials: [String?] = []

    func scheduleRetry(after seconds: Int) { lock.withLock { retries.append(seconds) } }
    func showNotInPackage(_ message: String?) { lock.withLock { denials.append(message) } }

    func status(_ status: AdvancedStatus) {
        if let wait = status.retryAfter {
            scheduleRetry(after: wait)               // throttled: not a denial
        } else if status.errorId == .z100 {
            showNotInPackage(status.message)         // the MVPD's denial
        }
    }
}

/// Offers the device's profiles when there are several (the article's example).
final class ProfilePicker: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var offered: [(String, String, Bool)] = []
    /// The MVPD the person picks when offered a choice.
    var pick: String?

    func offerChoice(_ choices: [(String, String, Bool)], then choose: (String) -> Void) {
        lock.withLock { offered = choices }
        if let pick { choose(pick) }
    }

    func offerProfiles(of accessEnabler: AccessEnabler) {
        let profiles = accessEnabler.profiles
        if profiles.count > 1 {
            offerChoice(profiles.map { ($0.mvpd, $0.displayName, $0.isInForce) }) { mvpd in
                accessEnabler.selectProfile(mvpd: mvpd)
            }
        }
    }
}

// MARK: - The tests

/// Runs the snippets of the DocC articles against PassSandbox.
@Suite struct DocSnippetTests {
    /// What a snippet showed on the screen, from whichever thread showed it.
    final class Screen: @unchecked Sendable {
        private let lock = NSLock()
        private var shown: [String] = []
        var lines: [String] { lock.withLock { shown } }
        func show(_ text: String) { lock.withLock { shown.append(text) } }
    }

    /// The person at the TV: picks `mvpd`; for a code, signs in on their phone and lets the
    /// sandbox clock reach the SDK's next poll; for a login page, logs in with a browser.
    struct Person: SignInScreen {
        let mvpd: String
        let sandbox: PassSandbox
        let redirectURL: String
        let screen: Screen

        func chooseProvider(from mvpds: [MVPD]) async -> String? {
            mvpds.contains { $0.id == mvpd } ? mvpd : nil
        }

        func show(_ text: String) {
            screen.show(text)
            guard let code = text.split(separator: " ").last.map(String.init) else { return }
            let sandbox = sandbox
            Task {
                do {
                    _ = try await SimulatedUserAgent(httpBase: sandbox.baseURLForLinks).activate(code: code, username: "alice", password: "alice123")
                    sandbox.clock.advance(by: 5)
                } catch {
                    // The code expires, so the sign-in fails instead of waiting for ever.
                    sandbox.clock.advance(by: 1_801)
                }
            }
        }

        func openLoginPage(_ url: String) async throws -> String {
            try await SimulatedUserAgent(httpBase: sandbox.baseURLForLinks)
                .login(startingAt: url, username: "alice", password: "alice123", redirectPrefix: redirectURL)
        }
    }

    /// The status of the first `setAuthenticationStatus` on `events`, or `nil` after 30 s.
    static func firstAuthenticationStatus(on events: AsyncStream<AccessEnablerEvent>) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await event in events {
                    if let arguments = event.authenticationStatus { return arguments.status }
                }
                return nil
            }
            group.addTask {
                // A bound for a hang only, which a machine at load 20 meets.
                try? await Task.sleep(nanoseconds: 300_000_000_000)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    static func removeStorage(of accessEnabler: AccessEnabler) {
        try? FileManager.default.removeItem(at: accessEnabler.configuration.storageDirectory)
    }

    @Test func legacyCodeReadingStringStatusIDsStillWorks() {
        let regcode = AdvancedStatus(errorId: .regcode, level: .info, message: "m", details: "CODE")
        #expect(legacyReactions(to: regcode, codeFromServer: "REGCODE") == ["show the code", "REGCODE", "REGCODE", "same id"])
        let other = AdvancedStatus(errorId: "N003", level: .info)
        #expect(legacyReactions(to: other, codeFromServer: "N130") == ["another provider", "N003", "N003"])
    }

    @Test func theSwift6SingletonIsTheDelegateAndHearsTheSignIn() async throws {
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.platform = .iOS
        configuration.clock = sandbox.clock
        configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ae-\(UUID().uuidString)")
        // An instance of its own, on the sandbox: `shared` is the same class, on production.
        let manager = EntitlementManager(softwareStatement: "STATEMENT", configuration: configuration)
        defer { Self.removeStorage(of: manager.accessEnabler) }
        #expect(manager.accessEnabler.delegate === manager)
        manager.accessEnabler.setRequestor("REF30")
        await manager.accessEnabler.waitUntilIdle()
        #expect(!manager.isSignedIn)
        guard case .chooseProvider = try await manager.accessEnabler.authenticate(),
            case .openLoginPage(let url, _) = try await manager.accessEnabler.selectProvider("NotBoarded")
        else {
            Issue.record("no login page")
            return
        }
        let redirect = try await SimulatedUserAgent(httpBase: baseURL)
            .login(startingAt: url, username: "alice", password: "alice123", redirectPrefix: configuration.redirectURL)
        _ = try await manager.accessEnabler.handleRedirect(redirect)
        await manager.accessEnabler.waitUntilIdle()
        #expect(manager.isSignedIn, "the singleton's delegate heard setAuthenticationStatus(1) on the callback queue")
    }

    @Test func theProductionConfigurationIsATVOnProductionWithASecondScreen() throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("ae-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let accessEnabler = makeProductionAccessEnabler(softwareStatement: "STATEMENT", storage: storage)
        #expect(accessEnabler.configuration.environment.baseURL.absoluteString == "https://sp.auth.adobe.com")
        #expect(accessEnabler.configuration.loginScreen == .secondScreen)
        #expect(accessEnabler.configuration.preauthorizationBatchSize == 5)
        #expect(accessEnabler.configuration.storageDirectory == storage)
    }

    @Test func theLoggingExampleLogsEachExchangeAndStatusWithNoSecret() async throws {
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let log = Screen()
        var configuration = AccessEnablerConfiguration()
        configuration.environment = .custom(baseURL)
        configuration.clock = sandbox.clock
        configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ae-\(UUID().uuidString)")
        sendDiagnostics(of: &configuration, to: { log.show($0) })
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        defer { Self.removeStorage(of: accessEnabler) }
        try await accessEnabler.configure(requestor: "REF30")
        _ = try await accessEnabler.authenticate()
        _ = try await accessEnabler.selectProvider("NotBoarded")
        let lines = log.lines
        #expect(lines.contains { $0.hasPrefix("POST /o/client/register → 201 (") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("GET /api/v2/REF30/configuration → 200 (") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("POST /api/v2/REF30/sessions → 200 (") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("N004: ") } == false, "no status is invented")
        #expect(!lines.contains { $0.contains("Bearer") || $0.contains("client_secret") || $0.contains("?") })
    }

    /// A tvOS AccessEnabler against a sandbox over loopback HTTP, with the article's
    /// presenter as its delegates (returned too: the AccessEnabler holds delegates weakly).
    private static func tvWithThePresenter() throws -> (AccessEnabler, PassSandbox, LoopbackHTTPServer, Screen, TVSignInPresenter) {
        let (accessEnabler, sandbox, server) = try makeSandboxedAccessEnabler(platform: .tvOS)
        let screen = Screen()
        let presenter = TVSignInPresenter(activationAddress: sandbox.activationURL.absoluteString) { screen.show($0) }
        accessEnabler.delegate = presenter
        accessEnabler.statusDelegate = presenter
        return (accessEnabler, sandbox, server, screen, presenter)
    }

    @Test func theTVPresenterShowsTheCodeThenTheSignInThenAnExpiredCode() async throws {
        let (accessEnabler, sandbox, server, screen, presenter) = try Self.tvWithThePresenter()
        defer { withExtendedLifetime(presenter) { server.shutdown(); Self.removeStorage(of: accessEnabler) } }
        accessEnabler.setRequestor("REF30")
        accessEnabler.getAuthentication()
        accessEnabler.setSelectedProvider("NotBoarded")
        await accessEnabler.waitUntilIdle()
        let prompt = try #require(screen.lines.last)
        #expect(prompt.hasPrefix("On your phone or computer, go to \(sandbox.activationURL.absoluteString) and enter "))
        let code = try #require(prompt.split(separator: " ").last.map(String.init))

        _ = try await SimulatedUserAgent(httpBase: sandbox.baseURLForLinks).activate(code: code, username: "alice", password: "alice123")
        sandbox.clock.advance(by: 5)
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == "You're signed in.")

        // A code nobody uses expires, and the TV says so.
        accessEnabler.logout()
        accessEnabler.getAuthentication()
        accessEnabler.setSelectedProvider("NotBoarded")
        await accessEnabler.waitUntilIdle()
        sandbox.clock.advance(by: 1_801)
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == "The code has expired. Choose your TV provider again to get a new one.")

        // Backing out clears the screen.
        accessEnabler.getAuthentication()
        accessEnabler.setSelectedProvider("NotBoarded")
        accessEnabler.setSelectedProvider(nil)
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == "")
    }

    @Test func theTVPresenterSaysWhenTheTVCannotReachTheProviderAndShowsTheCodeAgain() async throws {
        let (accessEnabler, sandbox, server, screen, presenter) = try Self.tvWithThePresenter()
        defer { withExtendedLifetime(presenter) { server.shutdown(); Self.removeStorage(of: accessEnabler) } }
        accessEnabler.setRequestor("REF30")
        accessEnabler.getAuthentication()
        accessEnabler.setSelectedProvider("NotBoarded")
        await accessEnabler.waitUntilIdle()
        let prompt = try #require(screen.lines.last)
        // The network goes: after 30 s of failed polls the TV says so.
        sandbox.inject(SandboxFault(dropConnection: true), into: .profileForCode)
        for _ in 0..<6 {
            sandbox.clock.advance(by: 5)
            await accessEnabler.waitUntilIdle()
        }
        #expect(screen.lines.last == "This TV cannot reach your TV provider right now: check its network connection.")
        // It comes back: the code is shown again, and it still works.
        sandbox.clearFaults()
        sandbox.clock.advance(by: 5)
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == prompt)
        let code = try #require(prompt.split(separator: " ").last.map(String.init))
        _ = try await SimulatedUserAgent(httpBase: sandbox.baseURLForLinks).activate(code: code, username: "alice", password: "alice123")
        sandbox.clock.advance(by: 5)
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == "You're signed in.")
    }

    @Test func theTVPresenterSaysWhenNoCodeCanBeHad() async throws {
        let (accessEnabler, sandbox, server) = try makeSandboxedAccessEnabler(platform: .tvOS)
        defer { server.shutdown(); Self.removeStorage(of: accessEnabler) }
        let screen = Screen()
        let presenter = TVSignInPresenter(activationAddress: "tv.example.com/activate") { screen.show($0) }
        accessEnabler.delegate = presenter
        accessEnabler.statusDelegate = presenter
        accessEnabler.setRequestor("REF30")
        accessEnabler.getAuthentication()
        await accessEnabler.waitUntilIdle()
        sandbox.inject(SandboxFault(status: 503, remaining: 1), into: .createSession)
        accessEnabler.setSelectedProvider("NotBoarded")
        await accessEnabler.waitUntilIdle()
        #expect(screen.lines.last == "Signing in is not possible right now. Please try again later.")
    }

    @Test(arguments: [AccessEnablerConfiguration.Platform.tvOS, .iOS])
    func theAsyncExampleSignsInOnASecondScreenOrOnALoginPage(platform: AccessEnablerConfiguration.Platform) async throws {
        let (accessEnabler, sandbox, server) = try makeSandboxedAccessEnabler(platform: platform)
        defer { server.shutdown(); Self.removeStorage(of: accessEnabler) }
        let screen = Screen()
        let person = Person(mvpd: "NotBoarded", sandbox: sandbox, redirectURL: accessEnabler.configuration.redirectURL, screen: screen)
        let token = try await signInAndAuthorize("news", using: accessEnabler, on: person)
        #expect(token.resource == "news")
        #expect(sandbox.verifyMediaToken(token.serializedToken))
        #expect(screen.lines.count == (platform == .tvOS ? 1 : 0), "a TV shows one code; a phone opens the login page")
        // Signed in: the second time needs no screen at all.
        #expect(try await signInAndAuthorize("sports", using: accessEnabler, on: person).resource == "sports")
        #expect(screen.lines.count == (platform == .tvOS ? 1 : 0))
    }

    @Test func theEventLoggerLogsTheStatusesTheSignInAndTheTokenOfEveryCall() async throws {
        let (accessEnabler, sandbox, server) = try makeSandboxedAccessEnabler(platform: .iOS)
        defer { server.shutdown(); Self.removeStorage(of: accessEnabler) }
        let logged = Screen()
        let events = accessEnabler.events
        let logger = Task { await logEvents(events) { logged.show($0) } }
        defer { logger.cancel() }
        let redirectURL = accessEnabler.configuration.redirectURL
        let person = Person(mvpd: "NotBoarded", sandbox: sandbox, redirectURL: redirectURL, screen: Screen())
        _ = try await signInAndAuthorize("news", using: accessEnabler, on: person)
        await accessEnabler.waitUntilIdle()
        // The stream hands each event over on its own: wait for the last one the calls made.
        for _ in 0..<60_000 where !logged.lines.contains("authorization: setToken") {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        // A sign-in from nothing shows the provider choice (no `setAuthenticationStatus(0)`),
        // then the person is signed in and the token comes.
        #expect(logged.lines.filter { !$0.hasPrefix("N000") } == ["authenticated: true", "authorization: setToken"])
    }

    @Test func theCustomSchemeHandlerHandsTheRedirectToTheRunningApp() async throws {
        let (accessEnabler, sandbox, server) = try makeSandboxedAccessEnabler(platform: .iOS)
        defer { server.shutdown(); Self.removeStorage(of: accessEnabler) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)").path
        #expect(forwardRedirect(arguments: ["mytvapp"], inboxPath: path) == nil, "a normal start")
        #expect(forwardRedirect(arguments: ["mytvapp", "--redirect", "adobepass://ios.app"], inboxPath: path) == 1, "no app listens yet")
        #expect(redirectInboxPath().hasSuffix("/mytvapp-redirect"))
        let inbox = try RedirectInbox(path: path) { url in accessEnabler.handleExternalURL(url) }

        try await accessEnabler.configure(requestor: "REF30")
        _ = try await accessEnabler.authenticate()
        guard case .openLoginPage(let url, _) = try await accessEnabler.selectProvider("NotBoarded") else {
            Issue.record("expected the login page")
            return
        }
        let events = accessEnabler.events
        let landing = try await SimulatedUserAgent(httpBase: sandbox.baseURLForLinks)
            .login(startingAt: url, username: "alice", password: "alice123", redirectPrefix: "adobepass://")
        #expect(landing.hasPrefix("adobepass://ios.app"))
        // What `mytvapp --redirect URL` does when the desktop opens the URL.
        #expect(forwardRedirect(arguments: ["mytvapp", "--redirect", landing], inboxPath: path) == 0)
        #expect(await Self.firstAuthenticationStatus(on: events) == ACCESS_ENABLER_STATUS_SUCCESS)
        #expect(try await accessEnabler.authenticationStatus().isAuthenticated)

        inbox.close()
        await accessEnabler.waitUntilIdle()
        // Cancelling the read source is asynchronous: its handler closes and removes the pipe
        // (looked for during two minutes at most, which a loaded machine meets).
        for _ in 0..<24_000 where FileManager.default.fileExists(atPath: path) { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(RedirectInbox.send(landing, to: path) == false, "the pipe goes with the app")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theLineBufferSplitsWritesIntoWholeLines() {
        let buffer = LineBuffer()
        #expect(buffer.append(Array("adobepass://ios.app?a".utf8)[...]) == [])
        #expect(buffer.append(Array("=1\n\nadobepass://x\nrest".utf8)[...]) == ["adobepass://ios.app?a=1", "adobepass://x"])
        #expect(buffer.append(Array("\n".utf8)[...]) == ["rest"])
    }

    @Test func theLoopbackListenerCatchesTheBrowsersRedirect() async throws {
        let listener = try LoopbackRedirectListener(port: 0)
        defer { listener.close() }
        #expect(listener.port != 0)
        #expect(throws: POSIXError.self) { try LoopbackRedirectListener(port: listener.port) }
        let sandbox = PassSandbox()
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        var configuration = AccessEnablerConfiguration(environment: .custom(baseURL), clock: sandbox.clock)
        configuration.storageDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ae-\(UUID().uuidString)")
        configuration.redirectURL = "http://127.0.0.1:\(listener.port)/callback"
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        defer { Self.removeStorage(of: accessEnabler) }
        // The app waits for the browser on a thread of its own.
        Thread.detachNewThread {
            while let url = try? listener.nextRedirect() { accessEnabler.handleExternalURL(url) }
        }

        try await accessEnabler.configure(requestor: "REF30")
        _ = try await accessEnabler.authenticate()
        guard case .openLoginPage(let url, _) = try await accessEnabler.selectProvider("NotBoarded") else {
            Issue.record("expected the login page")
            return
        }
        let events = accessEnabler.events
        let redirect = try await SimulatedUserAgent(httpBase: baseURL)
            .login(startingAt: url, username: "alice", password: "alice123", redirectPrefix: configuration.redirectURL)
        // The browser asks for something else on that port first, then follows the redirect.
        let (_, stray) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(listener.port)/favicon.ico")))
        #expect((stray as? HTTPURLResponse)?.statusCode == 404)
        let (page, response) = try await URLSession.shared.data(from: try #require(URL(string: redirect)))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("You're signed in"))
        #expect(await Self.firstAuthenticationStatus(on: events) == ACCESS_ENABLER_STATUS_SUCCESS)
    }

    @Test func theLogoutPageAndThrottleHandlersReadTheStatusesAsTheArticleSays() {
        let shower = LogoutPageShower()
        shower.status(AdvancedStatus(errorId: .logoutPage, level: .info, message: "…", details: "https://mvpd.example/logout"))
        shower.status(AdvancedStatus(errorId: .vsa203, level: .info, message: "…"))
        #expect(shower.codes == ["https://mvpd.example/logout"])

        let reader = ThrottleReader()
        var throttled = AdvancedStatus(errorId: .z100, level: .error, message: "throttled", details: "throttled; retry after 7 s")
        throttled.retryAfter = 7
        reader.status(throttled)
        reader.status(AdvancedStatus(errorId: .z100, level: .error, message: "not in your package"))
        #expect(reader.retries == [7])
        #expect(reader.denials == ["not in your package"])
    }

    @Test(arguments: bothWires)
    func theProfilePickerOffersSeveralProfilesAndSelectsOne(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        let picker = ProfilePicker()
        picker.offerProfiles(of: rig.accessEnabler)
        #expect(picker.offered.isEmpty, "one profile: nothing to offer")
        #expect(try await rig.run(.getAuthentication(forceAuthn: true, filter: [], featured: [])) == [regularDialog])
        try await rig.run(.setSelectedProvider("SVCProvider"))
        try await rig.run(.login(username: "bob", password: "bob123"))
        picker.pick = "NotBoarded"
        picker.offerProfiles(of: rig.accessEnabler)
        #expect(picker.offered.map(\.0) == ["SVCProvider", "NotBoarded"])
        #expect(try await rig.run(.getSelectedProvider) == ["selectedProvider(NotBoarded)"])
    }
}
