import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Adobe's own demo app for its AccessEnabler SDK, its call sequences played against this
/// SDK and PassSandbox end to end: options as the demo sets them, the provider picker, the
/// MVPD login in a web view that watches its navigations, metadata, authorization, a forced
/// sign-in, and the logout in a hidden web view. The app is a delegate like any app's (no
/// test rig between it and the SDK), and its web view is a small browser of its own.
@Suite struct AdobeDemoAppTests {
    /// The demo's delegate: it answers the SDK as the demo's activities do.
    final class DemoApp: EntitlementDelegate, EntitlementStatus, @unchecked Sendable {
        private let lock = NSLock()
        private var heard: [String] = []
        private var pages: [String] = []
        private var providers: [MVPD] = []
        private var metadata: [Int32: String] = [:]
        private var selected: MVPD??

        var callbacks: [String] { lock.withLock { heard } }
        /// The pages `navigateToUrl` asked the app to open, oldest first.
        var pagesToOpen: [String] { lock.withLock { pages } }
        /// The providers the picker shows.
        var pickerProviders: [MVPD] { lock.withLock { providers } }
        var selectedProvider: MVPD?? { lock.withLock { selected } }
        func metadataValue(for key: Int32) -> String? { lock.withLock { metadata[key] } }
        func forgetCallbacks() { lock.withLock { heard.removeAll() } }
        func takePage() -> String? { lock.withLock { pages.isEmpty ? nil : pages.removeFirst() } }

        private func hear(_ line: String) { lock.withLock { heard.append(line) } }

