import Foundation

/// The stored values of one software statement, as held in memory.
struct StorageSnapshot: Sendable, Equatable {
    var identity: StoredIdentity
    var clientCredentials: StoredClientCredentials?
    var accessToken: StoredAccessToken?
    var requestors: [String: RequestorRecord] = [:]
    /// The clients registered at extra service providers, by base URL.
    var serviceProviderClients: [String: StoredServiceProviderClient] = [:]
}

/// What ``StorageLoader/load()`` found.
struct StorageLoadResult: Sendable {
    /// The values to serve.
    var snapshot: StorageSnapshot
    /// A description of every problem met, or `nil` when none.
    var notes: String?
    /// An identity the caller must save (new, or carrying a newly configured device
    /// identifier), on its write queue.
    var identityToSave: StoredIdentity?
    /// Every write or deletion that failed while loading.
    var writeFailures: [StorageProblem] = []

    /// A store whose directory does not exist yet: nothing stored, a new identity to save
    /// (carrying the configured device identifier, when there is one).
    static func fresh(configuredDeviceIdentifier: String?) -> StorageLoadResult {
        var identity = StoredIdentity.generate()
        if let configuredDeviceIdentifier { identity.deviceIdentifier = configuredDeviceIdentifier }
        return StorageLoadResult(snapshot: StorageSnapshot(identity: identity), identityToSave: identity)
    }
}

/// Reads a software statement's store at launch and applies the ``IntegrityCheckType``:
///
/// - ``IntegrityCheckType/INTEGRITY_CHECK_NONE``: values are trusted as read (no integrity or
///   value checks); a file that cannot be read or decoded at all is deleted on its own.
/// - ``IntegrityCheckType/INTEGRITY_CHECK_ALL``: the directory must accept a write and give it
///   back, and every file must be readable, of the current format version and kind, match its
///   integrity code and hold well-formed values. On any failure every file except the
///   identity is deleted and the launch starts signed out.
/// - ``IntegrityCheckType/INTEGRITY_CHECK_CLEAR``: every file except the identity is deleted.
///
/// The identity (device identifier and integrity key) is replaced only when its own file cannot
/// be read or is malformed; a stable device identifier is what lets Adobe Pass find profiles.
/// When it is replaced — or when the application configures another device identifier — the
/// stored profiles, media tokens and preauthorizations are deleted: Adobe Pass binds them to
/// the `AP-Device-Identifier` they were obtained with, so they no longer hold. When the
/// identity file cannot be written at all, the identity is derived from the machine
/// (``StoredIdentity/derived(statementDirectory:machineID:)``) instead of drawn, so it stays
/// the same at every launch.
struct StorageLoader {
    let directory: URL
    let integrityCheck: IntegrityCheckType
    let now: Date
    /// The device identifier the application configured, already hashed; it replaces the
    /// stored one.
    var configuredDeviceIdentifier: String?
    /// The file operations (the real ones, or a test's failing ones).
    var system: StorageSystem

    init(directory: URL, integrityCheck: IntegrityCheckType, now: Date, configuredDeviceIdentifier: String? = nil, system: StorageSystem = .posix) {
        self.directory = directory
        self.integrityCheck = integrityCheck
        self.now = now
        self.configuredDeviceIdentifier = configuredDeviceIdentifier
        self.system = system
    }

