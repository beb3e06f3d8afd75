import Foundation

/// The stored values of one software statement, as held in memory.
struct StorageSnapshot: Sendable, Equatable {
    var identity: StoredIdentity
    var clientCredentials: StoredClientCredentials?
    var accessToken: StoredAccessToken?
    var requestors: [String: RequestorRecord] = [:]
    /// The clients registered at extra service providers, by base URL.
    var serviceProviderClients: [String: StoredServiceProviderClient] = [:]

    /// Every record held, as keys.
    var recordKeys: Set<StoredRecordKey> {
        var keys = Set(requestors.keys.map(StoredRecordKey.requestor)).union(
            serviceProviderClients.keys.map(StoredRecordKey.serviceProviderClient))
        if clientCredentials != nil { keys.insert(.clientCredentials) }
        if accessToken != nil { keys.insert(.accessToken) }
        return keys
    }
}

/// What ``StorageLoader/load()`` found, and what the store must write because of it.
struct StorageLoadResult: Sendable {
    /// How the identity file must change.
    enum IdentityWrite: Sendable, Equatable {
        /// There is none: create it, unless another launch has meanwhile (then use that one).
        case claim
        /// Replace it: a newly configured device identifier, or a tampered file's new code.
        case rewrite
    }

    /// The values to serve.
    var snapshot: StorageSnapshot
    /// A description of every problem met, or `nil` when none.
    var notes: String?
    /// Every value discarded as unusable (or the whole store, cleared by the integrity
    /// check), for the application to hear about.
    var discards: [StorageDiscard] = []
    /// The version of `store.json` read; `nil` when there is none.
    var storeSignature: FileSignature?
    var identityWrite: IdentityWrite?
    /// The store on disk must be emptied (a clear): nothing it holds comes back.
    var wipe = false
    /// Records whose version on disk must be replaced by memory's (discarded, or dropped
    /// because the device identifier changed).
    var rewrite: Set<StoredRecordKey> = []
    /// Files of the old one-file-per-record layout, to delete once `store.json` holds what
    /// they held.
    var legacyFiles: [String] = []
    /// Whether the store's directory existed (a new one holds no leftovers to sweep).
    var directoryExisted = true
}

/// Reads a software statement's store at launch and applies the ``IntegrityCheckType`` — and
/// writes nothing: what must change on disk (a new identity, a clear, a discarded value) is
/// returned for the store to write off the caller's path.
///
/// - ``IntegrityCheckType/INTEGRITY_CHECK_NONE``: values are trusted as read (no integrity or
///   value checks); a record that cannot be decoded is discarded on its own.
/// - ``IntegrityCheckType/INTEGRITY_CHECK_ALL``: every file must be readable, of a known format
///   version and kind, match its integrity code and hold well-formed values. On any failure
///   every value except the identity is cleared and the launch starts signed out. A store
///   that cannot be *written* (a full disk, a read-only directory) is not a damaged one: that
///   is reported when a write fails, and clears nothing.
/// - ``IntegrityCheckType/INTEGRITY_CHECK_CLEAR``: every value except the identity is cleared.
///
/// The identity (device identifier and integrity key) is replaced only when its own file cannot
/// be read or is malformed; a stable device identifier is what lets Adobe Pass find profiles.
/// When it is new — or when the application configures another device identifier — the
/// stored profiles, media tokens and preauthorizations are dropped: Adobe Pass binds them to
/// the `AP-Device-Identifier` they were obtained with, so they no longer hold.
///
/// When `store.json` does not exist, the files of the old one-file-per-record layout
/// (``StorageLayout/Legacy``) are read instead, checked the same way.
struct StorageLoader {
    let directory: URL
    let integrityCheck: IntegrityCheckType
    let now: Date
    /// The device identifier the application configured, already hashed; it replaces the
    /// stored one.
    var configuredDeviceIdentifier: String?

    /// Runs between reading the identity file and reading `store.json` (tests put another
    /// launch's first write there).
    var afterReadingIdentity: (@Sendable () -> Void)?

