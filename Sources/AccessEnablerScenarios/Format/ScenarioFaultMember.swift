import Foundation
import PassSandbox

extension ScenarioParser {
    /// One member of a `fault` step: its key in the file, the ``SandboxFault`` property it
    /// sets, and how it reads its value.
    struct FaultMember: Sendable {
        /// The key in the step's object.
        var key: String
        /// The name of the ``SandboxFault`` property it sets.
        var property: String
        /// Reads the member's value into the fault, refusing a value out of range.
        var read: @Sendable (JSONReader, inout SandboxFault) throws(ScenarioError) -> Void
    }

    /// The members of a `fault` step beside `endpoint`, one for each property of
    /// ``SandboxFault``, so a scenario carries the sandbox's fault whole. A property added to
    /// the fault without a member here fails `ScenarioFaultTests`.
    static let faultMembers: [FaultMember] = [
        FaultMember(key: "latency", property: "latency") { reader, fault throws(ScenarioError) in
            fault.latency = try reader.requireNumber(in: 0...3_600)
        },
        FaultMember(key: "status", property: "status") { reader, fault throws(ScenarioError) in
            fault.status = try reader.requireWholeNumber(in: 100...599)
        },
        FaultMember(key: "malformedBody", property: "malformedBody") { reader, fault throws(ScenarioError) in
            fault.malformedBody = try reader.requireBool()
        },
        FaultMember(key: "dropConnection", property: "dropConnection") { reader, fault throws(ScenarioError) in
            fault.dropConnection = try reader.requireBool()
        },
        // Up to 256 MiB: far past any limit a client sets, short of exhausting the machine.
        FaultMember(key: "oversizedBody", property: "oversizedBody") { reader, fault throws(ScenarioError) in
            fault.oversizedBody = try reader.requireWholeNumber(in: 0...(256 << 20))
        },
        // The file's word since the first scenarios: how many requests the fault applies to.
        FaultMember(key: "count", property: "remaining") { reader, fault throws(ScenarioError) in
            fault.remaining = try reader.requireWholeNumber(in: 0...1_000_000)
        },
        FaultMember(key: "retryableDecisionErrors", property: "retryableDecisionErrors") { reader, fault throws(ScenarioError) in
            fault.retryableDecisionErrors = try reader.requireStrings()
        },
    ]
}
