import Foundation

/// What setRequestor heard from the partner framework before it asked `GET profiles`, when
/// the profile in force came through partner single sign-on (`appleSSO`).
///
/// Adobe Pass lists such a profile only to a request presenting the partner framework's
/// status for its provider (`AP-Partner-Framework-Status`), so the status goes with the
/// profiles request: the answer then says whether the profile still holds — a disabled
/// integration or single sign-on on the dashboard reaches the device this way, with no
/// configuration asked.
struct LaunchPartnerAnswer: Sendable, Equatable {
    /// The silent answers (permission, the account signed in at system level).
    var snapshot: PartnerSnapshot
    /// The status the profiles request presented; `nil` when none could be validated
    /// (permission not granted, nobody signed in, an expired system sign-in): the answer's
    /// silence about an `appleSSO` profile then says nothing.
    var presented: PartnerFrameworkStatus?
}
