import Foundation

/// Receives advanced statuses (the `status:` callback of the legacy `EntitlementStatus`
/// protocol): informational, warning and error codes such as N003, VSA403 or Z100.
///
/// Implement either spelling: ``status(_:)-(AdvancedStatus)`` (today's, typed) or
/// ``status(_:)-([AnyHashable:Any])``, the one Swift gives the Objective-C header
/// (`- (void)status:(NSDictionary *)statusDictionary;`). The SDK calls the typed one, whose
/// default implementation forwards the legacy dictionary (``AdvancedStatus/dictionary``:
/// `errorId`, `level`, and `message`, `details`, `resource`, `code`, `status`, `helpUrl`,
/// `trace` when present) to the other; a delegate implementing both receives each status
/// once, typed. Both are optional: statuses explain callbacks, they never end a call.
public protocol EntitlementStatus: AnyObject {
    /// One advanced status.
    func status(_ status: AdvancedStatus)
    /// One advanced status as the legacy dictionary (`statusDictionary["errorId"]`,
    /// `statusDictionary["level"]`, …).
    func status(_ statusDictionary: [AnyHashable: Any]!)
}

extension EntitlementStatus {
    /// Forwards the legacy dictionary to ``status(_:)-([AnyHashable:Any])``.
    public func status(_ status: AdvancedStatus) {
        let legacy: [AnyHashable: Any] = LegacyValues.dictionary(status.dictionary)
        self.status(Optional(legacy))
    }

    /// Does nothing unless implemented.
    public func status(_ statusDictionary: [AnyHashable: Any]!) {}
}
