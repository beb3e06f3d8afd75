import Foundation

/// Where each record lives inside a store.
///
/// ```
/// <storage directory>/                       created 0700 when missing
///   <SHA-256 of the software statement>/     0700, one per software statement
///     identity.json                          device identifier + integrity key
///     client-credentials.json                DCR client
///     access-token.json                      OAuth access token
///     requestor-<SHA-256 of requestor>.json  profile, media tokens, preauthorizations
///     service-provider-<SHA-256 of URL>.json DCR client and token of an extra service provider
///     store.lock                             lock and change counter shared by every process
///     .<file>.<pid>.<token>.tmp              a write in progress by process <pid>
/// ```
/// Every file is 0600 and uses ``StorageEnvelope``. The requestor id is hashed into the file
/// name so that any requestor string gives a safe, fixed-length name.
enum StorageLayout {
    /// The record kinds, as written in each envelope's `kind`.
    enum Kind {
        static let identity = "identity"
        static let clientCredentials = "clientCredentials"
        static let accessToken = "accessToken"
        static let requestor = "requestor"
        static let serviceProviderClient = "serviceProviderClient"
    }

    static let identityFile = "identity.json"
    static let clientCredentialsFile = "client-credentials.json"
    static let accessTokenFile = "access-token.json"
    static let requestorFilePrefix = "requestor-"
    static let serviceProviderFilePrefix = "service-provider-"
    static let fileExtension = ".json"
    /// The scratch file of the ``IntegrityCheckType/INTEGRITY_CHECK_ALL`` operability check
    /// made by the process `writer`.
    static func probeFile(writer: Int32) -> String { "operability-probe-\(writer).json" }

    /// The directory of one software statement's store.
    static func statementDirectory(in storageDirectory: URL, softwareStatement: String) -> URL {
        storageDirectory.appendingPathComponent(hashedName(softwareStatement), isDirectory: true)
    }

    /// The file holding `requestor`'s record.
    static func requestorFile(_ requestor: String) -> String {
        requestorFilePrefix + hashedName(requestor) + fileExtension
    }

    /// The file holding the client registered at the service provider `baseURL`.
    static func serviceProviderFile(_ baseURL: String) -> String {
        serviceProviderFilePrefix + hashedName(baseURL) + fileExtension
    }

    /// Whether `name` is a service provider client file.
    static func isServiceProviderFile(_ name: String) -> Bool {
        name.hasPrefix(serviceProviderFilePrefix) && name.hasSuffix(fileExtension)
    }

    /// The SHA-256 of `text` in hex, remembered: a process uses a few software statements
    /// and requestors, and hashes their names at every store opened and record written.
    private static func hashedName(_ text: String) -> String {
        if let known = hashedNames.withLock({ $0[text] }) { return known }
        let hashed = SHA256.hexDigest(Array(text.utf8))
        hashedNames.withLock { names in
            if names.count >= 256 { names.removeAll() }
            names[text] = hashed
        }
        return hashed
    }

    private static let hashedNames = NSLockedValue<[String: String]>([:])

    /// Whether `name` is a requestor record file.
    static func isRequestorFile(_ name: String) -> Bool {
        name.hasPrefix(requestorFilePrefix) && name.hasSuffix(fileExtension)
    }

    /// Whether `name` is a file this storage writes, other than the identity.
    static func isClearableFile(_ name: String) -> Bool {
        name == clientCredentialsFile || name == accessTokenFile || isRequestorFile(name) || isServiceProviderFile(name)
    }

    /// Whether `name` is a temporary file: a write in progress, or left by an interrupted one.
    static func isTemporaryFile(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(StorageFileSystem.temporarySuffix)
    }

    /// The name of a temporary file for `file`, owned by the process `writer`:
    /// `.<file>.<pid>.<token>.tmp`. The owner is in the name so that a launch removes only
    /// what a process that no longer exists left behind, never a write another process has
    /// in progress.
    static func temporaryFileName(for file: String, writer: Int32, token: String) -> String {
        ".\(file).\(writer).\(token)\(StorageFileSystem.temporarySuffix)"
    }

    /// The process that owns the temporary file `name`, or `nil` when the name does not say
    /// (an older build's `.<file>.<token>.tmp`).
    static func temporaryFileWriter(_ name: String) -> Int32? {
        guard isTemporaryFile(name) else { return nil }
        let parts = name.dropLast(StorageFileSystem.temporarySuffix.count).split(separator: ".", omittingEmptySubsequences: false)
        // "", file name parts…, pid, token
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        return pid
    }
}
