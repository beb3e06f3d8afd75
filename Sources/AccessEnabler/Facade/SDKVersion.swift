/// The SDK's version, as semantic versioning writes it (`MAJOR.MINOR.PATCH`).
///
/// The one place the number is written: ``AccessEnabler/getVersion()-swift.type.method``, the
/// default `User-Agent` and `accessenabler --version` read it, and `.ci/api-check` checks that
/// the newest entry of `Docs/CHANGELOG.md` names it.
enum SDKVersion {
    /// This release's version.
    static let current = "1.0.0"
}
