import Foundation
import Testing

@testable import PassSandbox

@Suite("World file")
struct SandboxWorldTests {
    private func load(_ json: String) -> SandboxWorldError? {
        do {
            _ = try SandboxWorld.load(from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func theSpecificationExampleLoadsWithDefaults() throws {
        let json = #"""
            { "accessTokenTTL": 86400,
              "softwareStatements": { "STATEMENT": ["REF30"] },
              "serviceProviders": [ { "id": "REF30", "mvpds": [ {
                  "id": "AppleBoarded", "displayName": "Apple Boarded TV", "logoUrl": "https://x/logo.png",
                  "platformMappingId": "AppleBoarded", "enablePlatformServices": true,
                  "displayInPlatformPicker": true, "boardingStatus": "SUPPORTED",
                  "ssoEnabled": true, "integrationActive": true, "degraded": false, "tempPass": false,
                  "requiresSVC": false, "authenticationTTL": 86400, "authorizationTTL": 3600,
                  "users": [ { "username": "alice", "password": "alice123", "userID": "u-alice",
                               "householdID": "h-1", "zip": ["10001"], "resources": ["news", "sports"] } ] },
                  { "id": "Plain" } ] } ] }
            """#
        let world = try SandboxWorld.load(from: Data(json.utf8))
        let provider = try #require(world.serviceProvider("REF30"))
        #expect(provider.name == "REF30")
        #expect(provider.mvpd("AppleBoarded")?.user("alice")?.resources == ["news", "sports"])
        let plain = try #require(provider.mvpd("Plain"))
        #expect(plain.displayName == "Plain")
        #expect(plain.ssoEnabled && plain.integrationActive && !plain.degraded && !plain.enablePlatformServices)
        #expect(plain.authenticationTTL == 86_400 && plain.authorizationTTL == 3_600)
        #expect(plain.platformMappingId == nil && plain.boardingStatus == nil)
    }

    @Test func theDefaultWorldRoundTrips() throws {
        let data = try JSONEncoder().encode(SandboxWorld.default)
        #expect(try SandboxWorld.load(from: data) == SandboxWorld.default)
    }

    @Test func errorsNameTheJSONPath() {
        let base = #""softwareStatements": {"S": ["REF30"]}"#
        #expect(
            load(
                #"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A"}, {"id": "B"}, {"id": "C", "authenticationTTL": "long"}]}]}"#
            )?.message
                == "serviceProviders[0].mvpds[2].authenticationTTL: expected a number")
        #expect(
            load(#"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A", "ssoEnable": false}]}]}"#)?
                .message
                == "serviceProviders[0].mvpds[0].ssoEnable: unknown key")
        #expect(
            load(
                #"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A", "users": [{"username": "u"}]}]}]}"#
            )?.message
                == "serviceProviders[0].mvpds[0].users[0].password: required key is missing")
        #expect(
            load(#"{"softwareStatements": {"S": ["REF30", "REF99"]}, "serviceProviders": [{"id": "REF30"}]}"#)?.message
                == "softwareStatements.S[1]: unknown service provider \"REF99\"")
        #expect(
            load(#"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A"}, {"id": "A"}]}]}"#)?.message
                == "serviceProviders[0].mvpds[1].id: duplicate MVPD \"A\"")
        #expect(
            load(
                #"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A", "boardingStatus": "YES"}]}]}"#)?
                .path
                == "serviceProviders[0].mvpds[0].boardingStatus")
        #expect(
            load(#"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A", "authorizationTTL": 0}]}]}"#)?
                .message
                == "serviceProviders[0].mvpds[0].authorizationTTL: must be positive")
        #expect(
            load(#"{\#(base), "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "A", "degraded": 1}]}]}"#)?.message
                == "serviceProviders[0].mvpds[0].degraded: expected true or false")
        #expect(
            load(#"{\#(base), "serviceProviders": {"id": "REF30"}}"#)?.message == "serviceProviders: expected an array")
        #expect(load("[1]")?.message == "$: expected an object")
        #expect(load("{")?.message == "$: not valid JSON")
        #expect(load(#"{"serviceProviders": []}"#)?.message == "softwareStatements: required key is missing")
    }
}
