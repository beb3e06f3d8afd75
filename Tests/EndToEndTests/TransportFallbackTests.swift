import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// Where libcurl cannot be loaded, the default transport sends through URLSession, and the
/// app hears it once through its diagnostics hook, at the first setRequestor.
@Suite struct TransportFallbackTests {
    @Test func aTransportWithoutLibcurlWorksThroughURLSessionAndSaysSoOnce() async throws {
        let sandbox = PassSandbox()
        let (server, url) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "transport-fallback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let log = SetupAdviceTests.Log()
        var configuration = AccessEnablerConfiguration(
            environment: .custom(url), platform: .tvOS, storageDirectory: storage)
        configuration.transport = CurlTransport(libraryName: "libcurl-missing-here.so.4")
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.diagnostics = { log.append($0) }
        let recorder = CallbackRecorder(revealSecrets: true)
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        for _ in 0..<2 {
            accessEnabler.setRequestor("REF30")
            await accessEnabler.waitUntilIdle()
            #expect(recorder.takeSignatures() == ["setRequestorComplete(1)"], "the requests went through URLSession")
        }
        let fallbacks = log.all.compactMap { if case .transportFallback(let message) = $0 { message } else { nil } }
        #expect(fallbacks.count == 1, "said once: \(fallbacks)")
        #expect(fallbacks.first?.contains("libcurl-missing-here.so.4") == true)
        #expect(fallbacks.first?.contains("requests go through URLSession") == true)
        #expect("\(Diagnostic.transportFallback(message: "m"))" == "transport fallback: m")
    }

    @Test func theDefaultTransportSaysNothing() async throws {
        let sandbox = PassSandbox()
        let (server, url) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "transport-fallback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let log = SetupAdviceTests.Log()
        var configuration = AccessEnablerConfiguration(
            environment: .custom(url), platform: .tvOS, storageDirectory: storage)
        configuration.clock = SandboxTimeSource(sandbox.clock)
        configuration.diagnostics = { log.append($0) }
        #expect(configuration.transport is CurlTransport)
        let recorder = CallbackRecorder(revealSecrets: true)
        let accessEnabler = AccessEnabler(softwareStatement: "STATEMENT", configuration: configuration)
        accessEnabler.delegate = recorder
        accessEnabler.setRequestor("REF30")
        await accessEnabler.waitUntilIdle()
        #expect(recorder.takeSignatures() == ["setRequestorComplete(1)"])
        #expect(!log.all.contains { if case .transportFallback = $0 { true } else { false } })
    }
}
