import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// The two legal answers on which FoundationNetworking (Swift 6.3) stops the process —
/// `NativeProtocol.swift:240: Fatal error: Transfer completed, but there's no response` —
/// a known upstream defect (Docs/Robustness.md, "Known defects of FoundationNetworking").
/// ``URLSessionTransport`` meets each in a process of its own, which must die of it; the
/// default transport meets the same bytes in this process and ends in one outcome.
///
/// When a toolchain fixes the defect, the child lives and these tests say so: the
/// documentation of the defect is then to be updated.
@Suite(.timeLimit(.minutes(10)))
struct URLSessionTrapTests {
    /// An answer whose connection closes after the status line, before the head ends.
    static let headCutAfterTheStatusLine = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8)

    /// A chunked answer whose last chunk is followed by a trailer field.
    static let chunkedWithATrailer = HostileAnswers.chunked(
        body: Array(#"{"profiles":{}}"#.utf8), extensions: false, trailers: [("Server-Timing", "db;dur=53")])

    static let trapMessage = "Transfer completed, but there's no response"

    /// Runs URLSessionTransport against `server` in a child process; returns how it ended
    /// and what it wrote.
    private func urlSessionInAChild(_ server: HostileHTTPServer) async throws -> (
        RunningCommand.Ending?, String, String
    ) {
        try await ChildProcessGate.shared.withGate {
            let child = try TransportHelper.start(
                .urlSession, url: server.baseURL.appendingPathComponent("api/v2/REF30/profiles"))
            let ending = try await child.waitForEnding(timeout: 120)
            return (ending, child.output, child.errors)
        }
    }

    private func expectTheTrap(
        _ ending: RunningCommand.Ending?, _ output: String, _ errors: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .signalled(let signal) = ending else {
            let outcome = TransportHelper.outcome(in: output) ?? "no outcome"
            Issue.record(
                "URLSession no longer stops the process here (\(String(describing: ending)), \(outcome)): update the docs",
                sourceLocation: sourceLocation)
            return
        }
        #expect(signal == SIGILL || signal == SIGTRAP, "died of signal \(signal)", sourceLocation: sourceLocation)
        #expect(
            errors.contains(Self.trapMessage), "its last words: \(errors.suffix(400))", sourceLocation: sourceLocation)
    }

    private func curl(_ server: HostileHTTPServer) async -> Result<HTTPResponseMessage, TransportFailure> {
        do {
            let request = HTTPRequestMessage(
                method: "GET", url: server.baseURL.appendingPathComponent("api/v2/REF30/profiles"))
            return .success(try await CurlTransport().send(request, timeout: 30))
        } catch {
            return .failure(error)
        }
    }

    @Test func aHeadCutByACloseAfterTheStatusLineStopsURLSessionNotTheDefaultTransport() async throws {
        let server = try HostileHTTPServer { _ in .init(Self.headCutAfterTheStatusLine, ending: .close) }
        defer { server.shutdown() }
        let (ending, output, errors) = try await urlSessionInAChild(server)
        expectTheTrap(ending, output, errors)
        let result = await curl(server)
        guard case .failure(.connectionLost) = result else {
            Issue.record("the default transport gave \(result)")
            return
        }
    }

    @Test func aChunkedAnswerEndingWithATrailerStopsURLSessionNotTheDefaultTransport() async throws {
        let server = try HostileHTTPServer { _ in .init(Self.chunkedWithATrailer) }
        defer { server.shutdown() }
        let (ending, output, errors) = try await urlSessionInAChild(server)
        expectTheTrap(ending, output, errors)
        let response = try await curl(server).get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"profiles":{}}"#)
    }

    /// The helper itself works: the same child, on an answer URLSession reads, lives and
    /// reports it (so a death above is the answer's doing).
    @Test func theChildLivesOnAPlainAnswer() async throws {
        let server = try HostileHTTPServer { _ in .init(HostileAnswers.plain(body: Array(#"{"profiles":{}}"#.utf8))) }
        defer { server.shutdown() }
        let (ending, output, _) = try await urlSessionInAChild(server)
        #expect(ending == .exited(0))
        #expect(TransportHelper.outcome(in: output) == "answer 200")
    }
}
