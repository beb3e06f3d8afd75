/// Whole numbers from floating-point values that cannot trap.
///
/// `Int(_:)` of a `Double` that is not a number, infinite or beyond the integer's range stops
/// the process. Every conversion of a number that came from outside (a server's answer, a
/// header, the configuration, a storage file) or that was computed from one goes through
/// here: the value is rounded as asked, then held to the integer's range; not a number is 0.
enum WholeNumber {
    /// `value` rounded by `rule`, held to `Integer`'s range; 0 when it is not a number.
    static func clamped<Integer: FixedWidthInteger>(
        _ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero,
        as type: Integer.Type = Integer.self
    ) -> Integer {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded(rule)
        if let exact = Integer(exactly: rounded) { return exact }
        return rounded < 0 ? Integer.min : Integer.max
    }
}
