import Foundation
import PassSandbox

extension ScenarioParser {
    /// One member of a `fault` step: its key in the file, the effect of ``SandboxFault`` it
    /// sets (`nil` for `count`, which is how many requests the fault applies to), and how it
    /// reads its value.
    struct FaultMember: Sendable {
        /// The key in the step's object.
        var key: String
        /// The effect it sets; `nil` for `count`.
        var effect: SandboxFault.Effect.Name?
        /// Reads the member's value into the fault, refusing a value out of range.
        var read: @Sendable (JSONReader, inout SandboxFault) throws(ScenarioError) -> Void
    }

    /// The members of a `fault` step beside `endpoint`: one for each effect of
    /// ``SandboxFault`` (``faultMember(for:)`` switches over them with no `default`, so a new
    /// effect is a compiler error there until the file can spell it), then `count`.
    static let faultMembers: [FaultMember] =
        SandboxFault.Effect.Name.allCases.map(faultMember(for:)) + [
            // The file's word since the first scenarios: how many requests the fault applies to.
            FaultMember(key: "count", effect: nil) { reader, fault throws(ScenarioError) in
                fault.remaining = try reader.requireWholeNumber(in: 0...1_000_000)
            }
        ]

    /// The member a scenario file spells `effect` with. A member whose value turns the
    /// effect off (`false`, a latency of 0) adds nothing, as an absent one.
    static func faultMember(for effect: SandboxFault.Effect.Name) -> FaultMember {
        switch effect {
        case .latency:
            FaultMember(key: "latency", effect: effect) { reader, fault throws(ScenarioError) in
                let seconds = try reader.requireNumber(in: 0...3_600)
                if seconds > 0 { fault.add(.latency(seconds)) }
            }
        case .dropConnection:
            FaultMember(key: "dropConnection", effect: effect) { reader, fault throws(ScenarioError) in
                if try reader.requireBool() { fault.add(.dropConnection) }
            }
        case .status:
            FaultMember(key: "status", effect: effect) { reader, fault throws(ScenarioError) in
                fault.add(.status(try reader.requireWholeNumber(in: 100...599)))
            }
        case .malformedBody:
            FaultMember(key: "malformedBody", effect: effect) { reader, fault throws(ScenarioError) in
                if try reader.requireBool() { fault.add(.malformedBody) }
            }
        case .oversizedBody:
            // Up to 256 MiB: far past any limit a client sets, short of exhausting the machine.
            FaultMember(key: "oversizedBody", effect: effect) { reader, fault throws(ScenarioError) in
                fault.add(.oversizedBody(bytes: try reader.requireWholeNumber(in: 0...(256 << 20))))
            }
        case .retryableDecisionErrors:
            FaultMember(key: "retryableDecisionErrors", effect: effect) { reader, fault throws(ScenarioError) in
                fault.add(.retryableDecisionErrors(resources: try reader.requireStrings()))
            }
        }
    }
}
