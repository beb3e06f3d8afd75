import AccessEnablerScenarios
import PassSandbox

extension SandboxChecklist {
    /// Each violation the sandbox's checklist monitor recorded, as one readable line. The
    /// tests that run the example scenarios, the demo and the benchmark's flows through the
    /// monitor assert there is none.
    var violationLines: [String] {
        violations.map { "\($0.rule) · \($0.request): \($0.detail)" }
    }
}
