import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `accessenabler sandbox` as a new user runs it: the built executable started on a free
/// port, walked through DCR, configuration, a session, the login page (a cookie-less form
/// POST, as a browser sends it), the profile, a decision and logout over plain HTTP, then
/// stopped with Ctrl-C (SIGINT).
@Suite struct SandboxCommandTests {
    private static let deviceInfo = Data(
        #"{"model":"PC","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN"}"#.utf8
    )
    .base64EncodedString()
    private static let deviceIdentifier = "fingerprint " + Data("sandbox-command-device".utf8).base64EncodedString()
    private static let redirectURL = "adobepass://ios.app/auth"

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func servesTheWholeFlowAndStopsCleanlyOnInterrupt() async throws {
        try await ChildProcessGate.shared.withGate { try await Self.servesTheWholeFlowAndStopsCleanlyOnInterruptBody() }
    }

    private static func servesTheWholeFlowAndStopsCleanlyOnInterruptBody() async throws {
        let executable = try #require(SandboxExecutable.url)
        let running = try RunningCommand(executable, ["sandbox", "--port", "0"])
        defer { running.stopForcefully() }
        let banner = try await running.waitForOutput(containing: "Press Ctrl-C", timeout: 120)
        let base = try #require(Self.baseURL(in: banner))
        #expect(base.host == "127.0.0.1")
        #expect(base.port != nil && base.port != 0)
        #expect(banner.contains("X-Device-Info: "), "the printed curl hint must carry the header registration requires")
        #expect(
            banner.contains("second screen: \(base.absoluteString)/activate"),
            "the banner names the page where a person types a TV's code")
        #expect(
            banner.contains("REF30 · Not Boarded Cable (NotBoarded): alice / alice123, bob / bob123"),
            "the banner lists the test users")

        let http = PlainHTTP()
        let json = ["Accept": "application/json"]

        // DCR: register, then a token.
        let registration = try await http.send(
            "POST", base, "/o/client/register",
            headers: [
                "Content-Type": "application/json", "X-Device-Info": Self.deviceInfo,
            ], body: #"{"software_statement":"STATEMENT"}"#)
        #expect(registration.status == 201)
        let clientID = try #require(registration.json?["client_id"] as? String)
        let clientSecret = try #require(registration.json?["client_secret"] as? String)
        let tokenAnswer = try await http.send(
            "POST", base, "/o/client/token",
            headers: [
                "Content-Type": "application/x-www-form-urlencoded", "X-Device-Info": Self.deviceInfo,
            ],
            body: PlainHTTP.form([
                "client_id": clientID, "client_secret": clientSecret, "grant_type": "client_credentials",
            ]))
        #expect(tokenAnswer.status == 201)
        let token = try #require(tokenAnswer.json?["access_token"] as? String)
        let api = json.merging(["Authorization": "Bearer \(token)"]) { $1 }
        let device = api.merging(["AP-Device-Identifier": Self.deviceIdentifier, "X-Device-Info": Self.deviceInfo]) {
            $1
        }

        let configuration = try await http.send("GET", base, "/api/v2/REF30/configuration", headers: api)
        #expect(configuration.status == 200)
        let requestor = configuration.json?["requestor"] as? [String: Any]
        #expect(requestor?["id"] as? String == "REF30")

        let session = try await http.send(
            "POST", base, "/api/v2/REF30/sessions",
            headers: device.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
            body: PlainHTTP.form(["mvpd": "NotBoarded", "domainName": "adobe.com", "redirectUrl": Self.redirectURL]))
        #expect(session.status == 200)
        #expect(session.json?["actionName"] as? String == "authenticate")
        let code = try #require(session.json?["code"] as? String)
        let authenticatePath = try #require(session.json?["url"] as? String)

        // The user agent: authenticate URL → login page → form POST → back to the app.
        let authenticate = try await http.send("GET", base, authenticatePath)
        #expect(authenticate.status == 302)
        let loginURL = try #require(authenticate.location.flatMap { URL(string: $0) })
        #expect(loginURL.path == "/mvpd/NotBoarded/login")
        let page = try await http.send("GET", loginURL)
        #expect(page.status == 200)
        #expect(page.text.contains("<form method=\"post\" action=\"/mvpd/NotBoarded/login\">"))
        #expect(page.text.contains("name=\"code\" value=\"\(code)\""))
        let submitted = try await http.send(
            "POST", base, "/mvpd/NotBoarded/login",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: PlainHTTP.form(["code": code, "username": "alice", "password": "alice123"]))
        #expect(submitted.status == 302)
        #expect(submitted.location == Self.redirectURL)

        let profile = try await http.send("GET", base, "/api/v2/REF30/profiles/code/\(code)", headers: api)
        #expect(profile.status == 200)
        let profiles = profile.json?["profiles"] as? [String: Any]
        let notBoarded = profiles?["NotBoarded"] as? [String: Any]
        #expect(notBoarded?["type"] as? String == "regular")

        let decision = try await http.send(
            "POST", base, "/api/v2/REF30/decisions/authorize/NotBoarded",
            headers: device.merging(["Content-Type": "application/json"]) { $1 }, body: #"{"resources":["news"]}"#)
        #expect(decision.status == 200)
        let decisions = decision.json?["decisions"] as? [[String: Any]]
        #expect(decisions?.first?["authorized"] as? Bool == true)
        #expect((decisions?.first?["token"] as? [String: Any])?["serializedToken"] is String)

        let logout = try await http.send(
            "GET", base, "/api/v2/REF30/logout/NotBoarded?redirectUrl=\(PlainHTTP.encode(Self.redirectURL))",
            headers: device)
        #expect(logout.status == 200)
        let logouts = logout.json?["logouts"] as? [String: Any]
        #expect((logouts?["NotBoarded"] as? [String: Any])?["actionName"] as? String == "logout")

        // The banner's single sign-on tokens are ones the sandbox accepts, each in its own header.
        for (issuer, header) in [("sandbox-identity", "AD-Service-Token"), ("sandbox-platform", "Adobe-Subject-Token")]
        {
            let line = try #require(
                banner.split(separator: "\n").first { $0.contains("\(issuer) (") && $0.contains(header) },
                "the banner lists \(issuer)")
            let token = try #require(line.split(separator: " ").last.map(String.init))
            #expect(token.split(separator: ".").count == 3, "\(issuer)'s token is a compact JWS")
            let accepted = try await http.send(
                "GET", base, "/api/v2/REF30/profiles", headers: device.merging([header: token]) { $1 })
            #expect(accepted.status == 200, "the sandbox accepts the \(header) it printed")
            let tampered = try await http.send(
                "GET", base, "/api/v2/REF30/profiles", headers: device.merging([header: token + "x"]) { $1 })
            #expect(tampered.status == 400, "a token that is not the printed one is refused")
        }

        // Ctrl-C: exit status 0, and nothing listens on the port any more.
        running.interrupt()
        let status = try await running.waitForExit(timeout: 120)
        #expect(status == 0)
        #expect(running.output.contains("PassSandbox stopped."))
        await #expect(throws: (any Error).self) {
            _ = try await http.send("GET", base, "/api/v2/REF30/configuration", timeout: 3)
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theQAKnobsLogRequestsSayAPortInUseInWordsAndTheChecklistSummaryEndsTheRun() async throws {
        try await ChildProcessGate.shared.withGate { try await Self.theQAKnobsBody() }
    }

    private static func theQAKnobsBody() async throws {
        let executable = try #require(SandboxExecutable.url)
        let running = try RunningCommand(executable, ["sandbox", "--port", "0", "--log-requests"])
        defer { running.stopForcefully() }
        let banner = try await running.waitForOutput(containing: "Press Ctrl-C", timeout: 120)
        let base = try #require(Self.baseURL(in: banner))
        #expect(
            banner.contains(
                #"point an app at it (Swift): AccessEnablerConfiguration(environment: .custom(URL(string: "\#(base.absoluteString)")!))"#
            ))
        #expect(
            banner.contains(
                "checklist (where clients break Adobe's REST API V2 Checklist): \(base.absoluteString)/checklist"))
        #expect(banner.contains("authentication sessions (codes) last 1800 s"))

        // A second sandbox on the same port is told so in words.
        let port = try #require(base.port)
        let second = try RunningCommand(executable, ["sandbox", "--port", String(port)])
        defer { second.stopForcefully() }
        #expect(try await second.waitForExit(timeout: 120) == 1)
        #expect(
            second.errors
                == "accessenabler sandbox: port \(port) is already in use on 127.0.0.1: another program (perhaps another sandbox) listens there. Stop it, or choose another port with --port N (--port 0 picks a free one).\n"
        )

        // A client without its access token: one line per request, and a violation.
        let http = PlainHTTP()
        let device = ["AP-Device-Identifier": Self.deviceIdentifier, "X-Device-Info": Self.deviceInfo]
        #expect(try await http.send("GET", base, "/api/v2/REF30/profiles", headers: device).status == 401)
        _ = try await running.waitForOutput(
            containing:
                "GET /api/v2/REF30/profiles 401 device \(Self.deviceIdentifier.dropFirst("fingerprint ".count))",
            timeout: 120)
        let logLine = try #require(
            running.output.split(separator: "\n").first { $0.contains("GET /api/v2/REF30/profiles 401") })
        #expect(
            logLine.firstMatch(
                of:
                    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/api\/v2\/REF30\/profiles 401 device [A-Za-z0-9+\/=]+$/
            ) != nil, "\(logLine)")

        running.interrupt()
        #expect(try await running.waitForExit(timeout: 120) == 0)
        let output = running.output
        #expect(output.contains("Adobe's REST API V2 Checklist, as this sandbox saw its clients:"))
        #expect(output.contains("  ✗ authorization-header-missing       1  (mandatory)"))
        #expect(output.contains("  ✓ registration-repeated              0  (mandatory)"))
        #expect(output.contains("1 violation on 1 device:"))
        #expect(
            output.contains(
                "authorization-header-missing · device \(Self.deviceIdentifier.dropFirst("fingerprint ".count)) · GET /api/v2/REF30/profiles: Sent without the Authorization header"
            ))
        #expect(output.hasSuffix("PassSandbox stopped.\n"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theHelpNamesEveryRequestorOfTheWorld() async throws {
        try await ChildProcessGate.shared.withGate {
            let executable = try #require(SandboxExecutable.url)
            let builtIn = try RunningCommand(executable, ["sandbox", "--help"])
            defer { builtIn.stopForcefully() }
            #expect(try await builtIn.waitForExit(timeout: 120) == 0)
            #expect(builtIn.output.contains("Requestors (service providers) of the built-in world and their MVPDs:"))
            #expect(
                builtIn.output.contains(
                    "  REF30 (Reference Requestor 30): AppleBoarded, PickerOnly, NotBoarded, SSODisabled, Inactive, Degraded, TempPass, SVCProvider"
                ))
            #expect(builtIn.output.contains("  REF31 (Reference Requestor 31): AppleBoarded, NotBoarded"))

            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "qa-world-\(UUID().uuidString).json")
            try Data(
                #"{"authenticationSessionTTL": 60, "softwareStatements": {"QA": ["QA1"]}, "serviceProviders": [{"id": "QA1", "mvpds": [{"id": "Cable"}]}]}"#
                    .utf8
            ).write(
                to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let own = try RunningCommand(executable, ["sandbox", "--world", file.path, "--help"])
            defer { own.stopForcefully() }
            #expect(try await own.waitForExit(timeout: 120) == 0)
            #expect(
                own.output.contains("Requestors (service providers) of \(file.path) and their MVPDs:\n  QA1: Cable\n"))
            #expect(!own.output.contains("REF30"))
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func checklistStrictExitsWithThreeOnAMandatoryViolationOnly() async throws {
        try await ChildProcessGate.shared.withGate { try await Self.checklistStrictBody() }
    }

    /// `--checklist-strict`, as another team's CI uses it: a run whose clients broke only a
    /// recommended line and left a notice stops with 0; one that broke a mandatory line stops
    /// (SIGTERM) with 3 and says why on stderr.
    private static func checklistStrictBody() async throws {
        let executable = try #require(SandboxExecutable.url)
        let http = PlainHTTP()

        let lenient = try RunningCommand(executable, ["sandbox", "--port", "0", "--checklist-strict"])
        defer { lenient.stopForcefully() }
        let banner = try await lenient.waitForOutput(containing: "Press Ctrl-C", timeout: 120)
        #expect(banner.contains("--checklist-strict: stopping exits with status 3 on a mandatory violation"))
        let base = try #require(Self.baseURL(in: banner))
        let registration = try await http.send(
            "POST", base, "/o/client/register",
            headers: ["Content-Type": "application/json", "X-Device-Info": Self.deviceInfo],
            body: #"{"software_statement":"STATEMENT"}"#)
        let clientID = try #require(registration.json?["client_id"] as? String)
        let clientSecret = try #require(registration.json?["client_secret"] as? String)
        let tokenAnswer = try await http.send(
            "POST", base, "/o/client/token",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Device-Info": Self.deviceInfo],
            body: PlainHTTP.form(
                ["client_id": clientID, "client_secret": clientSecret, "grant_type": "client_credentials"]))
        let token = try #require(tokenAnswer.json?["access_token"] as? String)
        let device = [
            "Accept": "application/json", "Authorization": "Bearer \(token)",
            "AP-Device-Identifier": Self.deviceIdentifier, "X-Device-Info": Self.deviceInfo, "X-Legacy": "1",
        ]
        // The configuration asked twice at once (recommended), with a header no API defines (a notice).
        for _ in 0..<2 {
            let answer = try await http.send("GET", base, "/api/v2/REF30/configuration", headers: device)
            #expect(answer.status == 200)
        }
        lenient.interrupt()
        let lenientStatus = try await lenient.waitForExit(timeout: 120)
        #expect(lenientStatus == 0, "a recommended violation and a notice do not fail the run")
        #expect(lenient.output.contains("1 violation on 1 device:"))
        #expect(lenient.output.contains("1 notice (a server cannot be sure of these; look at each):"))
        #expect(lenient.output.contains("  ? undefined-header"))
        #expect(lenient.errors.isEmpty)

        let strict = try RunningCommand(executable, ["sandbox", "--port", "0", "--checklist-strict"])
        defer { strict.stopForcefully() }
        let strictBanner = try await strict.waitForOutput(containing: "Press Ctrl-C", timeout: 120)
        let strictBase = try #require(Self.baseURL(in: strictBanner))
        let missing = try await http.send(
            "GET", strictBase, "/api/v2/REF30/profiles",
            headers: ["AP-Device-Identifier": Self.deviceIdentifier, "X-Device-Info": Self.deviceInfo])
        #expect(missing.status == 401)
        kill(strict.processIdentifier, SIGTERM)
        #expect(try await strict.waitForExit(timeout: 120) == 3)
        #expect(strict.output.hasSuffix("PassSandbox stopped.\n"))
        #expect(
            strict.errors
                == "accessenabler sandbox: --checklist-strict: 1 mandatory violation (authorization-header-missing); "
                + "exit status 3.\n")
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aBadWorldFileIsRefusedNamingTheJSONPath() async throws {
        try await ChildProcessGate.shared.withGate { try await Self.aBadWorldFileIsRefusedNamingTheJSONPathBody() }
    }

    private static func aBadWorldFileIsRefusedNamingTheJSONPathBody() async throws {
        let executable = try #require(SandboxExecutable.url)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-world-\(UUID().uuidString).json")
        try Data(
            """
            { "accessTokenTTL": 86400, "softwareStatements": { "STATEMENT": ["REF30"] },
              "serviceProviders": [ { "id": "REF30", "mvpds": [ { "id": "Cable", "authenticationTTL": "one day" } ] } ] }
            """.utf8
        ).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let running = try RunningCommand(executable, ["sandbox", "--port", "0", "--world", file.path])
        defer { running.stopForcefully() }
        let status = try await running.waitForExit(timeout: 120)
        #expect(status != 0)
        #expect(running.errors.contains("serviceProviders[0].mvpds[0].authenticationTTL"))
        #expect(!running.output.contains("serving at"))
    }

    /// The `http://127.0.0.1:PORT` the banner announces.
    private static func baseURL(in banner: String) -> URL? {
        guard let range = banner.range(of: "serving at ") else { return nil }
        let rest = banner[range.upperBound...]
        return URL(string: String(rest.prefix { !$0.isWhitespace }))
    }
}

