import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// Both ways the SDK reaches the sandbox; facade tests run over each.
let bothWires: [ScenarioRunner.Wire] = [.loopbackHTTP, .inProcess]

/// A facade under test: the scenario runner started with a scenario's set-up (world,
/// device, platform, options) and no steps, driven a step at a time.
final class Rig: @unchecked Sendable {
    let runner: ScenarioRunner

    /// Starts a rig. `configure` adjusts the scenario before start (device, platform, world).
    convenience init(_ wire: ScenarioRunner.Wire, _ configure: (inout Scenario) -> Void = { _ in }) throws {
        try self.init(wire, configuration: nil, scenario: configure)
    }

    /// Starts a rig whose AccessEnabler configuration `configuration` adjusts too.
    init(
        _ wire: ScenarioRunner.Wire, configuration: (@Sendable (inout AccessEnablerConfiguration) -> Void)?,
        scenario configure: (inout Scenario) -> Void
    ) throws {
        var scenario = Scenario()
        scenario.device.present = false
        // Most facade tests sign in through the MVPD page; the second-screen suites set
        // `.secondScreen` themselves.
        scenario.loginScreen = .thisDevice
        configure(&scenario)
        runner = ScenarioRunner(scenario: scenario, wire: wire, revealSecrets: true)
        runner.configure = configuration
        try runner.start()
    }

    deinit { runner.stop() }

    var sandbox: PassSandbox { runner.sandbox }
    var device: SimulatedPartnerFramework? { runner.device }
    var accessEnabler: AccessEnabler { runner.accessEnabler! }
    var recorder: CallbackRecorder { runner.recorder }

    /// Runs `step` to quiescence and returns the callback signatures it produced (only those).
    @discardableResult
    func run(_ step: Scenario.Step) async throws -> [String] {
        recorder.reset()
        runner.meter.reset()
        try await runner.step(step)
        lastLines = recorder.callbacks
        return recorder.takeSignatures()
    }

    /// Runs a direct facade call to quiescence and returns the callback signatures.
    @discardableResult
    func call(_ body: (AccessEnabler) async -> Void) async -> [String] {
        recorder.reset()
        runner.meter.reset()
        await body(accessEnabler)
        await runner.settle()
        lastLines = recorder.callbacks
        return recorder.takeSignatures()
    }

    /// Makes `body`'s calls as one burst (the engine takes none of them until the last is
    /// made, however busy the machine), runs them to quiescence and returns the signatures.
    func callInOneBurst(_ body: (AccessEnabler) -> Void) async -> [String] {
        await call { accessEnabler in
            let together = await accessEnabler.callTogether(body)
            #expect(together, "the engine was idle when the burst began")
        }
    }

    /// The REST/DCR calls (`METHOD /path`) the SDK made during the last step.
    var restCalls: [String] { runner.meter.requests }

    /// The full callback lines of the last step (for values signatures leave out).
    private(set) var lastLines: [TranscriptLine] = []
}

extension SimulatedUserAgent {
    /// A browser for the sandbox of `rig`, over `wire` (the rig's).
    static func `for`(_ rig: Rig, _ wire: ScenarioRunner.Wire) -> SimulatedUserAgent {
        switch wire {
        case .loopbackHTTP: SimulatedUserAgent(httpBase: rig.runner.baseURL)
        case .inProcess: SimulatedUserAgent(sandbox: rig.sandbox)
        }
    }
}