        func setRequestorComplete(_ status: Int32) { hear("setRequestorComplete(\(status))") }
        func setAuthenticationStatus(_ status: Int32, errorCode code: String) {
            hear("setAuthenticationStatus(\(status),\(code))")
        }
        func displayProviderDialog(_ mvpds: [MVPD]) {
            lock.withLock { providers = mvpds }
            hear("displayProviderDialog")
        }
        func navigateToUrl(_ url: String) {
            lock.withLock { pages.append(url) }
            hear("navigateToUrl")
        }
        func setToken(_ token: String, forResource resource: String) { hear("setToken(\(resource))") }
        func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String) {
            hear("tokenRequestFailed(\(resource),\(code))")
        }
        func preauthorizedResources(_ resources: [String]) {
            hear("preauthorizedResources(\(resources.joined(separator: ",")))")
        }
        func selectedProvider(_ mvpd: MVPD?) {
            lock.withLock { selected = .some(mvpd) }
            hear("selectedProvider(\(mvpd?.id ?? "none"))")
        }
        func setMetadataStatus(
            _ metadata: Any?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: Any]
        ) {
            lock.withLock { self.metadata[key] = metadata.map { "\($0)" } }
            hear("setMetadataStatus(\(key))")
        }
        func sendTrackingData(_ data: [String], forEventType event: Int32) {}
        func status(_ status: AdvancedStatus) { hear("status(\(status.errorId))") }
    }

    /// The demo's web view: loads a page as a browser does, follows redirects, fills the MVPD
    /// login form, and watches every navigation — the one to the redirect URL's scheme is
    /// the app's to handle (`handleExternalURL`), never loaded. It follows a `302` to that
    /// scheme, and also the page a browser is shown instead of one (its link to the
    /// application, which the person taps).
    struct DemoWebView {
        let transport: any HTTPTransport
        let redirectScheme: String
        /// Whether it asks for HTML (`Accept: text/html`) as a browser does: PassSandbox then
        /// shows a page that links back to the application where others get a `302` to it.
        var asksForHTML = true

        enum Failure: Error, CustomStringConvertible {
            case stuck(String)
            var description: String {
                switch self {
                case .stuck(let why): why
                }
            }
        }

        /// Opens `url`, signs in with `credentials` when a login form shows, and returns the
        /// navigation to the application's scheme.
        func open(_ url: String, credentials: (username: String, password: String)? = nil) async throws -> String {
            var next: (method: String, url: URL, body: String?)? = (
                method: "GET", url: try Self.url(url, relativeTo: nil), body: nil
            )
            var signedIn = false
            for _ in 0..<20 {
                guard let request = next else { break }
                if request.url.scheme?.lowercased() == redirectScheme { return request.url.absoluteString }
                let response = try await load(request.method, request.url, body: request.body)
                if (300..<400).contains(response.status), let location = response.header("Location") {
                    next = (method: "GET", url: try Self.url(location, relativeTo: request.url), body: nil)
                    continue
                }
                let html = String(decoding: response.body, as: UTF8.self)
                guard response.status == 200 else { throw Failure.stuck("\(request.url) answered \(response.status)") }
                if let form = Self.loginForm(in: html), let credentials, !signedIn {
                    signedIn = true
                    let fields = form.hidden + [("username", credentials.username), ("password", credentials.password)]
                    let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
                    next = (method: "POST", url: try Self.url(form.action, relativeTo: request.url), body: body)
                    continue
                }
                // Today's "go back to the application" page: the person taps its link.
                if let link = Self.links(in: html).first(where: { $0.lowercased().hasPrefix(redirectScheme + ":") }) {
                    next = (method: "GET", url: try Self.url(link, relativeTo: request.url), body: nil)
                    continue
                }
                throw Failure.stuck("\(request.url) shows no form and no way back to the application")
            }
            throw Failure.stuck("too many navigations")
        }

        private func load(_ method: String, _ url: URL, body: String?) async throws -> HTTPResponseMessage {
            var headers = [
                ("Accept", asksForHTML ? "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8" : "*/*"),
                ("User-Agent", "DemoWebView/1.0"),
            ]
            if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
            return try await transport.send(
                HTTPRequestMessage(
                    method: method, url: url, headers: headers.map { (name: $0.0, value: $0.1) },
                    body: body.map { Data($0.utf8) }), timeout: 30)
        }

        static func url(_ text: String, relativeTo base: URL?) throws -> URL {
            guard let url = URL(string: unescape(text), relativeTo: base)?.absoluteURL else {
                throw Failure.stuck("not a URL: \(text)")
            }
            return url
        }

        /// The page's login form: its action and hidden fields, when it asks for a username and a password.
        static func loginForm(in html: String) -> (action: String, hidden: [(String, String)])? {
            guard html.contains(#"name="username""#), html.contains(#"name="password""#),
                let form = html.range(of: "<form"), let end = html[form.lowerBound...].range(of: "</form>")
            else { return nil }
            let text = String(html[form.lowerBound..<end.upperBound])
            let action = attribute("action", in: String(text.prefix { $0 != ">" })) ?? ""
            var hidden: [(String, String)] = []
            for tag in tags("input", in: text) where attribute("type", in: tag) == "hidden" {
                if let name = attribute("name", in: tag) { hidden.append((name, attribute("value", in: tag) ?? "")) }
            }
            return (action, hidden)
        }

        /// The `href` of every link of the page.
        static func links(in html: String) -> [String] {
            tags("a", in: html).compactMap { attribute("href", in: $0) }
        }

        private static func tags(_ name: String, in html: String) -> [String] {
            html.components(separatedBy: "<\(name) ").dropFirst().map { String($0.prefix { $0 != ">" }) }
        }

        private static func attribute(_ name: String, in tag: String) -> String? {
            guard let start = tag.range(of: " \(name)=\"") ?? tag.range(of: "\(name)=\""),
                let end = tag[start.upperBound...].firstIndex(of: "\"")
            else { return nil }
            return unescape(String(tag[start.upperBound..<end]))
        }

        private static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }

        private static func formEncode(_ text: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._*")
            return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(
                of: "%20", with: "+")
        }
    }

    /// A sandbox on `wire`, the demo app and its web view, and an AccessEnabler as the demo
    /// creates it (iOS: the MVPD login in a web view).
    final class Demo: @unchecked Sendable {
        let sandbox = PassSandbox()
        let app = DemoApp()
        let webView: DemoWebView
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("adobe-demo-\(UUID().uuidString)")
        private var server: LoopbackHTTPServer?
        private let configuration: AccessEnablerConfiguration
        private(set) var accessEnabler: AccessEnabler!

        init(_ wire: ScenarioRunner.Wire, webViewAsksForHTML: Bool) throws {
            var configuration = AccessEnablerConfiguration(
                environment: .staging, platform: .iOS, storageDirectory: storage)
            switch wire {
            case .loopbackHTTP:
                let (server, url) = try sandbox.serveOverLoopback()
                self.server = server
                configuration.environment = .custom(url)
                webView = DemoWebView(
                    transport: CurlTransport(), redirectScheme: "adobepass", asksForHTML: webViewAsksForHTML)
            case .inProcess:
                configuration.environment = .custom(sandbox.baseURLForLinks)
                configuration.transport = sandbox.transport
                webView = DemoWebView(
                    transport: sandbox.inProcessTransport, redirectScheme: "adobepass", asksForHTML: webViewAsksForHTML)
            }
            configuration.clock = SandboxTimeSource(sandbox.clock)
            configuration.loginScreen = .thisDevice
            self.configuration = configuration
            launch()
        }

        /// The app starts (again): a new AccessEnabler over the same storage.
        func launch() {
            accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
            accessEnabler.delegate = app
            accessEnabler.statusDelegate = app
        }

        /// Runs `action` and returns the callbacks the demo heard until the SDK was idle.
        func run(_ action: (AccessEnabler) -> Void) async -> [String] {
            app.forgetCallbacks()
            action(accessEnabler)
            await accessEnabler.waitUntilIdle()
            return app.callbacks
        }

        /// The MVPD login page the SDK handed over, in the web view, then its redirect to the SDK.
        func logInInWebView(as username: String) async throws -> [String] {
            let page = try #require(app.takePage())
            let landing = try await webView.open(page, credentials: (username, username + "123"))
            return await run { $0.handleExternalURL(landing) }
        }

        /// The requests the sandbox received since its log was cleared (`METHOD /path`).
        var received: [String] {
            sandbox.requestLog.filter { $0.path.hasPrefix("/api/v2/") || $0.path.hasPrefix("/o/") }.map {
                "\($0.method) \($0.path)"
            }
        }

        func stop() {
            accessEnabler = nil
            server?.shutdown()
            try? FileManager.default.removeItem(at: storage)
        }
    }

    static let authenticated = "setAuthenticationStatus(1,)"
    static let signedOut = "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))"

    /// Over both wires; the web view as a browser (a page that links back to the app) and as
    /// one that is redirected straight back (`302` to the app's scheme).
    @Test(arguments: bothWires, [true, false])
    func theDemoAppsCallSequencesWorkEndToEnd(wire: ScenarioRunner.Wire, webViewAsksForHTML: Bool) async throws {
        let demo = try Demo(wire, webViewAsksForHTML: webViewAsksForHTML)
        defer { demo.stop() }
        // Options as the demo sets them: its application profile, the visitor id under the
        // Android spelling, and the client information percent-encoded.
        let info = Data(#"{"model":"Demo Phone","osName":"Android","connectionType":"WiFi"}"#.utf8)
            .base64EncodedString()
        let options: [String: Any] = [
            "applicationProfile": "demo", "ap_vi": "demo-visitor",
            "device_info": info.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? info,
        ]
        #expect(await demo.run { $0.setOptions(options) } == [])
        #expect(await demo.run { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(await demo.run { $0.checkAuthentication() } == ["status(N000)", Self.signedOut])

        // The picker: the demo lists the providers and the person picks one.
        #expect(await demo.run { $0.getAuthentication() } == ["displayProviderDialog"])
        let picked = try #require(demo.app.pickerProviders.first { $0.displayName == "Not Boarded Cable" })
        #expect(await demo.run { $0.setSelectedProvider(picked.ID) } == ["navigateToUrl"])
        // The login in a web view that watches its navigations.
        #expect(try await demo.logInInWebView(as: "alice") == [Self.authenticated])

        // Metadata, as the demo's metadata screen asks for it.
        #expect(
            await demo.run {
                $0.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"])
            } == ["setMetadataStatus(3)"])
        #expect(demo.app.metadataValue(for: METADATA_USER_META) == "u-alice")
        #expect(
            await demo.run { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]) } == ["setMetadataStatus(2)"])
        #expect(demo.app.metadataValue(for: METADATA_DEVICE_ID)?.isEmpty == false)
        #expect(
            await demo.run { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]) } == [
                "setMetadataStatus(0)"
            ])

        // Authorization and preauthorization.
        #expect(await demo.run { $0.getAuthorization("news") } == ["setToken(news)"])
        #expect(
            await demo.run { $0.checkPreauthorizedResources(["news", "sports", "movies"]) } == [
                "preauthorizedResources(news,sports)"
            ])
        #expect(await demo.run { $0.getSelectedProvider() } == ["selectedProvider(NotBoarded)"])
        #expect(demo.app.selectedProvider??.displayName == "Not Boarded Cable")

        // A forced sign-in with the same provider: the login page comes, another account signs in.
        #expect(await demo.run { $0.getAuthentication(true, withData: nil) } == ["displayProviderDialog"])
        #expect(await demo.run { $0.setSelectedProvider(picked.ID) } == ["navigateToUrl"])
        #expect(try await demo.logInInWebView(as: "bob") == [Self.authenticated])
        #expect(
            await demo.run {
                $0.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "userID"])
            } == ["setMetadataStatus(3)"])
        #expect(demo.app.metadataValue(for: METADATA_USER_META) == "u-bob")

        // A second provider signed in on the same device, then the logout in a hidden web
        // view: every MVPD's logout page in turn, each back to the application.
        #expect(await demo.run { $0.getAuthentication(true, withData: nil) } == ["displayProviderDialog"])
        #expect(await demo.run { $0.setSelectedProvider("SVCProvider") } == ["navigateToUrl"])
        #expect(try await demo.logInInWebView(as: "alice") == [Self.authenticated])
        #expect(await demo.run { $0.logout() } == ["navigateToUrl"])
        var ended: [String] = []
        var pagesOpened = 0
        while ended.isEmpty, let page = demo.app.takePage() {
            pagesOpened += 1
            let back = try await demo.webView.open(page)
            let heard = await demo.run { $0.handleExternalURL(back) }
            if heard != ["navigateToUrl"] { ended = heard }
        }
        #expect(pagesOpened == 2, "one logout page per MVPD signed in on the device")
        #expect(ended == [Self.signedOut])
        #expect(demo.accessEnabler.rememberedProvider == nil)

        // The next launch: one request, and the person is signed out.
        demo.sandbox.clearRequestLog()
        demo.launch()
        #expect(await demo.run { $0.setRequestor("REF30") } == ["setRequestorComplete(1)"])
        #expect(demo.received == ["GET /api/v2/REF30/profiles"])
        #expect(await demo.run { $0.checkAuthentication() } == ["status(N000)", Self.signedOut])

        // The sandbox's checklist monitor saw the whole run keep Adobe's REST API V2 Checklist.
        let violations = demo.sandbox.checklist.violations.map { "\($0.rule) · \($0.request): \($0.detail)" }
        #expect(
            violations.isEmpty,
            "the demo app's run breaks Adobe's REST API V2 Checklist:\n\(violations.joined(separator: "\n"))")
    }
}
