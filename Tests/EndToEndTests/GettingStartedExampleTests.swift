import Foundation
import PassSandbox
import Testing

/// The async `main.swift` of "Getting started on a set-top box" (Examples/AsyncQuickStart),
/// run as a reader runs it: against a PassSandbox on loopback, a person typing the provider
/// on standard input and the code on the sandbox's activation page.
@Suite struct GettingStartedExampleTests {
    private static let executableName = "AsyncQuickStart"

    private static var executable: URL? {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(executableName),
            packageRoot.appendingPathComponent(".build/debug/\(executableName)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static let notBuilt: Comment =
        "Skipped: the AsyncQuickStart example is not built (run `swift build --build-tests`)."

    /// A storage directory of the test's own: the example keeps its tokens where an app would.
    private func scratchData() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("quickstart-\(UUID().uuidString)")
    }

    @Test(.enabled(if: executable != nil, notBuilt))
    func theAsyncMainSignsInOnASecondScreenAndGetsAMediaToken() async throws {
        let executable = try #require(Self.executable)
        let sandbox = PassSandbox(clock: .system)
        let (server, baseURL) = try sandbox.serveOverLoopback()
        defer { server.shutdown() }
        let data = scratchData()
        defer { try? FileManager.default.removeItem(at: data) }

        try await ChildProcessGate.shared.withGate {
            let running = try RunningCommand(
                executable, [baseURL.absoluteString], input: Data("NotBoarded\n".utf8),
                environment: ["XDG_DATA_HOME": data.path])
            defer { running.stopForcefully() }
            let prompt = try await running.waitForOutput(
                containing: " and enter ", timeout: SanitizerTiming.scaled(300))
            let codeLine = try #require(prompt.split(separator: "\n").last { $0.contains(" and enter ") })
            #expect(
                codeLine.hasPrefix("On your phone or computer, go to \(baseURL.absoluteString)/activate and enter "))
            let code = try #require(codeLine.split(separator: " ").last.map(String.init))

            // The person types the code on their phone; the example's next poll finds the profile.
            _ = try await SimulatedUserAgent(httpBase: baseURL).activate(
                code: code, username: "alice", password: "alice123")
            let status = try await running.waitForExit(timeout: SanitizerTiming.scaled(300))
            #expect(status == 0, "errors: \(running.errors)")
            let lines = running.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "output: \(running.output)")
            #expect(lines.first?.hasPrefix("Choose your TV provider: ") == true)
            #expect(lines.first?.contains("NotBoarded") == true)
            #expect(lines.last?.hasPrefix("Signed in: media token for news (") == true, "output: \(running.output)")
        }
    }

    @Test(.enabled(if: executable != nil, notBuilt))
    func theAsyncMainSaysWhyWhenItCannotSignIn() async throws {
        let executable = try #require(Self.executable)
        let refusing = try RefusingPort()
        let unreachable = "http://127.0.0.1:\(refusing.port)"
        let data = scratchData()
        defer { try? FileManager.default.removeItem(at: data) }

        try await ChildProcessGate.shared.withGate {
            let running = try RunningCommand(executable, [unreachable], environment: ["XDG_DATA_HOME": data.path])
            defer { running.stopForcefully() }
            let status = try await running.waitForExit(timeout: SanitizerTiming.scaled(300))
            #expect(status == 1)
            #expect(running.output.hasPrefix("Not signed in: "), "output: \(running.output)")
            #expect(running.output.contains("CFG404"), "the status that explains it: \(running.output)")
        }
        withExtendedLifetime(refusing) {}
    }
}
