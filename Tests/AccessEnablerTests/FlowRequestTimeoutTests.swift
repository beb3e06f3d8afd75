import Foundation
import Testing
@testable import AccessEnabler

/// The REST exchange's own deadline: a transport that ignores its timeout cannot hold a
/// flow, and any timeout value is accepted.
@Suite struct FlowRequestTimeoutTests {
    static let request = HTTPRequestMessage(method: "GET", url: URL(string: "http://sandbox.invalid/api/v2/REF30/configuration")!, headers: [], body: nil)

    /// Answers after `delay` seconds, whatever the timeout says (as an in-process server does).
    static func slow(_ delay: TimeInterval) -> InProcessTransport {
        InProcessTransport { _ in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            return HTTPResponseMessage(status: 200, headers: [], body: Data())
        }
    }

    @Test func aTransportIgnoringTheTimeoutIsCutOff() async {
        let exchange = RESTExchange(transport: Self.slow(10), timeout: 0.2)
        do {
            _ = try await exchange.send(Self.request, operation: .configuration)
            Issue.record("a 10 s answer came back within a 0.2 s timeout")
        } catch {
            #expect(error == .transport(operation: .configuration, .timedOut))
        }
    }

    @Test func aQuickAnswerComesBack() async throws {
        let response = try await RESTExchange(transport: Self.slow(0), timeout: 5).send(Self.request, operation: .configuration)
        #expect(response.status == 200)
    }

    @Test(arguments: [0, -1, .infinity, .greatestFiniteMagnitude, 1e12] as [TimeInterval])
    func anyTimeoutValueIsAccepted(timeout: TimeInterval) async throws {
        let response = try await RESTExchange(transport: Self.slow(0), timeout: timeout).send(Self.request, operation: .configuration)
        #expect(response.status == 200)
    }

    @Test func transportFailuresPassThrough() async {
        let failing = InProcessTransport { _ throws(TransportFailure) in throw .cannotConnect("refused") }
        do {
            _ = try await RESTExchange(transport: failing, timeout: 5).send(Self.request, operation: .authorize)
            Issue.record("no failure")
        } catch {
            #expect(error == .transport(operation: .authorize, .cannotConnect("refused")))
        }
    }
}