/// Where the built `accessenabler` executable lives: next to the test bundle, else in the
/// package's `.build/debug`.
enum SandboxExecutable {
    static var candidates: [URL] {
        let bundle = Bundle.main.bundleURL
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return [
            bundle.appendingPathComponent("accessenabler"),
            bundle.deletingLastPathComponent().appendingPathComponent("accessenabler"),
            packageRoot.appendingPathComponent(".build/debug/accessenabler"),
        ]
    }

    /// Why the command tests are skipped when the executable is missing.
    static var notBuilt: Comment {
        "Skipped: the accessenabler executable is not built (run `swift build`); looked in \(candidates.map(\.path).joined(separator: ", "))."
    }

    static var url: URL? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Plain HTTP as curl or a browser without cookies sends it: no redirects followed.
struct PlainHTTP: Sendable {
    struct Answer: Sendable {
        var status: Int
        var location: String?
        var body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private struct Failure: Error {
        var description: String
    }

    func send(
        _ method: String, _ base: URL, _ pathAndQuery: String, headers: [String: String] = [:], body: String? = nil,
        timeout: TimeInterval = 60
    ) async throws -> Answer {
        let url = try #require(URL(string: base.absoluteString + pathAndQuery))
        return try await send(method, url, headers: headers, body: body, timeout: timeout)
    }

    func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil, timeout: TimeInterval = 60
    ) async throws -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<Answer, Failure> = await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(Failure(description: error.localizedDescription)))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(
                        returning: .success(
                            Answer(
                                status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"),
                                body: data ?? Data())))
                } else {
                    continuation.resume(returning: .failure(Failure(description: "not an HTTP response")))
                }
            }.resume()
        }
        return try result.get()
    }

    /// `application/x-www-form-urlencoded` text of `fields` (sorted by name).
    static func form(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }.joined(separator: "&")
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
