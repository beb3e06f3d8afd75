import Foundation
import Testing

@testable import AccessEnabler

/// Every number of the configuration has a range: a value outside it is named (setRequestor
/// refuses the configuration with CFG400 and that sentence), and the SDK runs with the value
/// held inside it, so no part of it ever sees ∞, NaN, a negative duration or a huge size.
@Suite struct ConfigurationRangesTests {
    static let durations: [Double] = [.infinity, -.infinity, .nan, -1, 1e300, -1e300, 0]

    @Test func theDefaultsAreInsideEveryRange() {
        #expect(ConfigurationRanges.problems(in: AccessEnablerConfiguration()).isEmpty)
        let bounded = ConfigurationRanges.bounded(AccessEnablerConfiguration())
        #expect(
            bounded.requestTimeout == 30 && bounded.partnerInteractionTimeout == 600
                && bounded.secondScreenPollInterval == 5)
        #expect(bounded.maximumResponseBodySize == 4 * 1024 * 1024 && bounded.preauthorizationBatchSize == 5)
    }

    @Test(arguments: durations)
    func aTimeoutThatIsNoNumberOfSecondsIsNamedAndHeldInside(value: Double) {
        for field in ["requestTimeout", "partnerInteractionTimeout"] {
            var configuration = AccessEnablerConfiguration()
            if field == "requestTimeout" {
                configuration.requestTimeout = value
            } else {
                configuration.partnerInteractionTimeout = value
            }
            let problems = ConfigurationRanges.problems(in: configuration)
            #expect(
                problems.count == 1 && problems.first?.contains("AccessEnablerConfiguration.\(field) is ") == true,
                "\(problems)")
            let bounded = ConfigurationRanges.bounded(configuration)
            let held = field == "requestTimeout" ? bounded.requestTimeout : bounded.partnerInteractionTimeout
            let range =
                field == "requestTimeout"
                ? ConfigurationRanges.requestTimeout : ConfigurationRanges.partnerInteractionTimeout
            #expect(range.contains(held), "\(field) \(value) held as \(held)")
        }
    }

    @Test(arguments: [Double.infinity, .nan, 1e300, -5, 61, -.infinity])
    func aPollIntervalOutsideThreeSecondsToAMinuteIsNamed(value: Double) {
        var configuration = AccessEnablerConfiguration()
        configuration.secondScreenPollInterval = value
        #expect(ConfigurationRanges.problems(in: configuration).first?.contains("secondScreenPollInterval") == true)
        #expect(
            ConfigurationRanges.secondScreenPollInterval.contains(
                ConfigurationRanges.bounded(configuration).secondScreenPollInterval))
    }

    @Test(arguments: [0.0, 1, 2.9, 3, 60])
    func aPollIntervalFromZeroToAMinuteIsAccepted(value: Double) {
        var configuration = AccessEnablerConfiguration()
        configuration.secondScreenPollInterval = value
        #expect(ConfigurationRanges.problems(in: configuration).isEmpty, "below 3 s it is raised to 3 s, as documented")
        #expect(ConfigurationRanges.bounded(configuration).secondScreenPollInterval == max(3, value))
    }

    @Test func sizesAndCountsOutOfRangeAreNamed() {
        for size in [Int.min, -1, 0, 1_023] {
            var configuration = AccessEnablerConfiguration()
            configuration.maximumResponseBodySize = size
            #expect(ConfigurationRanges.problems(in: configuration).first?.contains("maximumResponseBodySize") == true)
            #expect(ConfigurationRanges.bounded(configuration).maximumResponseBodySize == 1_024)
        }
        var huge = AccessEnablerConfiguration()
        huge.maximumResponseBodySize = .max
        huge.preauthorizationBatchSize = .max
        #expect(ConfigurationRanges.problems(in: huge).isEmpty)
        for count in [Int.min, -1, 0] {
            var configuration = AccessEnablerConfiguration()
            configuration.preauthorizationBatchSize = count
            #expect(
                ConfigurationRanges.problems(in: configuration).first?.contains("preauthorizationBatchSize") == true)
            #expect(ConfigurationRanges.bounded(configuration).preauthorizationBatchSize == 1)
        }
    }

    @Test func everyFieldOutOfRangeIsNamedInOneRefusal() {
        var configuration = AccessEnablerConfiguration()
        configuration.requestTimeout = .nan
        configuration.partnerInteractionTimeout = .infinity
        configuration.secondScreenPollInterval = 1e300
        configuration.maximumResponseBodySize = -1
        configuration.preauthorizationBatchSize = 0
        #expect(ConfigurationRanges.problems(in: configuration).count == 5)
    }
}
