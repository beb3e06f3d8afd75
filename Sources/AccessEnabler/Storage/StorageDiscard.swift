import Foundation

/// Stored values the SDK found unusable and discarded — a corrupt or truncated file, a file
/// changed outside the SDK, a whole store cleared by the integrity check — told to whoever
/// opened the store, so the application can log why the user is signed out: status SEC412
/// (warning) and a `storageProblem` diagnostic carrying ``message``.
struct StorageDiscard: Sendable, Equatable, CustomStringConvertible {
    /// What was discarded.
    enum Scope: Sendable, Equatable {
        /// One file (`path`), for `reason`.
        case file
        /// Every stored value except the device identifier, because the integrity check
        /// (``IntegrityCheckType/INTEGRITY_CHECK_ALL``) failed; `path` is the directory.
        case everything
    }

    var scope: Scope
    /// The file discarded, or the directory cleared.
    var path: String
    /// What the file held, for a person: "the access token", "the sign-in of a requestor".
    var subject: String
    /// Why, as the check that failed says it: "not a JSON object (corrupt or truncated)".
    var reason: String

    /// Which file or directory, why, and what it means for the user.
    var message: String {
        switch scope {
        case .file:
            return
                "Discarded \(subject) (\(path)): \(reason). What it held is gone, so the user may have to sign in again."
        case .everything:
            return
                "The storage integrity check failed (\(reason)), so every stored value except the device identifier was cleared (\(path)). The user has to sign in again."
        }
    }

    var description: String { message }

    /// What the file `name` of a store holds, in words.
    static func subject(ofFile name: String) -> String {
        switch name {
        case StorageLayout.identityFile: "the device identifier"
        case StorageLayout.storeFile: "the stored sign-ins, client and token"
        case StorageLayout.Legacy.clientCredentialsFile: "the registered client (DCR client credentials)"
        case StorageLayout.Legacy.accessTokenFile: "the access token"
        case _ where StorageLayout.Legacy.isRequestorFile(name):
            "a requestor's sign-in, media tokens and preauthorizations"
        case _ where StorageLayout.Legacy.isServiceProviderFile(name): "the client registered at a service provider"
        default: "a stored file"
        }
    }
}
