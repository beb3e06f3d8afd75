import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A bad scenario file is refused with the JSON path at fault (the runner exits with code 2).
@Suite struct ScenarioParserTests {
    private func error(of json: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func readsTheSpecExample() throws {
        let json = """
            { "platform": "tvOS", "world": "default", "softwareStatement": "STATEMENT",
              "device": { "accessStatus": "granted", "promptAnswer": "granted",
                          "signedIn": { "provider": "AppleBoarded", "user": "alice", "expiresIn": 86400 },
                          "picker": [ { "select": "AppleBoarded", "user": "alice" }, "other", "cancel" ],
                          "failure": null },
              "options": { "handleSVC": false },
              "steps": [ { "setRequestor": "REF30" }, { "checkAuthentication": {} },
                         { "getAuthentication": { "forceAuthn": false, "filter": [] } },
                         { "setSelectedProvider": "NotBoarded" },
                         { "login": { "username": "alice", "password": "alice123" } },
                         { "checkAuthorization": "news" }, { "checkPreauthorizedResources": ["news", "x"] },
                         { "getMetadata": { "opCode": "userMeta", "key": "tokenSource" } },
                         { "getSelectedProvider": {} }, { "logout": {} },
                         { "device": { "accessStatus": "denied" } },
                         { "world": { "mvpd": "AppleBoarded", "set": { "ssoEnabled": false } } },
                         { "advanceClock": 90000 }, { "restart": {} } ],
              "expect": [ { "callback": "setRequestorComplete", "status": 1 } ] }
            """
        let scenario = try ScenarioParser.parse(Data(json.utf8))
        #expect(scenario.platform == .tvOS)
        #expect(scenario.device.signedIn == Scenario.SignIn(provider: "AppleBoarded", user: "alice", expiresIn: 86400))
        #expect(scenario.device.picker == [.select(provider: "AppleBoarded", user: "alice"), .other, .cancel])
        #expect(
            scenario.steps.map(\.name) == [
                "setRequestor", "checkAuthentication", "getAuthentication", "setSelectedProvider", "login",
                "checkAuthorization",
                "checkPreauthorizedResources", "getMetadata", "getSelectedProvider", "logout", "device", "world",
                "advanceClock", "restart",
            ])
        #expect(scenario.steps[12] == .advanceClock(90000))
        #expect(scenario.expect.count == 1)
    }

