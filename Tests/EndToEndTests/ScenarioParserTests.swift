import AccessEnabler
import AccessEnablerScenarios
import Foundation
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
        #expect(scenario.steps.map(\.name) == [
            "setRequestor", "checkAuthentication", "getAuthentication", "setSelectedProvider", "login", "checkAuthorization",
            "checkPreauthorizedResources", "getMetadata", "getSelectedProvider", "logout", "device", "world", "advanceClock", "restart",
        ])
        #expect(scenario.steps[12] == .advanceClock(90000))
        #expect(scenario.expect.count == 1)
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
        #expect(error(of: #"{"steps": [{"setRequestor": "REF30"}, {"checkAuthenticaton": {}}]}"#)?.path == "$.steps[1].checkAuthenticaton")
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
        #expect(error(of: #"{"device": {"picker": ["cancel", "sideways"]}, "steps": []}"#)?.path == "$.device.picker[1]")
    }

    @Test func badFailureName() {
        #expect(error(of: #"{"device": {"failure": "explode"}, "steps": []}"#)?.path == "$.device.failure")
    }

    @Test func badWorldNamesThePathInsideTheWorld() {
        let found = error(of: #"{"world": {"serviceProviders": [{"id": "REF30", "mvpds": [{"id": "M", "authenticationTTL": "long"}]}], "softwareStatements": {"S": ["REF30"]}}, "steps": []}"#)
        #expect(found?.path == "$.world.serviceProviders[0].mvpds[0].authenticationTTL")
        #expect(found?.reason == "expected a number")
    }

    @Test func aWorldStepNamesAnMVPDOfTheWorld() {
        #expect(error(of: #"{"steps": [{"world": {"mvpd": "Nope", "set": {"ssoEnabled": false}}}]}"#)?.path == "$.steps[0].world.mvpd")
        #expect(error(of: #"{"steps": [{"world": {"mvpd": "AppleBoarded", "requestor": "REF30", "set": {}}}]}"#)?.path == "$.steps[0].world.requestor")
    }

    @Test func negativeClockMove() {
        #expect(error(of: #"{"steps": [{"advanceClock": -5}]}"#)?.path == "$.steps[0].advanceClock")
    }

    @Test func stepWithTwoKeys() {
        #expect(error(of: #"{"steps": [{"logout": {}, "restart": {}}]}"#)?.path == "$.steps[0]")
    }

    @Test func expectationsMatchInOrder() {
        let lines = [
            TranscriptLine([("callback", .string("a")), ("status", .number(1))]),
            TranscriptLine([("callback", .string("b"))]),
        ]
        #expect(ScenarioResult.firstUnmet([["callback": .string("a")], ["callback": .string("b")]], in: lines) == nil)
        #expect(ScenarioResult.firstUnmet([["callback": .string("b")], ["callback": .string("a")]], in: lines)?.index == 1)
        #expect(ScenarioResult.firstUnmet([["callback": .string("a"), "status": .number(0)]], in: lines)?.index == 0)
    }
}