    /// Whether the directory may be read: `false` when it was not there when its location
    /// was checked (``StorageLocationCheck``) — one that appears meanwhile was not verified,
    /// so the launch reads nothing and starts as a new device.
    var readsFiles = true

    init(directory: URL, integrityCheck: IntegrityCheckType, now: Date, configuredDeviceIdentifier: String? = nil) {
        self.directory = directory
        self.integrityCheck = integrityCheck
        self.now = now
        self.configuredDeviceIdentifier = configuredDeviceIdentifier
    }

    /// Reads the store.
    ///
    /// The launch reads without the directory's lock, so a first launch can race another:
    /// it finds no identity, then a `store.json` the other created meanwhile (a writer
    /// creates the identity before `store.json`, under the lock). That file is signed with a
    /// key this launch had not read yet — it is not tampered with — so the store is read
    /// again with the identity now on disk, instead of being cleared.
    func load() -> StorageLoadResult {
        var result = loadOnce()
        // The identity, once created, stays: a second pass settles it (the bound is only a guard).
        for _ in 0..<3 where result.identityWrite == .claim && result.storeSignature != nil {
            guard case .found = Self.readIdentity(in: directory) else { break }
            result = loadOnce()
        }
        return result
    }

    private func loadOnce() -> StorageLoadResult {
        var notes: [String] = []
        var integrityFailures: [String] = []
        var discards: [StorageDiscard] = []

        let found = loadIdentity(notes: &notes, discards: &discards)
        afterReadingIdentity?()
        var identity = found.identity
        var result = StorageLoadResult(snapshot: StorageSnapshot(identity: identity))
        var identifierChanged = found.isNew
        if found.isNew {
            result.identityWrite = .claim
        } else if found.tampered {
            // The identity is kept while it is well-formed (a changed identifier could not be
            // recovered anyway), but nothing protected by its key can be trusted any more.
            integrityFailures.append("\(StorageLayout.identityFile): \(StorageFileProblem.integrityMismatch)")
            result.identityWrite = .rewrite
        }
        if let configured = configuredDeviceIdentifier, configured != identity.deviceIdentifier {
            identity.deviceIdentifier = configured
            result.identityWrite = result.identityWrite ?? .rewrite
            identifierChanged = true
        }
        var snapshot = StorageSnapshot(identity: identity)
        let key = identity.integrityKeyBytes
        let verify = integrityCheck == .INTEGRITY_CHECK_ALL
        var onDisk = false

        let storePath = directory.path + "/" + StorageLayout.storeFile
        do throws(StorageFileProblem) {
            if !readsFiles {
                result.directoryExisted = false
            } else if let (data, signature) = try Self.read(storePath) {
                onDisk = true
                result.storeSignature = signature
                if integrityCheck != .INTEGRITY_CHECK_CLEAR {
                    let contents = try StorageStoreFile.decode(data, key: key, verify: verify)
                    Self.apply(contents, to: &snapshot)
                    for (record, problem) in contents.unusable {
                        notes.append("discarded \(record.subject) in \(StorageLayout.storeFile): \(problem)")
                        discards.append(
                            StorageDiscard(
                                scope: .file, path: storePath, subject: record.subject, reason: problem.description))
                        result.rewrite.insert(record)
                    }
                }
            } else {
                if let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
                    result.legacyFiles = names.filter(StorageLayout.Legacy.isRecordFile).sorted()
                } else {
                    result.directoryExisted = false
                }
                onDisk = !result.legacyFiles.isEmpty
                if integrityCheck != .INTEGRITY_CHECK_CLEAR {
                    loadLegacyFiles(
                        result.legacyFiles, into: &snapshot, key: key, verify: verify,
                        integrityFailures: &integrityFailures, notes: &notes,
                        discards: &discards)
                }
            }
        } catch {
            if verify {
                integrityFailures.append("\(StorageLayout.storeFile): \(error)")
            } else {
                notes.append("discarded corrupt storage file \(StorageLayout.storeFile): \(error)")
                discards.append(
                    StorageDiscard(
                        scope: .file, path: storePath, subject: "the stored sign-ins, client and token",
                        reason: error.description))
                result.wipe = true
            }
        }

