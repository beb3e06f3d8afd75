import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// The scenario runner's apps: AccessEnablers beside the top-level one (`A`), each with its
/// own settings, storage (or another app's), device, recorder and restart; with several apps
/// every app's transcript lines carry `"app"`, `A`'s included.
@Suite struct ScenarioAppsTests {
    /// A rig whose scenario has `apps` beside `A` (no partner framework, logins on this device).
    private static func rig(
        _ wire: ScenarioRunner.Wire, apps: [String: Scenario.App], _ configure: (inout Scenario) -> Void = { _ in }
    ) throws -> Rig {
        try Rig(wire) { scenario in
            scenario.apps = apps
            configure(&scenario)
        }
    }

    /// An app with its own statement (`STATEMENT2`, requestor REF31) and the given storage.
    private static func secondApp(storage: Scenario.Storage = .own, statement: String? = "STATEMENT2") -> Scenario.App {
        var app = Scenario.App()
        app.softwareStatement = statement
        app.storage = storage
        return app
    }

    // MARK: Transcript

    @Test(arguments: bothWires)
    func everyAppsLinesCarryItsNameTheTopLevelAppsToo(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, apps: ["B": Self.secondApp()])
        rig.recorder.reset()
        try await rig.runner.step(.setRequestor("REF30", serviceProviders: nil))
        try await rig.runner.step(.setRequestor("REF31", serviceProviders: nil), app: "B")
        try await rig.runner.step(.checkAuthentication, app: "B")
        let lines = rig.recorder.lines
        // Every line names its app, A's too: markers, callbacks and HTTP lines alike.
        #expect(
            lines.filter { $0["http"] == nil }.map(\.json) == [
                #"{"step":0,"name":"setRequestor","app":"A"}"#,
                #"{"callback":"setRequestorComplete","status":1,"app":"A"}"#,
                #"{"step":1,"name":"setRequestor","app":"B"}"#,
                #"{"callback":"setRequestorComplete","status":1,"app":"B"}"#,
                #"{"step":2,"name":"checkAuthentication","app":"B"}"#,
                #"{"callback":"status","errorId":"N000","level":"info","message":"The user is not authenticated.","app":"B"}"#,
                #"{"callback":"sendTrackingData","event":0,"data":["false","","","false","unknown","ios","Linux (tvOS)"],"app":"B"}"#,
                #"{"callback":"setAuthenticationStatus","status":0,"errorCode":"User Not Authenticated Error","app":"B"}"#,
            ])
        let bStarts = try #require(lines.firstIndex { $0["app"] == .string("B") })
        let aHTTP = lines[..<bStarts].filter { $0["http"] != nil }.map(\.json)
        let bHTTP = lines[bStarts...].filter { $0["http"] != nil }.map(\.json)
        // Cold launches: each app registers its own client, gets a token, asks for its profiles.
        #expect(aHTTP.contains(#"{"http":"POST /o/client/register","status":201,"app":"A"}"#))
        #expect(aHTTP.contains(#"{"http":"GET /api/v2/REF30/profiles","status":200,"app":"A"}"#))
        #expect(bHTTP.contains(#"{"http":"POST /o/client/register","status":201,"app":"B"}"#))
        #expect(bHTTP.contains(#"{"http":"GET /api/v2/REF31/profiles","status":200,"app":"B"}"#))
        #expect(bHTTP.allSatisfy { $0.hasSuffix(#","app":"B"}"#) })
        #expect(aHTTP.allSatisfy { $0.hasSuffix(#","app":"A"}"#) })
        // Each recorder keeps its own app's count; the transcript is one.
        #expect(try #require(rig.runner.recorder(ofApp: "B")).authenticationStatusCount == 1)
        #expect(rig.recorder.authenticationStatusCount == 0)
        #expect(try #require(rig.runner.recorder(ofApp: "B")).lines == rig.recorder.lines)
    }

    @Test func anExpectedAppAMatchesAsLinesAndLinesWithoutAnApp() {
        let lines = [
            TranscriptLine([
                ("callback", .string("setRequestorComplete")), ("status", .number(1)), ("app", .string("B")),
            ]),
            TranscriptLine([("callback", .string("setRequestorComplete")), ("status", .number(0))]),
        ]
        #expect(lines[0].matches(["callback": .string("setRequestorComplete")]))
        #expect(!lines[0].matches(["callback": .string("setRequestorComplete"), "app": .string("A")]))
        #expect(lines[1].matches(["callback": .string("setRequestorComplete"), "app": .string("A")]))
        #expect(!lines[1].matches(["callback": .string("setRequestorComplete"), "app": .string("B")]))
        #expect(ScenarioResult.firstUnmet([["status": .number(1), "app": .string("A")]], in: lines)?.index == 0)
        #expect(
            ScenarioResult.firstUnmet(
                [["status": .number(1), "app": .string("B")], ["status": .number(0), "app": .string("A")]], in: lines)
                == nil)
        let tagged = TranscriptLine([
            ("callback", .string("setRequestorComplete")), ("status", .number(0)), ("app", .string("A")),
        ])
        #expect(tagged.matches(["callback": .string("setRequestorComplete"), "app": .string("A")]))
        #expect(!tagged.matches(["app": .string("B")]))
    }

    // MARK: Settings

    @Test(arguments: bothWires)
    func anAppTakesTheScenariosSettingsExceptWhatItSets(wire: ScenarioRunner.Wire) async throws {
        var sameStatement = Scenario.App()
        sameStatement.platform = .iOS
        let rig = try Self.rig(wire, apps: ["B": Self.secondApp(), "C": sameStatement])
        let a = try #require(rig.runner.accessEnabler(ofApp: "A"))
        let b = try #require(rig.runner.accessEnabler(ofApp: "B"))
        let c = try #require(rig.runner.accessEnabler(ofApp: "C"))
        #expect(a === rig.accessEnabler)
        #expect(
            a.configuration.platform == .tvOS && b.configuration.platform == .tvOS && c.configuration.platform == .iOS)
        #expect(b.configuration.loginScreen == .thisDevice && c.configuration.loginScreen == .thisDevice)
        #expect(rig.runner.accessEnabler(ofApp: "D") == nil)
        // B registers with STATEMENT2, which holds REF31 and not REF30; C with A's STATEMENT.
        try await rig.runner.step(.setRequestor("REF31", serviceProviders: nil), app: "B")
        try await rig.runner.step(.setRequestor("REF31", serviceProviders: nil), app: "C")
        let completions = rig.recorder.callbacks.filter { $0.callback == "setRequestorComplete" }
        try #require(completions.count == 2)
        #expect(completions[0]["status"] == .number(1) && completions[0]["app"] == .string("B"))
        #expect(completions[1]["status"] == .number(0) && completions[1]["app"] == .string("C"))
        // Every app has storage of its own unless it shares one.
        let directories = Set(["A", "B", "C"].compactMap { rig.runner.storageDirectory(ofApp: $0) })
        #expect(directories.count == 3)
    }

    @Test func aStepForAnAppTheScenarioDoesNotHaveIsAScenarioError() async throws {
        let rig = try Self.rig(.inProcess, apps: [:])
        await #expect(throws: ScenarioError(path: "$.steps[0].app", reason: "no app \"B\" in the scenario (it has A)"))
        {
            try await rig.runner.step(.checkAuthentication, app: "B")
        }
    }

    // MARK: Storage

    @Test(arguments: bothWires)
    func anAppSharingAnotherAppsStorageSeesItsSignInAndLogout(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(
            wire,
            apps: [
                "B": Self.secondApp(storage: .sharedWith("A"), statement: nil),
                "C": Self.secondApp(storage: .sharedWith("B"), statement: nil),
                "D": Self.secondApp(storage: .own, statement: nil),
            ])
        #expect(rig.runner.storageDirectory(ofApp: "B") == rig.runner.storageDirectory(ofApp: "A"))
        #expect(rig.runner.storageDirectory(ofApp: "C") == rig.runner.storageDirectory(ofApp: "A"))
        #expect(rig.runner.storageDirectory(ofApp: "D") != rig.runner.storageDirectory(ofApp: "A"))
        _ = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        try await rig.logIn()
        for app in ["B", "C", "D"] {
            try await rig.runner.step(.setRequestor("REF30", serviceProviders: nil), app: app)
        }
        // B and C read A's sign-in from the directory they share, with no network call; D is another device.
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "B") == [
                "B:sendTrackingData(0,true,NotBoarded)", "B:\(authenticated)",
            ])
        #expect(rig.restCalls.isEmpty)
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "C") == [
                "C:sendTrackingData(0,true,NotBoarded)", "C:\(authenticated)",
            ])
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "D") == [
                "D:status(N000,info)", "D:sendTrackingData(0,false,)", "D:\(notAuthenticated)",
            ])
        // A logout by B is what A reads next.
        #expect(try await rig.signatures(of: .logout, app: "B").last == "B:\(notAuthenticated)")
        #expect(
            try await rig.signatures(of: .checkAuthentication) == [
                "status(N000,info)", "sendTrackingData(0,false,)", notAuthenticated,
            ])
    }

    @Test(arguments: bothWires)
    func aRestartRelaunchesThatAppOnly(wire: ScenarioRunner.Wire) async throws {
        let rig = try Self.rig(wire, apps: ["B": Self.secondApp(storage: .sharedWith("A"), statement: nil)])
        _ = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        try await rig.logIn()
        let a = try #require(rig.runner.accessEnabler(ofApp: "A"))
        let b = try #require(rig.runner.accessEnabler(ofApp: "B"))
        #expect(try await rig.signatures(of: .restart, app: "B") == [])
        let relaunched = try #require(rig.runner.accessEnabler(ofApp: "B"))
        #expect(relaunched !== b)
        #expect(rig.runner.accessEnabler(ofApp: "A") === a)
        // The relaunched B starts over its storage: setRequestor, then A's sign-in is there.
        #expect(
            try await rig.signatures(of: .setRequestor("REF30", serviceProviders: nil), app: "B") == [
                "B:setRequestorComplete(1)"
            ])
        #expect(
            try await rig.signatures(of: .checkAuthentication, app: "B") == [
                "B:sendTrackingData(0,true,NotBoarded)", "B:\(authenticated)",
            ])
        // A was not relaunched: it goes on without a setRequestor.
        #expect(
            try await rig.signatures(of: .checkAuthentication) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }

    @Test(arguments: bothWires)
    func eachAppHasADeviceOfItsOwn(wire: ScenarioRunner.Wire) async throws {
        var withoutDevice = Scenario.App()
        withoutDevice.device = {
            var none = Scenario.Device()
            none.present = false
            return none
        }()
        let rig = try Self.rig(wire, apps: ["B": Scenario.App(), "C": withoutDevice]) { scenario in
            scenario.device.present = true
            scenario.device.accessStatus = "denied"
        }
        let a = try #require(rig.runner.device(ofApp: "A"))
        let b = try #require(rig.runner.device(ofApp: "B"))
        #expect(a !== b)
        #expect(rig.runner.device(ofApp: "C") == nil)
        // B's device starts as the scenario's; a device step for B changes B's only.
        #expect(b.accessStatus == .denied)
        try await rig.runner.step(.device(Scenario.DeviceChange(accessStatus: "granted")), app: "B")
        #expect(b.accessStatus == .granted)
        #expect(a.accessStatus == .denied)
    }

    // MARK: Identity tokens

    @Test func identityTokensAreSignedByTheSandboxAndValidFor24HoursFromTheStart() async throws {
        var b = Scenario.App()
        b.platformIdentity = Scenario.IdentityToken(subject: "bob")
        let rig = try Self.rig(.inProcess, apps: ["B": b]) { scenario in
            scenario.serviceToken = Scenario.IdentityToken(subject: "jane")
        }
        let start = rig.sandbox.clock.now.timeIntervalSince1970.rounded(.down)
        let aToken = try #require(rig.runner.serviceToken(ofApp: "A"))
        let aClaims = try Self.claims(of: aToken)
        #expect(aClaims["iss"] as? String == "sandbox-identity")
        #expect(aClaims["sub"] as? String == "jane")
        #expect(aClaims["aud"] as? String == "Adobe" || (aClaims["aud"] as? [String]) == ["Adobe"])
        #expect((aClaims["exp"] as? Double) == start + 86_400)
        #expect(rig.runner.platformIdentity(ofApp: "A") == nil)
        #expect(rig.runner.serviceToken(ofApp: "B") == nil)
        let bClaims = try Self.claims(of: try #require(rig.runner.platformIdentity(ofApp: "B")))
        #expect(bClaims["iss"] as? String == "sandbox-platform")
        #expect(bClaims["sub"] as? String == "bob")
        // A token given later is still valid until 24 hours after the scenario's start.
        try await rig.runner.step(.advanceClock(3_600))
        try await rig.runner.step(.serviceToken(Scenario.IdentityToken(subject: "joe")))
        let later = try Self.claims(of: try #require(rig.runner.serviceToken(ofApp: "A")))
        #expect(later["sub"] as? String == "joe")
        #expect((later["iat"] as? Double) == start + 3_600)
        #expect((later["exp"] as? Double) == start + 86_400)
        // A step for B changes B's; null takes it away.
        try await rig.runner.step(.platformIdentity(nil), app: "B")
        #expect(rig.runner.platformIdentity(ofApp: "B") == nil)
        #expect(rig.runner.serviceToken(ofApp: "A") != nil)
        // The tokens are secrets: no transcript line carries one.
        let transcript = rig.recorder.lines.map(\.json).joined(separator: "\n")
        #expect(!transcript.contains(aToken) && !transcript.contains("eyJ"))
    }

    @Test func aTokenTheSandboxCannotSignIsAScenarioErrorNamingWhereItWasAskedFor() async throws {
        let rig = try Self.rig(.inProcess, apps: [:])
        await #expect(throws: ScenarioError.self) {
            try await rig.runner.step(.serviceToken(Scenario.IdentityToken(subject: "jane", issuer: "nobody")))
        }
        do {
            try await rig.runner.step(.serviceToken(Scenario.IdentityToken(subject: "jane", issuer: "nobody")))
        } catch let error as ScenarioError {
            #expect(error.path == "$.steps[1].serviceToken")
            #expect(error.reason.contains("identity service \"nobody\""))
        }
    }

    /// The claims of a JWS (its middle part, Base64URL-encoded JSON).
    private static func claims(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: Server logout

    @Test(arguments: bothWires)
    func aServerLogoutEndsTheSignInAtAdobePass(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
        // Adobe Pass deletes the profile on its side: nothing reaches the app yet…
        #expect(try await rig.run(.serverLogout(mvpd: "NotBoarded")) == [])
        #expect(rig.restCalls.isEmpty)
        // …and the next decision finds no profile.
        #expect(
            try await rig.run(.checkAuthorization("news")) == [
                "status(N130,error)", "sendTrackingData(1,false,NotBoarded)",
                "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR))",
            ])
        #expect(rig.lines("status").first?["message"]?.stringValue?.contains("authenticated_profile_missing") == true)
        #expect(try await rig.run(.checkAuthentication).last == notAuthenticated)
    }

    @Test(arguments: bothWires)
    func aServerLogoutOfAnotherMVPDLeavesTheSignIn(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Rig.loggedIn(wire)
        #expect(try await rig.run(.serverLogout(mvpd: "AppleBoarded")) == [])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    // MARK: Login with a provider chosen on the second screen

    /// A second-screen rig whose sessions reach Adobe Pass without an MVPD, as an app that
    /// lets the person choose on the `/activate` page sends them: the person must choose there.
    private static func secondScreenWithoutMVPD(_ wire: ScenarioRunner.Wire) async throws -> Rig {
        let rig = try Rig(
            wire,
            configuration: { configuration in
                configuration.transport = SessionsWithoutMVPD(configuration.transport)
            },
            scenario: { scenario in
                scenario.loginScreen = .secondScreen
            })
        #expect(try await rig.run(.setRequestor("REF30", serviceProviders: nil)) == ["setRequestorComplete(1)"])
        #expect(try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: [])) == [regularDialog])
        #expect(
            try await rig.run(.setSelectedProvider("NotBoarded")) == [
                "sendTrackingData(2,NotBoarded)", "status(REGCODE,info)",
            ])
        return rig
    }

    @Test(arguments: bothWires)
    func loginChoosesTheProviderOnTheActivatePage(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.secondScreenWithoutMVPD(wire)
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123", mvpd: "NotBoarded")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
        #expect(try await rig.run(.checkAuthorization("news")).last == "setToken(news)")
    }

    @Test(arguments: bothWires)
    func aLoginWithoutTheProviderThePageAsksForIsAScenarioError(wire: ScenarioRunner.Wire) async throws {
        let rig = try await Self.secondScreenWithoutMVPD(wire)
        await #expect(throws: ScenarioError.self) {
            try await rig.runner.step(.login(username: "alice", password: "alice123"))
        }
        do {
            try await rig.runner.step(.login(username: "alice", password: "alice123", mvpd: "Nope"))
            Issue.record("a provider the page does not offer is refused")
        } catch let error as ScenarioError {
            #expect(error.path == "$.steps[4].login.mvpd")
            #expect(error.reason.hasPrefix("the /activate page does not offer \"Nope\" (it offers "))
        }
        do {
            try await rig.runner.step(.login(username: "alice", password: "alice123"))
        } catch let error as ScenarioError {
            #expect(error.path == "$.steps[5].login.mvpd")
            #expect(
                error.reason.hasPrefix(
                    "is required: the /activate page asks the person to choose a provider (it offers "))
            #expect(error.reason.contains("NotBoarded"))
        }
    }

    @Test(arguments: bothWires)
    func aLoginsProviderIsUnusedWhenTheSessionHasOne(wire: ScenarioRunner.Wire) async throws {
        let rig = try Rig(wire) { $0.loginScreen = .secondScreen }
        _ = try await rig.run(.setRequestor("REF30", serviceProviders: nil))
        _ = try await rig.run(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        #expect(try await rig.run(.setSelectedProvider("NotBoarded")).last == "status(REGCODE,info)")
        #expect(
            try await rig.run(.login(username: "alice", password: "alice123", mvpd: "AppleBoarded")) == [
                "sendTrackingData(0,true,NotBoarded)", authenticated,
            ])
    }
}

