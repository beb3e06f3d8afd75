import Foundation
import Testing

@testable import PassSandbox

@Suite("DCR and access tokens")
struct SandboxDCRTests {
    let info = SandboxTestClient.deviceInfo

    private func register(_ sandbox: PassSandbox, body: String, headers: [(name: String, value: String)]? = nil) async
        -> SandboxResponse
    {
        await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/register",
                headers: headers ?? [("Content-Type", "application/json"), ("X-Device-Info", info)],
                body: Array(body.utf8)))
    }

    private func token(_ sandbox: PassSandbox, form: String) async -> SandboxResponse {
        await sandbox.respond(
            to: SandboxRequest(
                method: "POST", path: "/o/client/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("X-Device-Info", info)],
                body: Array(form.utf8)))
    }

    @Test func registerAndTokenAnswerTheDocumentedShapes() async throws {
        let sandbox = PassSandbox()
        let registered = await register(
            sandbox, body: #"{"software_statement":"STATEMENT","redirect_uri":"adobepass://ios.app"}"#)
        #expect(registered.status == 201)
        let credentials = try SandboxTestClient.object(registered)
        let clientID = try #require(credentials.string("client_id"))
        let secret = try #require(credentials.string("client_secret"))
        #expect(credentials["redirect_uris"] as? [String] == ["adobepass://ios.app"])
        #expect(credentials["grant_types"] as? [String] == ["client_credentials"])
        #expect(credentials["scopes"] as? [String] == ["api:client:v2"])
        #expect(credentials.int("client_id_issued_at") == Int64(sandbox.clock.now.timeIntervalSince1970))

        let issued = await token(
            sandbox, form: "client_id=\(clientID)&client_secret=\(secret)&grant_type=client_credentials")
        #expect(issued.status == 201)
        let grant = try SandboxTestClient.object(issued)
        #expect(grant.string("access_token")?.isEmpty == false)
        #expect(grant.int("expires_in") == 86_400)
        #expect(grant.string("token_type") == "bearer")
        #expect(grant.int("created_at") == sandbox.clock.now.epochMilliseconds)
        #expect(grant.string("id") != nil)
    }

    @Test func registerRefusesUnknownOrMissingStatements() async throws {
        let sandbox = PassSandbox()
        let unknown = await register(sandbox, body: #"{"software_statement":"NOPE"}"#)
        #expect(unknown.status == 400)
        #expect(try SandboxTestClient.object(unknown).string("error") == "unapproved_software_statement")
        let missing = await register(sandbox, body: #"{"redirect_uri":"x://y"}"#)
        #expect(try SandboxTestClient.object(missing).string("error") == "invalid_request")
        let noDeviceInfo = await register(
            sandbox, body: #"{"software_statement":"STATEMENT"}"#, headers: [("Content-Type", "application/json")])
        #expect(noDeviceInfo.status == 400)
    }

    @Test func tokenRefusesBadCredentialsAndGrantTypes() async throws {
        let sandbox = PassSandbox()
        let credentials = try SandboxTestClient.object(
            await register(sandbox, body: #"{"software_statement":"STATEMENT"}"#))
        let clientID = try #require(credentials.string("client_id"))
        let wrongSecret = await token(
            sandbox, form: "client_id=\(clientID)&client_secret=wrong&grant_type=client_credentials")
        #expect(wrongSecret.status == 400)
        #expect(try SandboxTestClient.object(wrongSecret).string("error") == "invalid_client")
        let wrongGrant = await token(sandbox, form: "client_id=\(clientID)&client_secret=x&grant_type=password")
        #expect(try SandboxTestClient.object(wrongGrant).string("error") == "unsupported_grant_type")
        let missing = await token(sandbox, form: "client_id=\(clientID)")
        #expect(try SandboxTestClient.object(missing).string("error") == "invalid_request")
    }

    @Test func apiCallsNeedAValidBearer() async throws {
        let client = try await SandboxTestClient()
        let ok = await client.get("/api/v2/REF30/configuration")
        #expect(ok.status == 200)

        let none = await client.sandbox.respond(to: SandboxRequest(method: "GET", path: "/api/v2/REF30/configuration"))
        #expect(none.status == 401)
        #expect(try SandboxTestClient.object(none).string("code") == "invalid_access_token_client_application")

        var forged = client
        forged.bearer = "forged"
        #expect(await forged.get("/api/v2/REF30/configuration").status == 401)

        client.sandbox.clock.advance(by: 86_400)
        let expired = await client.get("/api/v2/REF30/configuration")
        #expect(expired.status == 401)
        let error = try SandboxTestClient.object(expired)
        #expect(error.string("code") == "invalid_access_token_client_application")
        #expect(error.string("action") == "application-registration")
        #expect(error.int("status") == 401)
    }

    @Test func theStatementMustCoverTheRequestor() async throws {
        let client = try await SandboxTestClient(statement: "STATEMENT2")
        let other = await client.get("/api/v2/REF30/configuration")
        #expect(other.status == 401)
        #expect(try SandboxTestClient.object(other).string("code") == "invalid_access_token_service_provider")
        #expect(await client.get("/api/v2/REF31/configuration").status == 200)
        let unknown = await client.get("/api/v2/NOPE/configuration")
        #expect(unknown.status == 400)
        #expect(try SandboxTestClient.object(unknown).string("code") == "invalid_parameter_service_provider")
    }

    @Test func unknownPathsAndWrongMethodsAreRefused() async throws {
        let client = try await SandboxTestClient()
        #expect(await client.get("/api/v2/REF30/nothing").status == 404)
        let wrongMethod = await client.postForm("/api/v2/REF30/configuration", "")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
    }
}