        if integrityCheck == .INTEGRITY_CHECK_CLEAR {
            result.wipe = onDisk
        } else if !integrityFailures.isEmpty {
            snapshot = StorageSnapshot(identity: identity)
            let failures = integrityFailures.joined(separator: "; ")
            notes.append(
                "storage integrity check failed (\(failures)); cleared all stored values except the device identifier")
            discards.append(
                StorageDiscard(
                    scope: .everything, path: directory.path, subject: "every stored value", reason: failures))
            result.wipe = true
        } else if identifierChanged, !snapshot.requestors.isEmpty {
            notes.append("the device identifier changed, so the stored profiles no longer hold: removed them")
            result.rewrite.formUnion(snapshot.requestors.keys.map(StoredRecordKey.requestor))
            snapshot.requestors = [:]
        }
        snapshot.requestors = snapshot.requestors.mapValues { $0.droppingExpiredEntries(at: now) }
        result.snapshot = snapshot
        result.notes = notes.isEmpty ? nil : notes.joined(separator: "; ")
        result.discards = discards
        return result
    }

    /// Reads `store.json` at `path` again (another writer replaced it): its records, checked
    /// as the integrity check says, and the version read; `nil` when there is none.
    static func readStore(
        _ path: String, key: [UInt8], integrityCheck: IntegrityCheckType
    ) -> (contents: Result<StorageStoreFile.Contents, StorageFileProblem>, signature: FileSignature?)? {
        do throws(StorageFileProblem) {
            guard let (data, signature) = try read(path) else { return nil }
            do throws(StorageFileProblem) {
                return (
                    .success(
                        try StorageStoreFile.decode(data, key: key, verify: integrityCheck == .INTEGRITY_CHECK_ALL)),
                    signature
                )
            } catch {
                return (.failure(error), signature)
            }
        } catch {
            return (.failure(error), FileSignature(path: path))
        }
    }

    /// What an identity file holds, read again.
    enum IdentityFound {
        case found(StoredIdentity)
        /// A file that cannot be read or is not a well-formed identity.
        case unusable
        case absent
    }

    /// The identity in `directory`'s identity file.
    static func readIdentity(in directory: URL) -> IdentityFound {
        let data: Data
        do {
            guard let read = try StorageFileSystem.read(directory.path + "/" + StorageLayout.identityFile) else {
                return .absent
            }
            data = read.data
        } catch {
            return .unusable
        }
        guard
            let identity = try? StorageEnvelope.decode(
                StoredIdentity.self, from: data, kind: StorageLayout.Kind.identity, protection: .digest,
                verifyIntegrity: false),
            identity.validationProblem == nil
        else { return .unusable }
        return .found(identity)
    }

    /// Puts what `contents` holds into `snapshot`.
    static func apply(_ contents: StorageStoreFile.Contents, to snapshot: inout StorageSnapshot) {
        snapshot.clientCredentials = contents.clientCredentials
        snapshot.accessToken = contents.accessToken
        snapshot.requestors = contents.requestors
        snapshot.serviceProviderClients = contents.serviceProviderClients
    }

    // MARK: - Identity

    private func loadIdentity(notes: inout [String], discards: inout [StorageDiscard]) -> (
        identity: StoredIdentity, isNew: Bool, tampered: Bool
    ) {
        let file = directory.appendingPathComponent(StorageLayout.identityFile, isDirectory: false)
        do throws(StorageFileProblem) {
            guard readsFiles, let (data, _) = try Self.read(file.path) else {
                return (StoredIdentity.generate(), true, false)
            }
            let identity: StoredIdentity
            var tampered = false
            do throws(StorageFileProblem) {
                identity = try StorageEnvelope.decode(
                    StoredIdentity.self, from: data, kind: StorageLayout.Kind.identity,
                    protection: .digest, verifyIntegrity: integrityCheck == .INTEGRITY_CHECK_ALL)
            } catch .integrityMismatch {
                identity = try StorageEnvelope.decode(
                    StoredIdentity.self, from: data, kind: StorageLayout.Kind.identity,
                    protection: .digest, verifyIntegrity: false)
                tampered = true
            }
            if let problem = identity.validationProblem {
                throw .invalidValue(problem)
            }
            return (identity, false, tampered)
        } catch {
            notes.append(
                "discarded corrupt storage file \(StorageLayout.identityFile): \(error); created a new device identifier"
            )
            discards.append(
                StorageDiscard(
                    scope: .file, path: file.path, subject: StorageDiscard.subject(ofFile: StorageLayout.identityFile),
                    reason: "\(error); a new device identifier was created"))
            return (StoredIdentity.generate(), true, false)
        }
    }

    // MARK: - The old layout

    private func loadLegacyFiles(
        _ names: [String], into snapshot: inout StorageSnapshot, key: [UInt8], verify: Bool,
        integrityFailures: inout [String],
        notes: inout [String], discards: inout [StorageDiscard]
    ) {
        let protection = StorageEnvelope.Protection.keyed(key)
        for name in names {
            do throws(StorageFileProblem) {
                try loadLegacyFile(name, into: &snapshot, protection: protection, verify: verify)
            } catch {
                if verify {
                    integrityFailures.append("\(name): \(error)")
                } else {
                    notes.append("discarded corrupt storage file \(name): \(error)")
                    discards.append(
                        StorageDiscard(
                            scope: .file, path: directory.path + "/" + name,
                            subject: StorageDiscard.subject(ofFile: name),
                            reason: error.description))
                }
            }
        }
    }

    private func loadLegacyFile(
        _ name: String, into snapshot: inout StorageSnapshot, protection: StorageEnvelope.Protection, verify: Bool
    ) throws(StorageFileProblem) {
        guard let (data, _) = try Self.read(directory.path + "/" + name) else { return }
        switch name {
        case StorageLayout.Legacy.clientCredentialsFile:
            snapshot.clientCredentials = try decode(
                StoredClientCredentials.self, data, StorageLayout.Kind.clientCredentials, protection, verify)
        case StorageLayout.Legacy.accessTokenFile:
            snapshot.accessToken = try decode(
                StoredAccessToken.self, data, StorageLayout.Kind.accessToken, protection, verify)
        case _ where StorageLayout.Legacy.isServiceProviderFile(name):
            let client = try decode(
                StoredServiceProviderClient.self, data, StorageLayout.Kind.serviceProviderClient, protection, verify)
            if verify, StorageLayout.Legacy.serviceProviderFile(client.baseURL) != name {
                throw .invalidValue("client of another service provider")
            }
            snapshot.serviceProviderClients[client.baseURL] = client
        default:
            let record = try decode(RequestorRecord.self, data, StorageLayout.Kind.requestor, protection, verify)
            if verify, StorageLayout.Legacy.requestorFile(record.requestor) != name {
                throw .invalidValue("record of another requestor")
            }
            snapshot.requestors[record.requestor] = record
        }
    }

    private func decode<Record: Codable & StoredValueValidating>(
        _ type: Record.Type, _ data: Data, _ kind: String, _ protection: StorageEnvelope.Protection, _ verify: Bool
    ) throws(StorageFileProblem) -> Record {
        let record = try StorageEnvelope.decode(
            type, from: data, kind: kind, protection: protection, verifyIntegrity: verify)
        if verify, let problem = record.validationProblem {
            throw .invalidValue(problem)
        }
        return record
    }

    // MARK: - File operations

    private static func read(_ path: String) throws(StorageFileProblem) -> (Data, FileSignature?)? {
        do {
            return try StorageFileSystem.read(path)
        } catch {
            throw .unreadable(error.description)
        }
    }
}
