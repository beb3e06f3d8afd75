import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// One act of the demo: one platform, one fresh sandbox, one scenario, told in chapters.
///
/// The platform is a property of a whole scenario (the SDK is configured once per
/// launch), so a story told on two kinds of device is two acts, run one after another.
struct DemoAct: Sendable {
    /// What the act shows, e.g. "An iPhone app with Apple single sign-on".
    var title: String
    /// The steps, run in order against a fresh PassSandbox.
    var scenario: Scenario
    /// Chapter captions, by the index of the step each chapter opens with.
    var captions: [Int: String]
    /// How a step that is not an SDK call is told (what the person or the device does),
    /// by step index. SDK calls are shown as the call itself.
    var narration: [Int: String]
    /// Steps the reader does not need to see (a chapter's device reset that changes
    /// nothing they were told), by step index. They still run and still appear in `--json`.
    var quiet: Set<Int>
}

/// Builds a ``DemoAct`` chapter by chapter.
struct DemoActBuilder {
    private var act: DemoAct
    /// The device as the script last set it, to tell only what a chapter changes.
    private var device: Scenario.Device?

    /// Starts an act on `platform`. `device` is the simulated TV provider framework at
    /// launch, or `nil` for a device that has none.
    init(title: String, platform: AccessEnablerConfiguration.Platform, device: Scenario.Device?) {
        var scenario = Scenario()
        scenario.platform = platform
        if let device {
            scenario.device = device
        } else {
            scenario.device.present = false
        }
        act = DemoAct(title: title, scenario: scenario, captions: [:], narration: [:], quiet: [])
        self.device = device
    }

    /// Opens a chapter with `caption`. With `device`, the simulated device is first put
    /// back into exactly that state, so nothing an earlier chapter did to it (a refused
    /// permission, a failing account service) leaks into this one.
    mutating func chapter(_ caption: String, device newDevice: Scenario.Device? = nil) {
        act.captions[act.scenario.steps.count] = caption
        guard let newDevice, act.scenario.device.present else { return }
        let index = act.scenario.steps.count
        act.scenario.steps.append(.device(Self.reset(to: newDevice)))
        if newDevice == device {
            act.quiet.insert(index)
        } else {
            act.narration[index] = "device: " + DemoDeviceDescription.describe(newDevice, world: act.scenario.world)
        }
        device = newDevice
    }

    /// The app calls the SDK: the top-level app `A`, or the app of the act named `app`.
    mutating func call(_ step: Scenario.Step, app: String = Scenario.topLevelApp) {
        append(step, app: app)
    }

    /// Something the person or the device does (a login, a relaunch, time passing), told as
    /// `text`; `app` is the app it concerns.
    mutating func happens(_ text: String, _ step: Scenario.Step, app: String = Scenario.topLevelApp) {
        act.narration[act.scenario.steps.count] = text
        append(step, app: app)
    }

    /// Adds an app beside `A` (another AccessEnabler on the same device).
    mutating func add(app name: String, _ app: Scenario.App) {
        act.scenario.apps[name] = app
    }

    /// Sets up app `A` with `change` (its service token, for example) before the first step.
    mutating func setUp(_ change: (inout Scenario) -> Void) {
        change(&act.scenario)
    }

    private mutating func append(_ step: Scenario.Step, app: String) {
        if app != Scenario.topLevelApp { act.scenario.stepApps[act.scenario.steps.count] = app }
        act.scenario.steps.append(step)
    }

    /// The finished act.
    func build() -> DemoAct { act }

    /// A device change that sets every key, so the device ends up exactly as `device` says.
    private static func reset(to device: Scenario.Device) -> Scenario.DeviceChange {
        Scenario.DeviceChange(
            accessStatus: device.accessStatus, promptAnswer: device.promptAnswer,
            signedIn: .some(device.signedIn), picker: device.picker, failure: .some(device.failure))
    }
}
