import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// The simulated device's TV provider state in words, for the demo's chapter openings.
enum DemoDeviceDescription {
    /// E.g. "TV provider permission granted; signed in at system level to Apple Boarded TV as alice".
    static func describe(_ device: Scenario.Device, world: SandboxWorld) -> String {
        var parts: [String] = []
        switch device.accessStatus {
        case "notDetermined":
            let answer =
                switch device.promptAnswer {
                case "granted": "allow it"
                case "denied": "refuse it"
                default: "dismiss the question"
                }
            parts.append("TV provider permission not asked yet (when asked, she will \(answer))")
        case "error":
            parts.append("the TV provider framework answers every request with an error")
        default:
            parts.append("TV provider permission \(device.accessStatus)")
        }
        if let signIn = device.signedIn {
            parts.append("signed in at system level to \(name(of: signIn.provider, in: world)) as \(signIn.user)")
        } else {
            parts.append("no TV provider sign-in at system level")
        }
        if !device.picker.isEmpty {
            let choices = device.picker.map { entry -> String in
                switch entry {
                case .select(let provider, _): name(of: provider, in: world)
                case .other: "Other TV Provider"
                case .cancel: "Cancel"
                }
            }
            parts.append("in the system picker she will choose \(choices.joined(separator: ", then "))")
        }
        if let failure = device.failure {
            parts.append("the TV provider account service fails (\(failure))")
        }
        return parts.joined(separator: "; ")
    }

    /// The display name of the MVPD with mapping id `id`, or `id` itself.
    static func name(of id: String, in world: SandboxWorld) -> String {
        for provider in world.serviceProviders {
            if let mvpd = provider.mvpd(id) { return mvpd.displayName }
        }
        return id
    }
}
