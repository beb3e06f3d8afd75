import Foundation
import Testing

@testable import PassSandbox

@Suite("TempPass, basic and promotional")
struct SandboxTempPassTests {
    /// The default world with a promotional TempPass MVPD (`Promo`: 2 resources, 1 hour).
    private static let promotionalWorld: SandboxWorld = {
        var world = SandboxWorld.default
        world.serviceProviders[0].mvpds.append(
            SandboxMVPDConfig(
                id: "Promo", displayName: "Promotional TempPass", tempPass: true, tempPassResourceLimit: 2,
                authenticationTTL: 3_600, authorizationTTL: 300))
        return world
    }()

    /// `AP-TempPass-Identity` for a JSON text.
    private static func identity(_ json: String) -> String { Data(json.utf8).base64EncodedString() }

    private func promoClient(deviceID: String = "device-1", sandbox: PassSandbox? = nil) async throws
        -> SandboxTestClient
    {
        try await SandboxTestClient(sandbox: sandbox ?? PassSandbox(world: Self.promotionalWorld), deviceID: deviceID)
    }

    /// Authorize or preauthorize decisions of `Promo` with an optional identity header.
    private func decide(_ client: SandboxTestClient, _ resources: [String], identity: String?, authorize: Bool = true)
        async throws -> (status: Int, decisions: [[String: Any]])
    {
        var headers = client.headers(contentType: "application/json")
        if let identity { headers.append(("AP-TempPass-Identity", identity)) }
        let body = try JSONSerialization.data(withJSONObject: ["resources": resources])
        let response = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/api/v2/REF30/decisions/\(authorize ? "authorize" : "preauthorize")/Promo",
                headers: headers, body: Array(body)))
        let decisions = (try? SandboxTestClient.object(response))?["decisions"] as? [[String: Any]] ?? []
        return (response.status, decisions)
    }

    private func promoProfile(_ client: SandboxTestClient, identity: String?) async -> SandboxResponse {
        var headers = client.headers()
        if let identity { headers.append(("AP-TempPass-Identity", identity)) }
        return await client.sandbox.respond(
            to: SandboxRequest(method: "GET", path: "/api/v2/REF30/profiles/Promo", headers: headers))
    }

    private func errorCode(_ decision: [String: Any]) -> String? { decision.object("error").string("code") }

    // MARK: Basic

    @Test func basicTempPassDecisionsComeFromTempPassUntilTheWindowEnds() async throws {
        let client = try await SandboxTestClient()
        // The first decision starts the window.
        let granted = try SandboxTestClient.object(
            await client.postJSON("/api/v2/REF30/decisions/authorize/TempPass", #"{"resources":["anything"]}"#))
        let decision = try #require((granted["decisions"] as? [[String: Any]])?.first)
        #expect(decision.string("source") == "temppass")
        #expect(decision["authorized"] as? Bool == true)
        #expect(client.sandbox.verifyMediaToken(decision.object("token").string("serializedToken") ?? ""))

        client.sandbox.clock.advance(by: 1_800)
        let over = await client.postJSON("/api/v2/REF30/decisions/authorize/TempPass", #"{"resources":["anything"]}"#)
        #expect(over.status == 200, "TempPass errors are item-level in decisions")
        let denied = try #require((try SandboxTestClient.object(over)["decisions"] as? [[String: Any]])?.first)
        #expect(denied.string("source") == "temppass")
        #expect(denied["authorized"] as? Bool == false)
        #expect(denied.object("error").string("code") == "temporary_access_duration_limit_exceeded")
        #expect(denied.object("error").int("status") == 403)
        #expect(denied.object("error").string("action") == "authentication")
        #expect(denied["token"] == nil)

        // Logging out does not give the device a new window; a reset does.
        _ = await client.get("/api/v2/REF30/logout/TempPass?redirectUrl=adobepass%3A%2F%2Fios.app")
        #expect(await client.get("/api/v2/REF30/profiles/TempPass").status == 403)
        #expect(
            client.sandbox.resetTempPass(
                mvpd: "TempPass", deviceIdentifier: "fingerprint " + Data("device-1".utf8).base64EncodedString()) == 1)
        _ = await client.createSession(mvpd: "TempPass")
        let fresh = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/TempPass")).object("profiles")
            .object("TempPass")
        #expect(fresh.int("notAfter") == client.sandbox.clock.now.epochMilliseconds + 1_800_000)
    }

    @Test func aProfileRequestDoesNotStartTheWindow() async throws {
        let client = try await SandboxTestClient()
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/TempPass")).object("profiles").isEmpty
        )
        client.sandbox.clock.advance(by: 3_600)
        _ = await client.createSession(mvpd: "TempPass")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles/TempPass")).object("profiles").object(
                "TempPass"
            ).string("type") == "temporary")
    }

    @Test func aTempPassProfileSitsBesideARegularProfile() async throws {
        let client = try await SandboxTestClient()
        _ = try await client.login(mvpd: "NotBoarded")
        let session = try SandboxTestClient.object(await client.createSession(mvpd: "TempPass"))
        #expect(session.string("reasonType") == "temporary")
        let profiles = try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles")
        #expect(Set(profiles.keys) == ["NotBoarded", "TempPass"])
        #expect(profiles.object("NotBoarded").string("type") == "regular")
        #expect(profiles.object("TempPass").string("type") == "temporary")
        // The regular profile still authorizes its own MVPD.
        let regular = try SandboxTestClient.object(
            await client.postJSON("/api/v2/REF30/decisions/authorize/NotBoarded", #"{"resources":["news"]}"#))
        #expect((regular["decisions"] as? [[String: Any]])?.first?.string("source") == "mvpd")
        // Once the TempPass window is over only the regular profile is listed.
        client.sandbox.clock.advance(by: 1_800)
        #expect(
            Array(try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles").keys) == [
                "NotBoarded"
            ])
    }

    // MARK: Promotional

    @Test func promotionalTempPassNeedsTheIdentityHeader() async throws {
        let client = try await promoClient()
        for bad in [nil, "not base64!", Self.identity("[1, 2]"), Self.identity("{}")] {
            let (status, decisions) = try await decide(client, ["a"], identity: bad)
            #expect(status == 200)
            let decision = try #require(decisions.first)
            #expect(decision["authorized"] as? Bool == false)
            #expect(errorCode(decision) == "invalid_header_identity_for_temporary_access")
            #expect(decision.object("error").int("status") == 400)
            #expect(decision.object("error").string("action") == "none")
            #expect(decision.object("error").string("details")?.contains("AP-TempPass-Identity") == true)
            let profile = await promoProfile(client, identity: bad)
            #expect(profile.status == 400)
            #expect(
                try SandboxTestClient.object(profile).string("code") == "invalid_header_identity_for_temporary_access")
        }
        // Refusals spent nothing and started nothing.
        #expect(
            try SandboxTestClient.object(await promoProfile(client, identity: Self.identity(#"{"email":"a@b.c"}"#)))
                .object("profiles").isEmpty)
    }

    @Test func eachDistinctResourceSpendsOneOfTheBudget() async throws {
        let client = try await promoClient()
        let alice = Self.identity(#"{"email": "alice@example.com"}"#)
        // Preauthorization only looks.
        let (_, preauthorized) = try await decide(client, ["a", "b", "c"], identity: alice, authorize: false)
        #expect(preauthorized.map { $0["authorized"] as? Bool } == [true, true, true])
        // The first authorization starts the trial and spends on "a"; "a" again is free.
        let (_, first) = try await decide(client, ["a", "a"], identity: alice)
        #expect(first.map { $0["authorized"] as? Bool } == [true, true])
        #expect(first.first?.string("source") == "temppass")
        let profile = try SandboxTestClient.object(await promoProfile(client, identity: alice)).object("profiles")
            .object("Promo")
        #expect(profile.string("type") == "temporary")
        #expect(profile.object("attributes").object("remaining_resources").int("value") == 1)
        #expect(profile.object("attributes").object("used_assets")["value"] as? [String] == ["a"])
        let (_, second) = try await decide(client, ["b", "c", "a"], identity: alice)
        #expect(second.map { $0["authorized"] as? Bool } == [true, false, true])
        try #require(second.count == 3)
        #expect(errorCode(second[1]) == "temporary_access_resources_limit_exceeded")
        #expect(second[1].object("error").int("status") == 403)
        #expect(second[1].object("error").string("action") == "authentication")
        let (_, preauthorizedAfter) = try await decide(client, ["b", "d"], identity: alice, authorize: false)
        #expect(preauthorizedAfter.map { $0["authorized"] as? Bool } == [true, false])
        // With the budget spent, the profile request refuses.
        let spent = await promoProfile(client, identity: alice)
        #expect(spent.status == 403)
        #expect(try SandboxTestClient.object(spent).string("code") == "temporary_access_resources_limit_exceeded")
        #expect(
            try SandboxTestClient.object(await client.get("/api/v2/REF30/profiles")).object("profiles")["Promo"] == nil)
    }

    @Test func theTrialFollowsTheIdentityAndTheDevice() async throws {
        let sandbox = PassSandbox(world: Self.promotionalWorld)
        let first = try await promoClient(deviceID: "device-1", sandbox: sandbox)
        let second = try await promoClient(deviceID: "device-2", sandbox: sandbox)
        let third = try await promoClient(deviceID: "device-3", sandbox: sandbox)
        let alice = Self.identity(#"{"email":"alice@example.com","plan":"promo"}"#)
        let aliceReordered = Self.identity("{ \"plan\" : \"promo\",\n \"email\" : \"alice@example.com\" }")
        let bob = Self.identity(#"{"email":"bob@example.com"}"#)
        #expect(try await decide(first, ["a"], identity: alice).decisions.first?["authorized"] as? Bool == true)
        // A known identity on a new device continues the trial (key order and spacing do not matter).
        #expect(
            try await decide(second, ["b"], identity: aliceReordered).decisions.first?["authorized"] as? Bool == true)
        #expect(
            try errorCode(#require(await decide(second, ["c"], identity: alice).decisions.first))
                == "temporary_access_resources_limit_exceeded")
        // A new identity on a known device continues the device's trial.
        #expect(
            try errorCode(#require(await decide(first, ["d"], identity: bob).decisions.first))
                == "temporary_access_resources_limit_exceeded")
        // A new identity on a new device starts a new trial.
        let carol = Self.identity(#"{"email":"carol@example.com"}"#)
        #expect(
            try await decide(third, ["x", "y"], identity: carol).decisions.map { $0["authorized"] as? Bool } == [
                true, true,
            ])
    }

    @Test func promotionalTempPassEndsWithItsWindowToo() async throws {
        let client = try await promoClient()
        let alice = Self.identity(#"{"email":"alice@example.com"}"#)
        _ = try await decide(client, ["a"], identity: alice)
        client.sandbox.clock.advance(by: 3_600)
        #expect(
            try errorCode(#require(await decide(client, ["a"], identity: alice).decisions.first))
                == "temporary_access_duration_limit_exceeded")
        let profile = await promoProfile(client, identity: alice)
        #expect(profile.status == 403)
        #expect(try SandboxTestClient.object(profile).string("code") == "temporary_access_duration_limit_exceeded")
    }

    @Test func configurationStillShowsAPromotionalTempPassAsTempPass() async throws {
        let client = try await promoClient()
        let mvpds =
            try SandboxTestClient.object(await client.get("/api/v2/REF30/configuration")).object("requestor")["mvpds"]
            as? [[String: Any]] ?? []
        #expect(mvpds.first { $0.string("id") == "Promo" }?["isTempPass"] as? Bool == true)
    }

    @Test func theWorldFileTakesAResourceLimitForTempPassOnly() throws {
        let mvpd = { (fields: String) in
            #"{"softwareStatements": {"S": ["R"]}, "serviceProviders": [{"id": "R", "mvpds": [{"id": "P", \#(fields)}]}]}"#
        }
        let world = try SandboxWorld.load(from: Data(mvpd(#""tempPass": true, "tempPassResourceLimit": 3"#).utf8))
        #expect(world.serviceProvider("R")?.mvpd("P")?.tempPassResourceLimit == 3)
        #expect(world.serviceProvider("R")?.mvpd("P")?.isPromotionalTempPass == true)
        #expect(
            try SandboxWorld.load(from: Data(mvpd(#""tempPass": true"#).utf8)).serviceProvider("R")?.mvpd("P")?
                .isPromotionalTempPass == false)
        for (fields, message) in [
            (
                #""tempPassResourceLimit": 3"#,
                "serviceProviders[0].mvpds[0].tempPassResourceLimit: only a TempPass MVPD (\"tempPass\": true) has a resource limit"
            ),
            (
                #""tempPass": true, "tempPassResourceLimit": 0"#,
                "serviceProviders[0].mvpds[0].tempPassResourceLimit: must be positive"
            ),
        ] {
            do {
                _ = try SandboxWorld.load(from: Data(mvpd(fields).utf8))
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.message == message)
            }
        }
        // A dashboard change is checked the same way.
        let sandbox = PassSandbox()
        #expect(throws: SandboxWorldError.self) {
            try sandbox.updateMVPD("NotBoarded", settingJSON: ["tempPassResourceLimit": 2])
        }
        try sandbox.updateMVPD("TempPass", settingJSON: ["tempPassResourceLimit": 2])
        #expect(sandbox.world.serviceProvider("REF30")?.mvpd("TempPass")?.isPromotionalTempPass == true)
    }
}