/// Sends `POST …/sessions` without its `mvpd` field, so the sandbox opens the session with
/// no MVPD and the person must choose one on `/activate`, as for an app that lets the person
/// choose on the second screen.
///
/// Adobe Pass answers such a session with `resume` and `missingParameters: ["mvpd"]`, which
/// only the SDK's provider-choice support (not on this branch) reads as "show the code". So
/// this decorator hands the SDK the `authenticate`/`interactive` answer it reads today, for
/// the same code, naming the MVPD it asked for: the code, the session and the profile the
/// polling finds stay Adobe Pass's own, decided by the person's choice on `/activate`.
private final class SessionsWithoutMVPD: HTTPTransport, @unchecked Sendable {
    private let inner: any HTTPTransport

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
        -> HTTPResponseMessage
    {
        guard request.method == "POST", request.url.path.hasSuffix("/sessions"), let body = request.body,
            let form = String(data: body, encoding: .utf8)
        else { return try await inner.send(request, timeout: timeout) }
        let fields = form.split(separator: "&")
        let mvpd = fields.first { $0.hasPrefix("mvpd=") }.map { String($0.dropFirst("mvpd=".count)) }
        var sent = request
        sent.body = Data(fields.filter { !$0.hasPrefix("mvpd=") }.joined(separator: "&").utf8)
        var response = try await inner.send(sent, timeout: timeout)
        guard let mvpd, var answer = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
            answer["actionName"] as? String == "resume", let code = answer["code"] as? String,
            let provider = answer["serviceProvider"] as? String
        else { return response }
        answer["actionName"] = "authenticate"
        answer["actionType"] = "interactive"
        answer["url"] = "/api/v2/authenticate/\(provider)/\(code)"
        answer["mvpd"] = mvpd
        answer["missingParameters"] = nil
        if let patched = try? JSONSerialization.data(withJSONObject: answer) { response.body = patched }
        return response
    }
}

extension Rig {
    /// Runs `step` for `app` to quiescence and returns the signatures of the callbacks it
    /// produced, each of an app other than `A` prefixed with its name (`B:setRequestorComplete(1)`);
    /// `A`'s lines, which name it when the scenario has several apps, are not prefixed.
    func signatures(of step: Scenario.Step, app: String = Scenario.topLevelApp) async throws -> [String] {
        recorder.reset()
        runner.meter.reset()
        try await runner.step(step, app: app)
        return recorder.callbacks.compactMap { line in
            CallbackSignature.of(line).map { signature in
                line["app"]?.stringValue.flatMap { $0 == Scenario.topLevelApp ? nil : "\($0):\(signature)" }
                    ?? signature
            }
        }
    }
}
