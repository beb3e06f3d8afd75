import Foundation

/// The ranges of ``AccessEnablerConfiguration``'s numbers, and what happens to a value
/// outside: `setRequestor` refuses the configuration (status CFG400 naming each field, its
/// value and its range, then `setRequestorComplete(0)`), and nothing inside the SDK ever
/// sees the value — it runs with every number held inside its range.
///
/// | field | range | also |
/// |---|---|---|
/// | `requestTimeout` | 0.001 s … 1 hour | |
/// | `partnerInteractionTimeout` | 0.001 s … 1 day | |
/// | `secondScreenPollInterval` | 3 s … 1 minute | 0 up to 3 s is raised to 3 s, as documented, not refused |
/// | `maximumResponseBodySize` | 1 KiB and more | |
/// | `preauthorizationBatchSize` | 1 and more, or `nil` | |
///
/// Not a number, an infinity, and a negative duration are outside every range.
enum ConfigurationRanges {
    /// Seconds one REST call may take.
    static let requestTimeout: ClosedRange<TimeInterval> = 0.001...3_600
    /// Seconds the partner framework may take with the person.
    static let partnerInteractionTimeout: ClosedRange<TimeInterval> = 0.001...86_400
    /// Seconds between two polls of a second-screen sign-in.
    static let secondScreenPollInterval: ClosedRange<TimeInterval> = 3...60
    /// Bytes of one response body.
    static let maximumResponseBodySize: ClosedRange<Int> = 1_024...Int.max
    /// Resources in one preauthorization request.
    static let preauthorizationBatchSize: ClosedRange<Int> = 1...Int.max

    /// One sentence per field of `configuration` outside its range; empty when every number
    /// is inside.
    static func problems(in configuration: AccessEnablerConfiguration) -> [String] {
        var problems: [String] = []
        func check(
            _ field: String, _ value: TimeInterval, _ range: ClosedRange<TimeInterval>, raisingFromZero: Bool = false
        ) {
            let inside = range.contains(value) || (raisingFromZero && value >= 0 && value < range.lowerBound)
            if !inside {
                problems.append(
                    "AccessEnablerConfiguration.\(field) is \(value): it must be a number of seconds from \(describe(range.lowerBound)) to \(describe(range.upperBound))."
                )
            }
        }
        check("requestTimeout", configuration.requestTimeout, requestTimeout)
        check("partnerInteractionTimeout", configuration.partnerInteractionTimeout, partnerInteractionTimeout)
        check(
            "secondScreenPollInterval", configuration.secondScreenPollInterval, secondScreenPollInterval,
            raisingFromZero: true)
        if !maximumResponseBodySize.contains(configuration.maximumResponseBodySize) {
            problems.append(
                "AccessEnablerConfiguration.maximumResponseBodySize is \(configuration.maximumResponseBodySize): it must be \(maximumResponseBodySize.lowerBound) bytes or more."
            )
        }
        if let size = configuration.preauthorizationBatchSize, !preauthorizationBatchSize.contains(size) {
            problems.append(
                "AccessEnablerConfiguration.preauthorizationBatchSize is \(size): it must be 1 or more, or nil for one request."
            )
        }
        return problems
    }

    /// `configuration` with every number held inside its range: a value below it is raised
    /// to its lower bound, one above lowered to its upper bound, and one that is not a number
    /// is the field's default.
    static func bounded(_ configuration: AccessEnablerConfiguration) -> AccessEnablerConfiguration {
        let defaults = AccessEnablerConfiguration()
        var bounded = configuration
        bounded.requestTimeout = clamp(
            configuration.requestTimeout, to: requestTimeout, orElse: defaults.requestTimeout)
        bounded.partnerInteractionTimeout = clamp(
            configuration.partnerInteractionTimeout, to: partnerInteractionTimeout,
            orElse: defaults.partnerInteractionTimeout)
        bounded.secondScreenPollInterval = clamp(
            configuration.secondScreenPollInterval, to: secondScreenPollInterval,
            orElse: defaults.secondScreenPollInterval)
        bounded.maximumResponseBodySize = min(
            max(configuration.maximumResponseBodySize, maximumResponseBodySize.lowerBound),
            maximumResponseBodySize.upperBound)
        bounded.preauthorizationBatchSize = configuration.preauthorizationBatchSize.map {
            max($0, preauthorizationBatchSize.lowerBound)
        }
        return bounded
    }

    /// `value` held to `range`; `fallback` when it is not a number.
    static func clamp(_ value: TimeInterval, to range: ClosedRange<TimeInterval>, orElse fallback: TimeInterval)
        -> TimeInterval
    {
        value.isNaN ? fallback : min(max(value, range.lowerBound), range.upperBound)
    }

    /// `3 s`, `1 minute`, `1 hour`, `1 day`, `0.001 s`.
    private static func describe(_ seconds: TimeInterval) -> String {
        switch seconds {
        case 60: "1 minute"
        case 3_600: "1 hour"
        case 86_400: "1 day"
        default: seconds == seconds.rounded() ? "\(WholeNumber.clamped(seconds) as Int) s" : "\(seconds) s"
        }
    }
}