    /// Reads the store. Nothing is written here except deletions (and a tampered identity's
    /// new integrity code): a new identity is returned for the caller to save.
    func load() -> StorageLoadResult {
        removeTemporaryFiles()
        var notes: [String] = []
        var integrityFailures: [String] = []
        var writeFailures: [StorageProblem] = []

        var identityIsNew = false
        var identity = loadIdentity(notes: &notes, integrityFailures: &integrityFailures, writeFailures: &writeFailures, isNew: &identityIsNew)
        var identityToSave: StoredIdentity? = identityIsNew ? identity : nil
        var identifierChanged = identityIsNew
        if let configured = configuredDeviceIdentifier, configured != identity.deviceIdentifier {
            identity.deviceIdentifier = configured
            identityToSave = identity
            identifierChanged = true
        }
        let identityFile = directory.appendingPathComponent(StorageLayout.identityFile)
        if identityToSave != nil, let obstacle = system.creationObstacle(identityFile) {
            // Nothing could keep a drawn identifier: derive one that every launch finds again.
            writeFailures.append(StorageProblem(subject: "the device identifier", path: identityFile.path, operation: .save, cause: .init(errno: obstacle.code)))
            if configuredDeviceIdentifier == nil {
                identity = StoredIdentity.derived(statementDirectory: directory, machineID: system.machineID())
                notes.append("the device identifier cannot be saved (\(obstacle)); using one derived from this machine")
            }
            identityToSave = nil
        }
        var snapshot = StorageSnapshot(identity: identity)

        if integrityCheck == .INTEGRITY_CHECK_CLEAR {
            removeClearableFiles(failures: &writeFailures)
            return StorageLoadResult(snapshot: snapshot, notes: joined(notes), identityToSave: identityToSave, writeFailures: writeFailures)
        }
        if integrityCheck == .INTEGRITY_CHECK_ALL, let problem = probeOperability(failures: &writeFailures) {
            integrityFailures.append("\(StorageLayout.probeFile): \(problem)")
        }

        let verify = integrityCheck == .INTEGRITY_CHECK_ALL
        let protection = StorageEnvelope.Protection.keyed(identity.integrityKeyBytes)
        for name in StorageFileSystem.fileNames(in: directory).sorted() where StorageLayout.isClearableFile(name) {
            do throws(StorageFileProblem) {
                try loadFile(name, into: &snapshot, protection: protection, verify: verify)
            } catch {
                if verify {
                    integrityFailures.append("\(name): \(error)")
                } else {
                    notes.append(discard(name, because: error, failures: &writeFailures))
                }
            }
        }

        if !integrityFailures.isEmpty {
            snapshot = StorageSnapshot(identity: identity)
            notes.append("storage integrity check failed (\(integrityFailures.joined(separator: "; "))); "
                + "cleared all stored values except the device identifier")
            removeClearableFiles(failures: &writeFailures)
        } else if identifierChanged, !snapshot.requestors.isEmpty {
            notes.append("the device identifier changed, so the stored profiles no longer hold: removed them")
            removeRequestorFiles(of: snapshot, failures: &writeFailures)
            snapshot.requestors = [:]
        }
        snapshot.requestors = snapshot.requestors.mapValues { $0.droppingExpiredEntries(at: now) }
        return StorageLoadResult(snapshot: snapshot, notes: joined(notes), identityToSave: identityToSave, writeFailures: writeFailures)
    }

    // MARK: - Identity

