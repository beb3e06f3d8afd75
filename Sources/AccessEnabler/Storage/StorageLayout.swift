import Foundation

/// Where each record lives inside a store.
///
/// ```
/// <storage directory>/                       created 0700 by the first write
///   <SHA-256 of the software statement>/     0700, one per software statement
///     identity.json                          device identifier + integrity key, created once
///     store.json                             everything else, one envelope, replaced whole
///     store.lock                             the writers' lock (empty), shared by every process
///     .<file>.<token>.tmp                    a write in progress, locked by its writer
/// ```
/// `identity.json` uses ``StorageEnvelope`` (format 1) and `store.json` ``StorageStoreFile``
/// (format 2); every file is 0600. Builds before format 2 kept one file per record
/// (``Legacy``); a store still in that layout is read as it is and moved into `store.json`
/// by its first write.
enum StorageLayout {
    /// The record kinds, as written in each envelope's `kind`.
    enum Kind {
        static let identity = "identity"
        static let clientCredentials = "clientCredentials"
        static let accessToken = "accessToken"
        static let requestor = "requestor"
        static let serviceProviderClient = "serviceProviderClient"
        static let store = "store"
    }

    static let identityFile = "identity.json"
    static let storeFile = "store.json"

    /// The one-file-per-record layout of builds before format 2: read at launch when
    /// `store.json` does not exist yet, deleted once `store.json` holds what they held.
    enum Legacy {
        static let clientCredentialsFile = "client-credentials.json"
        static let accessTokenFile = "access-token.json"
        static let requestorFilePrefix = "requestor-"
        static let serviceProviderFilePrefix = "service-provider-"

        /// The file that held `requestor`'s record.
        static func requestorFile(_ requestor: String) -> String {
            requestorFilePrefix + hashedName(requestor) + fileExtension
        }

        /// The file that held the client registered at the service provider `baseURL`.
        static func serviceProviderFile(_ baseURL: String) -> String {
            serviceProviderFilePrefix + hashedName(baseURL) + fileExtension
        }

        /// Whether `name` is a requestor record file.
        static func isRequestorFile(_ name: String) -> Bool {
            name.hasPrefix(requestorFilePrefix) && name.hasSuffix(fileExtension)
        }

        /// Whether `name` is a service provider client file.
        static func isServiceProviderFile(_ name: String) -> Bool {
            name.hasPrefix(serviceProviderFilePrefix) && name.hasSuffix(fileExtension)
        }

        /// Whether `name` is a record file of the old layout (anything but the identity).
        static func isRecordFile(_ name: String) -> Bool {
            name == clientCredentialsFile || name == accessTokenFile || isRequestorFile(name)
                || isServiceProviderFile(name)
        }
    }

    static let fileExtension = ".json"

    /// The directory of one software statement's store.
    static func statementDirectory(in storageDirectory: URL, softwareStatement: String) -> URL {
        storageDirectory.appendingPathComponent(hashedName(softwareStatement), isDirectory: true)
    }

    /// The SHA-256 of `text` in hex, remembered: a process uses a few software statements
    /// and requestors, and hashes their names at every store opened.
    static func hashedName(_ text: String) -> String {
        if let known = hashedNames.withLock({ $0[text] }) { return known }
        let hashed = SHA256.hexDigest(Array(text.utf8))
        hashedNames.withLock { names in
            if names.count >= 256 { names.removeAll() }
            names[text] = hashed
        }
        return hashed
    }

    private static let hashedNames = NSLockedValue<[String: String]>([:])

    /// Whether `name` is one the SDK gives a temporary file — a write in progress, or left by
    /// an interrupted one: `.<file>.<token>.tmp`, where `<file>` is a file of the store
    /// (`identity.json`, `store.json`, the operability probe, or a file of the old layout) and
    /// `<token>` lower-case hex digits (an older build's `<pid>.<hex>` too). Nothing else in a
    /// directory is ever swept.
    static func isTemporaryFile(_ name: String) -> Bool {
        let suffix = StorageFileSystem.temporarySuffix
        guard name.hasPrefix("."), name.hasSuffix(suffix), name.utf8.count <= 255 else { return false }
        let inner = name.dropFirst().dropLast(suffix.count)
        guard let dot = inner.lastIndex(of: "."), dot != inner.startIndex else { return false }
        // The token: hex digits, and before them an older build's process id and its dot.
        var file = inner[..<dot]
        let token = inner[inner.index(after: dot)...]
        guard isToken(token) else { return false }
        if !isStoreFile(file), let previous = file.lastIndex(of: "."), isDigits(file[file.index(after: previous)...]) {
            file = file[..<previous]
        }
        return isStoreFile(file)
    }

    /// The name of the file the operability check of INTEGRITY_CHECK_ALL writes (never kept).
    static let operabilityProbeFile = "operability-probe"

    private static func isStoreFile(_ name: Substring) -> Bool {
        let file = String(name)
        return file == identityFile || file == storeFile || file == operabilityProbeFile || Legacy.isRecordFile(file)
    }

    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The name of a temporary file for `file`: `.<file>.<token>.tmp`. Its writer holds a
    /// lock on it (`flock`) from its creation until it is renamed into place or removed, so
    /// a launch removes only a temporary file nobody holds, whatever process (or PID
    /// namespace) wrote it.
    static func temporaryFileName(for file: String, token: String) -> String {
        ".\(file).\(token)\(StorageFileSystem.temporarySuffix)"
    }
}
