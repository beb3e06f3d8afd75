import Foundation
import Testing

@testable import PassSandbox

@Suite("Configuration")
struct SandboxConfigurationTests {
    private func mvpds(_ client: SandboxTestClient) async throws -> [String: [String: Any]] {
        let response = await client.get("/api/v2/REF30/configuration/")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let requestor = try SandboxTestClient.object(response).object("requestor")
        #expect(requestor.string("id") == "REF30")
        #expect(requestor.string("name") == "Reference Requestor 30")
        #expect((requestor["domains"] as? [[String: Any]])?.first?.string("name") == "adobe.com")
        let list = try #require(requestor["mvpds"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0.string("id") ?? "", $0) })
    }

    @Test func listsActiveIntegrationsWithPlatformFlags() async throws {
        let client = try await SandboxTestClient()
        let list = try await mvpds(client)
        #expect(
            Set(list.keys) == [
                "AppleBoarded", "PickerOnly", "NotBoarded", "SSODisabled", "Degraded", "TempPass", "SVCProvider",
            ])
        let boarded = try #require(list["AppleBoarded"])
        #expect(boarded.string("displayName") == "Apple Boarded TV")
        #expect(boarded.string("logoUrl")?.isEmpty == false)
        #expect(boarded["enablePlatformServices"] as? Bool == true)
        #expect(boarded["displayInPlatformPicker"] as? Bool == true)
        #expect(boarded.string("boardingStatus") == "SUPPORTED")
        #expect(boarded.string("platformMappingId") == "AppleBoarded")
        #expect(list["PickerOnly"]?.string("boardingStatus") == "PICKER")
        #expect(list["NotBoarded"]?["enablePlatformServices"] as? Bool == false)
        #expect(list["NotBoarded"]?["platformMappingId"] == nil)
        #expect(list["SSODisabled"]?["enablePlatformServices"] as? Bool == false)
        #expect(list["TempPass"]?["isTempPass"] as? Bool == true)
        #expect(list["AppleBoarded"]?["isTempPass"] == nil)
        #expect(list["SVCProvider"]?["requiresSVC"] as? Bool == true)
    }

    @Test func dashboardChangesShowAtOnce() async throws {
        let client = try await SandboxTestClient()
        #expect(client.sandbox.updateMVPD("AppleBoarded", requestor: "REF30") { $0.ssoEnabled = false })
        #expect(try await mvpds(client)["AppleBoarded"]?["enablePlatformServices"] as? Bool == false)
        try client.sandbox.updateMVPD("NotBoarded", settingJSON: ["integrationActive": false])
        #expect(try await mvpds(client)["NotBoarded"] == nil)
        #expect(!client.sandbox.updateMVPD("Nobody") { $0.degraded = true })
    }

    @Test func jsonDashboardChangesAreChecked() async throws {
        let sandbox = PassSandbox()
        #expect(throws: SandboxWorldError(path: "ssoEnabled", problem: "expected true or false")) {
            try sandbox.updateMVPD("AppleBoarded", settingJSON: ["ssoEnabled": "no"])
        }
        #expect(throws: SandboxWorldError(path: "ssoEnable", problem: "unknown key")) {
            try sandbox.updateMVPD("AppleBoarded", settingJSON: ["ssoEnable": false])
        }
        #expect(throws: SandboxWorldError.self) { try sandbox.updateMVPD("Nobody", settingJSON: ["degraded": true]) }
        // A refused change leaves the world as it was.
        #expect(sandbox.world == SandboxWorld.default)
        try sandbox.updateMVPD("AppleBoarded", settingJSON: ["degraded": true])
        #expect(sandbox.world.serviceProviders.allSatisfy { $0.mvpd("AppleBoarded")?.degraded == true })
        #expect(sandbox.world.serviceProvider("REF30")?.mvpd("AppleBoarded")?.users.count == 2)
    }
}
