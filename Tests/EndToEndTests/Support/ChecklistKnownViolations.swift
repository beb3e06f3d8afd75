import AccessEnablerScenarios
import PassSandbox

/// What the SDK is known to break in Adobe's REST API V2 Checklist, as the sandbox's checklist
/// monitor sees it, until the SDK changes under way land. The tests that run the example
/// scenarios, the demo and the benchmark's flows through the monitor assert that nothing
/// else is broken. Each list shrinks to nothing as its change lands.
enum ChecklistKnownViolations {
    /// The SDK asks for the configuration at every `setRequestor` (a warm launch while signed
    /// in included). Empty this list when setRequestor stops fetching the configuration.
    static let rulesTheSDKIsKnownToBreakUntilTheConfigurationChangeLands: Set<String> = [
        "configuration-while-authenticated", "configuration-repeated",
    ]

    /// The SDK sends `AP-Device-Identifier` and `X-Device-Info` only where an API page lists
    /// them, so the second-screen polls (`GET profiles/code/{code}`), `GET sessions/{code}` and
    /// the resume of a session go without them; the checklist asks for them on every request.
    /// Empty this list when every REST API V2 request carries the device's headers.
    static let rulesTheSDKIsKnownToBreakUntilTheDeviceHeadersChangeLands: Set<String> = [
        "device-identifier-header-missing", "device-info-header-missing",
    ]

    /// Scenarios where the SDK breaks one more rule: a login page's redirect handed back after
    /// the code expired makes the SDK ask `GET profiles/code/{code}` once, although it knows the
    /// code's `notAfter` has passed (it could end with N130 without the request).
    static let rulesTheSDKIsKnownToBreakByScenario: [String: Set<String>] = [
        "regular-expired-session-n130.json": ["poll-after-session-end"]
    ]

    /// Every rule known broken in `scenario` (a file name, or `nil` for a flow of no file).
    static func rules(for scenario: String? = nil) -> Set<String> {
        rulesTheSDKIsKnownToBreakUntilTheConfigurationChangeLands
            .union(rulesTheSDKIsKnownToBreakUntilTheDeviceHeadersChangeLands)
            .union(scenario.flatMap { rulesTheSDKIsKnownToBreakByScenario[$0] } ?? [])
    }

    /// The violations in `checklist` not known to happen, each as one readable line.
    static func unexpected(in checklist: SandboxChecklist, scenario: String? = nil) -> [String] {
        let known = rules(for: scenario)
        return checklist.violations.filter { !known.contains($0.rule) }.map { "\($0.rule) · \($0.request): \($0.detail)" }
    }
}
