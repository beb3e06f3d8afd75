import Foundation
import Testing

@testable import AccessEnabler

/// The access token made ready at the top of a request's task: the request then uses it,
/// and a renewal that failed there is the request's failure, never renewed a second time.
@Suite("Prepared access token")
struct PreparedAccessTokenTests {
    private let emptyProfiles = #"{"profiles":{}}"#

    @Test func theRequestUsesThePreparedTokenWithoutAnotherDCRRequest() async throws {
        let server = FakeAdobePass()
        server.answer(json: emptyProfiles)
        let client = RESTFixtures.client(server)
        let context = RESTFixtures.context()

        let prepared = await PreparedAccessToken.prepare(client.tokenProvider, for: context)
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 1)
        _ = try await PreparedAccessToken.$current.withValue(prepared) {
            try await client.profiles(serviceProvider: "SPX", context: context)
        }
        #expect(server.registrationCount == 1)
        #expect(server.tokenCount == 1)
        #expect(server.apiRequests.map { $0.header("Authorization") } == ["Bearer token-1"])
        // The registration carried the caller's device information.
        let registration = try #require(server.requests.first)
        #expect(registration.url.path == "/o/client/register")
        #expect(registration.header("X-Device-Info").flatMap(DeviceInfo.init(headerValue:)) == RESTFixtures.deviceInfo)
    }

    @Test func aFailedPreparationIsTheRequestsFailureAndIsNotRenewedTwice() async throws {
        let server = FakeAdobePass(failedRegistrations: 1)
        server.answer(json: emptyProfiles)
        let client = RESTFixtures.client(server)
        let context = RESTFixtures.context()

        let prepared = await PreparedAccessToken.prepare(client.tokenProvider, for: context)
        #expect(server.registrationRequestCount == 1)
        let error = await #expect(throws: RESTClientError.self) {
            try await PreparedAccessToken.$current.withValue(prepared) {
                _ = try await client.profiles(serviceProvider: "SPX", context: context)
            }
        }
        guard case .server(let operation, let status, _)? = error else {
            Issue.record("expected the registration's 503, got \(String(describing: error))")
            return
        }
        #expect(operation == .dcrRegister)
        #expect(status == 503)
        // The request threw the preparation's failure: no second registration, no API call.
        #expect(server.registrationRequestCount == 1)
        #expect(server.apiRequests.isEmpty)

        // The failure is handed out once: the task's next request renews, as any would.
        _ = try await PreparedAccessToken.$current.withValue(prepared) {
            try await client.profiles(serviceProvider: "SPX", context: context)
        }
        #expect(server.registrationRequestCount == 2)
        #expect(server.apiRequests.count == 1)
    }

    @Test func aFailureStaysWithTheProviderItPrepared() async throws {
        let failing = FakeAdobePass(failedRegistrations: 1)
        let working = FakeAdobePass()
        working.answer(json: emptyProfiles)
        let (failingClient, workingClient) = (RESTFixtures.client(failing), RESTFixtures.client(working))
        let context = RESTFixtures.context()

        let prepared = await PreparedAccessToken.prepare(failingClient.tokenProvider, for: context)
        _ = try await PreparedAccessToken.$current.withValue(prepared) {
            try await workingClient.profiles(serviceProvider: "SPX", context: context)
        }
        #expect(working.registrationRequestCount == 1)
        #expect(working.apiRequests.count == 1)
        #expect(prepared.takeFailure(of: failingClient.tokenProvider) != nil, "still there for its own provider")
        #expect(prepared.takeFailure(of: failingClient.tokenProvider) == nil, "handed out once")
    }

    @Test func preparationsMadeTogetherShareOneRenewal() async throws {
        let server = FakeAdobePass(tokenDelay: .milliseconds(20))
        let client = RESTFixtures.client(server)
        let context = RESTFixtures.context()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = await PreparedAccessToken.prepare(client.tokenProvider, for: context) }
            }
        }
        #expect(server.registrationRequestCount == 1)
        #expect(server.tokenCount == 1)
    }
}
