import Foundation
import Testing

@testable import AccessEnabler

/// Starts and runs the other process of the transport tests that need one: a transport that
/// may stop the process (URLSession on the answers it traps on), or one that must read its
/// environment as a fresh process does (proxies).
enum TransportHelper {
    static let transportVariable = "ACCESSENABLER_TRANSPORT_HELPER"
    static let urlVariable = "ACCESSENABLER_TRANSPORT_HELPER_URL"

    /// Which transport the helper sends with.
    enum Transport: String {
        case urlSession, curl
    }

    /// Runs this test binary with the helper test only: one GET of `url` through `transport`,
    /// with `environment` added to this process's.
    static func start(_ transport: Transport, url: URL, environment extra: [String: String] = [:]) throws
        -> RunningCommand
    {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = [
            transportVariable: transport.rawValue, urlVariable: url.absoluteString, "SWIFT_BACKTRACE": "enable=no",
        ]
        environment.merge(extra) { _, new in new }
        return try RunningCommand(
            URL(fileURLWithPath: binary), ["--testing-library", "swift-testing", "--filter", "TransportHelperProcess"],
            environment: environment)
    }

    /// The line the helper prints with the request's outcome.
    static func outcome(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("HELPER outcome: ") }.map {
            String($0.dropFirst("HELPER outcome: ".count))
        }
    }
}

/// Runs only in the other process of the transport tests (its environment names a
/// transport); skipped in every other run.
@Suite struct TransportHelperProcess {
    @Test(.enabled(if: ProcessInfo.processInfo.environment[TransportHelper.transportVariable] != nil))
    func send() async throws {
        let environment = ProcessInfo.processInfo.environment
        let kind = try #require(
            environment[TransportHelper.transportVariable].flatMap(TransportHelper.Transport.init(rawValue:)))
        let url = try #require(environment[TransportHelper.urlVariable].flatMap(URL.init(string:)))
        let transport: any HTTPTransport = kind == .curl ? CurlTransport() : URLSessionTransport()
        let result: Result<HTTPResponseMessage, TransportFailure>
        do {
            result = .success(
                try await transport.send(
                    HTTPRequestMessage(method: "GET", url: url, headers: [("Accept", "application/json")]), timeout: 20)
            )
        } catch {
            result = .failure(error)
        }
        let line = "HELPER outcome: \(HostileTransportTests.kind(result))\n"
        _ = Array(line.utf8).withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
}