    private func loadIdentity(
        notes: inout [String], integrityFailures: inout [String], writeFailures: inout [StorageProblem], isNew: inout Bool
    ) -> StoredIdentity {
        let file = directory.appendingPathComponent(StorageLayout.identityFile)
        do throws(StorageFileProblem) {
            guard let data = try read(file) else {
                isNew = true
                return StoredIdentity.generate()
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
            if tampered {
                // The identity is kept while it is well-formed (a changed identifier could not be
                // recovered anyway), but nothing protected by its key can be trusted any more.
                integrityFailures.append("\(StorageLayout.identityFile): \(StorageFileProblem.integrityMismatch)")
                do {
                    try system.writeAtomically(StorageEnvelope.encode(identity, kind: StorageLayout.Kind.identity, protection: .digest), file)
                } catch let error as StorageIOError {
                    writeFailures.append(StorageProblem(subject: "the device identifier", path: file.path, operation: .save, cause: .init(errno: error.code)))
                } catch {
                    notes.append("could not encode the device identifier: \(error)")
                }
            }
            return identity
        } catch {
            notes.append(discard(StorageLayout.identityFile, because: error, failures: &writeFailures) + "; created a new device identifier")
            isNew = true
            return StoredIdentity.generate()
        }
    }

    // MARK: - Other records

    private func loadFile(
        _ name: String, into snapshot: inout StorageSnapshot, protection: StorageEnvelope.Protection, verify: Bool
    ) throws(StorageFileProblem) {
        guard let data = try read(directory.appendingPathComponent(name)) else { return }
        switch name {
        case StorageLayout.clientCredentialsFile:
            let credentials = try decode(StoredClientCredentials.self, data, StorageLayout.Kind.clientCredentials, protection, verify)
            snapshot.clientCredentials = credentials
        case StorageLayout.accessTokenFile:
            snapshot.accessToken = try decode(StoredAccessToken.self, data, StorageLayout.Kind.accessToken, protection, verify)
        case _ where StorageLayout.isServiceProviderFile(name):
            let client = try decode(StoredServiceProviderClient.self, data, StorageLayout.Kind.serviceProviderClient, protection, verify)
            if verify, StorageLayout.serviceProviderFile(client.baseURL) != name {
                throw .invalidValue("client of another service provider")
            }
            snapshot.serviceProviderClients[client.baseURL] = client
        default:
            let record = try decode(RequestorRecord.self, data, StorageLayout.Kind.requestor, protection, verify)
            if verify, StorageLayout.requestorFile(record.requestor) != name {
                throw .invalidValue("record of another requestor")
            }
            snapshot.requestors[record.requestor] = record
        }
    }

    private func decode<Record: Codable & StoredValueValidating>(
        _ type: Record.Type, _ data: Data, _ kind: String, _ protection: StorageEnvelope.Protection, _ verify: Bool
    ) throws(StorageFileProblem) -> Record {
        let record = try StorageEnvelope.decode(type, from: data, kind: kind, protection: protection, verifyIntegrity: verify)
        if verify, let problem = record.validationProblem {
            throw .invalidValue(problem)
        }
        return record
    }

    // MARK: - File operations

    private func read(_ file: URL) throws(StorageFileProblem) -> Data? {
        do {
            return try StorageFileSystem.contents(of: file)
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// Writes a scratch file and reads it back, for the operability check.
    private func probeOperability(failures: inout [StorageProblem]) -> String? {
        let file = directory.appendingPathComponent(StorageLayout.probeFile)
        let sample = Data(Hex.encode(StorageFileSystem.randomBytes(count: 16)).utf8)
        do throws(StorageIOError) {
            try system.writeAtomically(sample, file)
            let readBack = try StorageFileSystem.contents(of: file)
            try system.remove(file)
            return readBack == sample ? nil : "read back different bytes"
        } catch {
            try? system.remove(file)
            failures.append(StorageProblem(subject: "a test file", path: file.path, operation: .save, cause: .init(errno: error.code)))
            return StorageFileProblem.notOperable(error.description).description
        }
    }

    private func discard(_ name: String, because problem: StorageFileProblem, failures: inout [StorageProblem]) -> String {
        var note = "discarded corrupt storage file \(name): \(problem)"
        let file = directory.appendingPathComponent(name)
        do throws(StorageIOError) {
            try system.remove(file)
        } catch {
            note += " (and could not delete it: \(error))"
            failures.append(StorageProblem(subject: "a damaged storage file", path: file.path, operation: .delete, cause: .init(errno: error.code)))
        }
        return note
    }

    /// Deletes every file but the identity.
    private func removeClearableFiles(failures: inout [StorageProblem]) {
        remove(StorageFileSystem.fileNames(in: directory).filter(StorageLayout.isClearableFile), subject: "a stored value", failures: &failures)
    }

    /// Deletes the files of `snapshot`'s requestors.
    private func removeRequestorFiles(of snapshot: StorageSnapshot, failures: inout [StorageProblem]) {
        remove(snapshot.requestors.keys.map(StorageLayout.requestorFile), subject: "a stored profile", failures: &failures)
    }

    private func remove(_ names: [String], subject: String, failures: inout [StorageProblem]) {
        for name in names {
            let file = directory.appendingPathComponent(name)
            do throws(StorageIOError) {
                try system.remove(file)
            } catch {
                failures.append(StorageProblem(subject: subject, path: file.path, operation: .delete, cause: .init(errno: error.code)))
            }
        }
    }

    private func removeTemporaryFiles() {
        for name in StorageFileSystem.fileNames(in: directory) where StorageLayout.isTemporaryFile(name) {
            try? system.remove(directory.appendingPathComponent(name))
        }
    }

    private func joined(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