    /// A number a scenario file gives (the clock, a throttle, a fault) is refused with its
    /// path when it is past what the runner can use, never converted with a trap.
    @Test(arguments: [
        (#"{"advanceClock": 1e300}"#, "$.steps[0].advanceClock"),
        (#"{"advanceClock": -5}"#, "$.steps[0].advanceClock"),
        (#"{"throttle": {"burst": 1e19}}"#, "$.steps[0].throttle.burst"),
        (#"{"throttle": {"retryAfter": 1e300}}"#, "$.steps[0].throttle.retryAfter"),
        (#"{"fault": {"endpoint": "configuration", "status": 1e19}}"#, "$.steps[0].fault.status"),
        (#"{"fault": {"endpoint": "configuration", "count": 2.5}}"#, "$.steps[0].fault.count"),
        (#"{"fault": {"endpoint": "configuration", "latency": 1e300}}"#, "$.steps[0].fault.latency"),
    ])
    func aNumberPastItsRangeIsRefusedWithItsPath(step: String, path: String) {
        #expect(error(of: #"{"steps": [\#(step)]}"#)?.path == path)
    }

    @Test func notJSON() {
        #expect(error(of: "{ steps: ")?.path == "$")
    }

    @Test func missingSteps() {
        #expect(error(of: "{}") == ScenarioError(path: "$.steps", reason: "is required"))
    }

    @Test func unknownTopLevelKey() {
        #expect(error(of: #"{"steps": [], "stpes": []}"#)?.path == "$.stpes")
    }

    @Test func unknownStepNamesItsIndex() {
        #expect(
            error(of: #"{"steps": [{"setRequestor": "REF30"}, {"checkAuthenticaton": {}}]}"#)?.path
                == "$.steps[1].checkAuthenticaton")
    }

    @Test func wrongTypeInsideAStep() {
        let found = error(of: #"{"steps": [{"login": {"username": "alice", "password": 7}}]}"#)
        #expect(found?.path == "$.steps[0].login.password")
        #expect(found?.reason == "expected a string, found a number")
    }

    @Test func badAccessStatus() {
        #expect(error(of: #"{"device": {"accessStatus": "maybe"}, "steps": []}"#)?.path == "$.device.accessStatus")
    }

    @Test func badPickerEntry() {
        #expect(
            error(of: #"{"device": {"picker": ["cancel", "sideways"]}, "steps": []}"#)?.path == "$.device.picker[1]")
    }

    @Test func badFailureName() {
        #expect(error(of: #"{"device": {"failure": "explode"}, "steps": []}"#)?.path == "$.device.failure")
    }

    @Test func badWorldNamesThePathInsideTheWorld() {
        let found = error(
            of:
                #"{"world": {"serviceProviders": [{"id": "REF30", "mvpds": [{"id": "M", "authenticationTTL": "long"}]}], "softwareStatements": {"S": ["REF30"]}}, "steps": []}"#
        )
        #expect(found?.path == "$.world.serviceProviders[0].mvpds[0].authenticationTTL")
        #expect(found?.reason == "expected a number")
    }

    @Test func aWorldStepNamesAnMVPDOfTheWorld() {
        #expect(
            error(of: #"{"steps": [{"world": {"mvpd": "Nope", "set": {"ssoEnabled": false}}}]}"#)?.path
                == "$.steps[0].world.mvpd")
        #expect(
            error(of: #"{"steps": [{"world": {"mvpd": "AppleBoarded", "requestor": "REF30", "set": {}}}]}"#)?.path
                == "$.steps[0].world.requestor")
    }

    @Test func negativeClockMove() {
        #expect(error(of: #"{"steps": [{"advanceClock": -5}]}"#)?.path == "$.steps[0].advanceClock")
    }

    @Test func stepWithTwoKeys() {
        #expect(error(of: #"{"steps": [{"logout": {}, "restart": {}}]}"#)?.path == "$.steps[0]")
    }

    // MARK: Apps, identity tokens, provider choice, server logout

    @Test func readsAppsTokensProviderChoiceAndTheNewSteps() throws {
        let json = """
            { "loginScreen": "secondScreen", "providerChoice": "onSecondScreen",
              "serviceToken": { "sub": "jane" }, "platformIdentity": { "sub": "jane", "issuer": "sandbox-platform" },
              "apps": {
                "B": { "platform": "iOS", "loginScreen": "thisDevice", "providerChoice": "onDevice", "softwareStatement": "STATEMENT2",
                       "device": { "accessStatus": "denied" }, "options": { "handleSVC": true },
                       "serviceToken": { "sub": "jane" }, "platformIdentity": null, "storage": "own" },
                "C": { "storage": "A", "device": null },
                "D": { "storage": "C" } },
              "steps": [ { "setRequestor": "REF30" },
                         { "setRequestor": "REF31", "app": "B" },
                         { "login": { "username": "alice", "password": "alice123", "mvpd": "NotBoarded" } },
                         { "serviceToken": { "sub": "joe" }, "app": "B" }, { "serviceToken": null },
                         { "platformIdentity": { "sub": "joe" } }, { "platformIdentity": null, "app": "C" },
                         { "serverLogout": { "mvpd": "NotBoarded" } }, { "restart": {}, "app": "D" }, { "checkAuthentication": {}, "app": "A" } ] }
            """
        let scenario = try ScenarioParser.parse(Data(json.utf8))
        #expect(scenario.providerChoice == .onSecondScreen)
        #expect(scenario.serviceToken == Scenario.IdentityToken(subject: "jane"))
        #expect(scenario.platformIdentity == Scenario.IdentityToken(subject: "jane", issuer: "sandbox-platform"))
        #expect(scenario.appNames == ["A", "B", "C", "D"])
        let b = try #require(scenario.apps["B"])
        #expect(
            b.platform == .iOS && b.loginScreen == .thisDevice && b.providerChoice == .onDevice
                && b.softwareStatement == "STATEMENT2")
        #expect(b.device?.accessStatus == "denied" && b.options == ["handleSVC": .bool(true)])
        #expect(
            b.serviceToken == Scenario.IdentityToken(subject: "jane") && b.platformIdentity == nil && b.storage == .own)
        let c = try #require(scenario.apps["C"])
        #expect(
            c.storage == .sharedWith("A") && c.device?.present == false && c.platform == nil
                && c.softwareStatement == nil)
        #expect(scenario.apps["D"]?.storage == .sharedWith("C"))
        #expect(
            scenario.steps == [
                .setRequestor("REF30", serviceProviders: nil), .setRequestor("REF31", serviceProviders: nil),
                .login(username: "alice", password: "alice123", mvpd: "NotBoarded"),
                .serviceToken(Scenario.IdentityToken(subject: "joe")), .serviceToken(nil),
                .platformIdentity(Scenario.IdentityToken(subject: "joe")), .platformIdentity(nil),
                .serverLogout(mvpd: "NotBoarded"), .restart, .checkAuthentication,
            ])
        #expect(scenario.stepApps == [1: "B", 3: "B", 6: "C", 8: "D"])
        #expect(
            (0..<scenario.steps.count).map(scenario.app(ofStep:)) == ["A", "B", "A", "B", "A", "A", "C", "A", "D", "A"])
    }

    @Test func aScenarioWithoutTheNewKeysHasOneAppAndNoTokens() throws {
        let scenario = try ScenarioParser.parse(
            Data(#"{"steps": [{"login": {"username": "a", "password": "b"}}]}"#.utf8))
        #expect(scenario.appNames == ["A"])
        #expect(
            scenario.providerChoice == .onDevice && scenario.serviceToken == nil && scenario.platformIdentity == nil)
        #expect(scenario.steps == [.login(username: "a", password: "b", mvpd: nil)])
    }

    @Test(arguments: [
        (
            #"{"providerChoice": "onPhone", "steps": []}"#, "$.providerChoice",
            #"expected "onDevice" or "onSecondScreen", found "onPhone""#
        ),
        (#"{"serviceToken": "jane", "steps": []}"#, "$.serviceToken", "expected an object, found a string"),
        (#"{"serviceToken": {}, "steps": []}"#, "$.serviceToken.sub", "is required"),
        (#"{"serviceToken": {"sub": ""}, "steps": []}"#, "$.serviceToken.sub", "the subject must not be empty"),
        (
            #"{"serviceToken": {"sub": "jane", "subject": "x"}, "steps": []}"#, "$.serviceToken.subject",
            "is not a known key (expected one of: issuer, sub)"
        ),
        (
            #"{"serviceToken": {"sub": "jane", "issuer": "nobody"}, "steps": []}"#, "$.serviceToken.issuer",
            #"the world has no identity service "nobody" (it has sandbox-identity, sandbox-platform)"#
        ),
        (
            #"{"serviceToken": {"sub": "jane", "issuer": "sandbox-platform"}, "steps": []}"#, "$.serviceToken.issuer",
            #""sandbox-platform" issues Adobe-Subject-Token tokens, not a service token"#
        ),
        (
            #"{"platformIdentity": {"sub": "jane", "issuer": "sandbox-identity"}, "steps": []}"#,
            "$.platformIdentity.issuer",
            #""sandbox-identity" issues AD-Service-Token tokens, not a platform identity"#
        ),
        (#"{"apps": [], "steps": []}"#, "$.apps", "expected an object, found an array"),
        (
            #"{"apps": {"A": {}}, "steps": []}"#, "$.apps.A",
            #""A" is the top-level app: its settings are the scenario's own top-level keys"#
        ),
        (#"{"apps": {"": {}}, "steps": []}"#, "$.apps.", "an app needs a name"),
        (
            #"{"apps": {"B": {"world": "default"}}, "steps": []}"#, "$.apps.B.world",
            "is not a known key (expected one of: device, loginScreen, options, platform, platformIdentity, providerChoice, serviceToken, softwareStatement, storage)"
        ),
        (
            #"{"apps": {"B": {"platform": "android"}}, "steps": []}"#, "$.apps.B.platform",
            #"expected "iOS" or "tvOS", found "android""#
        ),
        (
            #"{"apps": {"B": {"device": {"accessStatus": "maybe"}}}, "steps": []}"#, "$.apps.B.device.accessStatus",
            #"expected one of denied, error, granted, notDetermined, restricted, found "maybe""#
        ),
        (
            #"{"apps": {"B": {"serviceToken": {"sub": 7}}}, "steps": []}"#, "$.apps.B.serviceToken.sub",
            "expected a string, found a number"
        ),
        (
            #"{"apps": {"B": {"storage": "C"}}, "steps": []}"#, "$.apps.B.storage",
            #"expected "own" or the name of another app (A, B), found "C""#
        ),
        (
            #"{"apps": {"B": {"storage": "B"}}, "steps": []}"#, "$.apps.B.storage",
            #"an app cannot share its own storage; "own" gives it a directory of its own"#
        ),
        (
            #"{"apps": {"B": {"storage": "C"}, "C": {"storage": "B"}}, "steps": []}"#, "$.apps.B.storage",
            #"the apps share storage in a loop (B → C → B): one of them needs "own""#
        ),
        (
            #"{"steps": [{"checkAuthentication": {}, "app": "B"}]}"#, "$.steps[0].app",
            #"no app "B" in the scenario (it has A)"#
        ),
        (
            #"{"steps": [{"checkAuthentication": {}, "app": null}]}"#, "$.steps[0].app",
            "expected the name of an app, found null"
        ),
        (#"{"steps": [{"checkAuthentication": {}, "app": 2}]}"#, "$.steps[0].app", "expected a string, found a number"),
        (
            #"{"steps": [{"app": "A"}]}"#, "$.steps[0]",
            #"a step is an object with exactly one key (the call), and optionally "app"; found 0 keys besides "app""#
        ),
        (
            #"{"steps": [{"login": {"username": "a", "password": "b", "mvpd": "Nope"}}]}"#, "$.steps[0].login.mvpd",
            #"no MVPD "Nope" in the scenario's world"#
        ),
        (#"{"steps": [{"serverLogout": {}}]}"#, "$.steps[0].serverLogout.mvpd", "is required"),
        (
            #"{"steps": [{"serverLogout": {"mvpd": "Nope"}}]}"#, "$.steps[0].serverLogout.mvpd",
            #"no MVPD "Nope" in the scenario's world"#
        ),
        (
            #"{"steps": [{"serverLogout": {"mvpd": "NotBoarded", "everywhere": true}}]}"#,
            "$.steps[0].serverLogout.everywhere", "is not a known key (expected one of: mvpd)"
        ),
        (
            #"{"steps": [{"serviceToken": {"sub": "jane", "issuer": "nobody"}}]}"#, "$.steps[0].serviceToken.issuer",
            #"the world has no identity service "nobody" (it has sandbox-identity, sandbox-platform)"#
        ),
        (
            #"{"steps": [{"platformIdentity": {"issuer": "sandbox-platform"}}]}"#, "$.steps[0].platformIdentity.sub",
            "is required"
        ),
    ])
    func aBadNewKeyNamesItsPath(json: String, path: String, reason: String) {
        #expect(error(of: json) == ScenarioError(path: path, reason: reason))
    }

    @Test func aTokenOfAnIdentityServiceTheSandboxHasOnlyThePublicKeyOfIsRefused() throws {
        let world = """
            {"serviceProviders": [{"id": "REF30", "mvpds": [{"id": "M"}]}], "softwareStatements": {"S": ["REF30"]},
             "identityServices": [{"issuer": "partner", "kind": "serviceToken", "key": {"kty": "RSA", "n": "\(publicModulus)", "e": "AQAB"}}]}
            """
        let found = error(
            of: #"{"world": \#(world), "serviceToken": {"sub": "jane", "issuer": "partner"}, "steps": []}"#)
        #expect(
            found
                == ScenarioError(
                    path: "$.serviceToken.issuer",
                    reason:
                        #"the world gives only the public key of "partner", so the sandbox cannot sign a token for it"#)
        )
    }

    /// The modulus of the sandbox's own service-token test key (any valid public key does).
    private var publicModulus: String { SandboxIdentityService.defaults[0].key?.n ?? "" }

    @Test func expectationsMatchInOrder() {
        let lines = [
            TranscriptLine([("callback", .string("a")), ("status", .number(1))]),
            TranscriptLine([("callback", .string("b"))]),
        ]
        #expect(ScenarioResult.firstUnmet([["callback": .string("a")], ["callback": .string("b")]], in: lines) == nil)
        #expect(
            ScenarioResult.firstUnmet([["callback": .string("b")], ["callback": .string("a")]], in: lines)?.index == 1)
        #expect(ScenarioResult.firstUnmet([["callback": .string("a"), "status": .number(0)]], in: lines)?.index == 0)
    }
}
