import Foundation
import Testing

@testable import PassSandbox

/// The world's `authenticationSessionTTL`: how long a session and its code stay open, so a
/// QA rig sees a TV's code expire in real time.
@Suite("The world sets the code's lifetime")
struct SandboxSessionLifetimeTests {
    private static func world(_ field: String) -> String {
        #"{\#(field)"softwareStatements": {"STATEMENT": ["REF30"]}, "serviceProviders": [{"id": "REF30", "mvpds": [{"id": "NotBoarded", "users": [{"username": "alice", "password": "alice123"}]}]}]}"#
    }

    @Test func theWorldFileSetsItAndRefusesValuesOutOfRange() throws {
        #expect(try SandboxWorld.load(from: Data(Self.world("").utf8)).authenticationSessionTTL == 1_800)
        #expect(
            try SandboxWorld.load(from: Data(Self.world(#""authenticationSessionTTL": 60, "#).utf8))
                .authenticationSessionTTL == 60)
        for (value, problem) in [
            ("0", "authenticationSessionTTL: must be from 1 to 86400 seconds"),
            ("86401", "authenticationSessionTTL: must be from 1 to 86400 seconds"),
            (#""60""#, "authenticationSessionTTL: expected a number"),
        ] {
            #expect(throws: SandboxWorldError.self, "\(value)") {
                try SandboxWorld.load(from: Data(Self.world(#""authenticationSessionTTL": \#(value), "#).utf8))
            }
            do {
                _ = try SandboxWorld.load(from: Data(Self.world(#""authenticationSessionTTL": \#(value), "#).utf8))
            } catch {
                #expect(error.message == problem, "\(value)")
            }
        }
    }

    @Test func aSessionEndsWhenTheWorldSaysAndThePagesSaySo() async throws {
        var world = SandboxWorld.default
        world.authenticationSessionTTL = 90
        let client = try await SandboxTestClient(sandbox: PassSandbox(world: world))
        let session = try SandboxTestClient.object(await client.createSession(mvpd: "NotBoarded"))
        let code = try #require(session.string("code"))
        #expect(session.string("notAfter") == String(client.sandbox.clock.now.epochMilliseconds + 90_000))
        client.sandbox.clock.advance(by: 89)
        #expect(await client.get("/api/v2/REF30/profiles/code/\(code)").status == 200)
        client.sandbox.clock.advance(by: 1)
        #expect(await client.get("/api/v2/REF30/profiles/code/\(code)").status == 400)
        let activation = await client.sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/activate",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html")],
                body: Array("code=\(code)".utf8)))
        #expect(
            SimulatedUserAgent.errorMessage(in: String(decoding: activation.body, as: UTF8.self))
                == "The code \(code) has expired: a code lasts 90 seconds. Start the sign-in again from the application to get a new code."
        )
        #expect(SignInRefusal.lifetime(60) == "1 minute")
        #expect(SignInRefusal.lifetime(1_800) == "30 minutes")
    }
}
