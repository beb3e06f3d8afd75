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
    /// Every file discarded as unusable (or the whole store, cleared by the integrity
    /// check), for the application to hear about.
    var discards: [StorageDiscard] = []
    /// Whether loading changed the directory (a file deleted, the identity written), so
    /// other stores over it must look again.
    var changedDirectory = false

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
/// A new identity is written at once (not yet durably; the caller saves it again with its
/// first batch), so that every store opening the directory after this one — in this process
/// or another — reads the same identity instead of drawing its own: the caller holds the
/// directory's lock (``StorageDirectoryLock``) around ``load()``.
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

    /// Reads the store. Nothing is written here except deletions and the identity (a new
    /// one, or a tampered one's new integrity code); a new identity is also returned for the
    /// caller to save durably.
    func load() -> StorageLoadResult {
        var changed = removeTemporaryFiles()
        var notes: [String] = []
        var integrityFailures: [String] = []
        var writeFailures: [StorageProblem] = []
        var discards: [StorageDiscard] = []

        var identityIsNew = false
        var identity = loadIdentity(
            notes: &notes, integrityFailures: &integrityFailures, writeFailures: &writeFailures, discards: &discards, isNew: &identityIsNew)
        var identityToSave: StoredIdentity? = identityIsNew ? identity : nil
        var identifierChanged = identityIsNew
        if let configured = configuredDeviceIdentifier, configured != identity.deviceIdentifier {
            identity.deviceIdentifier = configured
            identityToSave = identity
            identifierChanged = true
        }
        let identityFile = directory.appendingPathComponent(StorageLayout.identityFile)
        if let newIdentity = identityToSave {
            do throws(StorageIOError) {
                if let obstacle = system.creationObstacle(identityFile) { throw obstacle }
                try writeNow(newIdentity, to: identityFile)
                changed = true
            } catch {
                // Nothing could keep a drawn identifier: derive one that every launch finds again.
                writeFailures.append(StorageProblem(subject: "the device identifier", path: identityFile.path, operation: .save, cause: .init(errno: error.code)))
                if configuredDeviceIdentifier == nil {
                    identity = StoredIdentity.derived(statementDirectory: directory, machineID: system.machineID())
                    notes.append("the device identifier cannot be saved (\(error)); using one derived from this machine")
                }
                identityToSave = nil
            }
        }
        var snapshot = StorageSnapshot(identity: identity)

        if integrityCheck == .INTEGRITY_CHECK_CLEAR {
            changed = removeClearableFiles(failures: &writeFailures) || changed
            return StorageLoadResult(
                snapshot: snapshot, notes: joined(notes), identityToSave: identityToSave, writeFailures: writeFailures,
                discards: discards, changedDirectory: changed)
        }
        if integrityCheck == .INTEGRITY_CHECK_ALL, let problem = probeOperability(failures: &writeFailures) {
            integrityFailures.append("\(StorageLayout.probeFile(writer: StorageFileSystem.currentProcess)): \(problem)")
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
                    discards.append(
                        StorageDiscard(
                            scope: .file, path: directory.appendingPathComponent(name).path, subject: StorageDiscard.subject(ofFile: name),
                            reason: error.description))
                    changed = true
                }
            }
        }

        if !integrityFailures.isEmpty {
            snapshot = StorageSnapshot(identity: identity)
            let failures = integrityFailures.joined(separator: "; ")
            notes.append("storage integrity check failed (\(failures)); cleared all stored values except the device identifier")
            discards.append(StorageDiscard(scope: .everything, path: directory.path, subject: "every stored value", reason: failures))
            changed = removeClearableFiles(failures: &writeFailures) || changed
        } else if identifierChanged, !snapshot.requestors.isEmpty {
            notes.append("the device identifier changed, so the stored profiles no longer hold: removed them")
            removeRequestorFiles(of: snapshot, failures: &writeFailures)
            snapshot.requestors = [:]
            changed = true
        }
        snapshot.requestors = snapshot.requestors.mapValues { $0.droppingExpiredEntries(at: now) }
        return StorageLoadResult(
            snapshot: snapshot, notes: joined(notes), identityToSave: identityToSave, writeFailures: writeFailures,
            discards: discards, changedDirectory: changed)
    }

    /// Reads the record file `name` again (another store over the directory changed it):
    /// the record, checked as the integrity check says, or why it cannot be used.
    func reload(_ name: String, protection: StorageEnvelope.Protection) -> Result<StorageRecord, StorageFileProblem> {
        var snapshot = StorageSnapshot(identity: StoredIdentity(deviceIdentifier: "", integrityKey: ""))
        do throws(StorageFileProblem) {
            try loadFile(name, into: &snapshot, protection: protection, verify: integrityCheck == .INTEGRITY_CHECK_ALL)
        } catch {
            return .failure(error)
        }
        if let credentials = snapshot.clientCredentials { return .success(.clientCredentials(credentials)) }
        if let token = snapshot.accessToken { return .success(.accessToken(token)) }
        if let record = snapshot.requestors.values.first { return .success(.requestor(record.droppingExpiredEntries(at: now))) }
        if let client = snapshot.serviceProviderClients.values.first { return .success(.serviceProviderClient(client)) }
        return .success(.absent)
    }

    /// Writes `identity` to `file` at once, atomically but not yet durably: a temporary file
    /// renamed over it.
    private func writeNow(_ identity: StoredIdentity, to file: URL) throws(StorageIOError) {
        let data: Data
        do {
            data = try StorageEnvelope.encode(identity, kind: StorageLayout.Kind.identity, protection: .digest)
        } catch {
            throw StorageIOError(operation: "encode", path: file.path, code: EINVAL)
        }
        let temporary = try system.writeTemporary(data, file)
        do throws(StorageIOError) {
            try system.replace(temporary, file)
        } catch {
            try? system.unlink(temporary)
            throw error
        }
    }

    // MARK: - Identity

    private func loadIdentity(
        notes: inout [String], integrityFailures: inout [String], writeFailures: inout [StorageProblem], discards: inout [StorageDiscard],
        isNew: inout Bool
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
            discards.append(
                StorageDiscard(
                    scope: .file, path: file.path, subject: StorageDiscard.subject(ofFile: StorageLayout.identityFile),
                    reason: "\(error); a new device identifier was created"))
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

    /// Writes a scratch file and reads it back, for the operability check. The file's name
    /// carries this process's id: two launches checking at once must not read each other's.
    private func probeOperability(failures: inout [StorageProblem]) -> String? {
        let file = directory.appendingPathComponent(StorageLayout.probeFile(writer: StorageFileSystem.currentProcess))
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

    /// Deletes every file but the identity; `true` when there was one.
    private func removeClearableFiles(failures: inout [StorageProblem]) -> Bool {
        let names = StorageFileSystem.fileNames(in: directory).filter(StorageLayout.isClearableFile)
        remove(names, subject: "a stored value", failures: &failures)
        return !names.isEmpty
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

    /// Removes the temporary files whose writer is gone: a process that no longer exists
    /// (it crashed or was killed mid-write). Another live process's — or this one's — are
    /// writes in progress and stay. A name without its writer (an older build's) is removed
    /// once it is ten minutes old, longer than any write takes. `true` when one was removed.
    private func removeTemporaryFiles() -> Bool {
        var removed = false
        for name in StorageFileSystem.fileNames(in: directory) where StorageLayout.isTemporaryFile(name) {
            let file = directory.appendingPathComponent(name)
            if let writer = StorageLayout.temporaryFileWriter(name) {
                if StorageFileSystem.processExists(writer) { continue }
            } else if (StorageFileSystem.age(of: file) ?? 0) < 600 {
                continue
            }
            try? system.remove(file)
            removed = true
        }
        return removed
    }

    private func joined(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
