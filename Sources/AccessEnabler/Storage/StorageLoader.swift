import Foundation

/// The stored values of one software statement, as held in memory.
struct StorageSnapshot: Sendable, Equatable {
    var identity: StoredIdentity
    var clientCredentials: StoredClientCredentials?
    var accessToken: StoredAccessToken?
    var requestors: [String: RequestorRecord] = [:]
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
struct StorageLoader {
    let directory: URL
    let integrityCheck: IntegrityCheckType
    let now: Date
    /// When `true`, a newly created identity is not written here: the caller saves it (on
    /// its write queue), and `load()` says so through `identityToSave`.
    var leavesNewIdentityToCaller = false

    /// What was loaded, a description of every problem met (nil when none), and the new
    /// identity the caller must save when ``leavesNewIdentityToCaller`` is set.
    func load() -> (snapshot: StorageSnapshot, problems: String?, identityToSave: StoredIdentity?) {
        removeTemporaryFiles()
        var notes: [String] = []
        var integrityFailures: [String] = []

        var created: StoredIdentity?
        let identity = loadIdentity(notes: &notes, integrityFailures: &integrityFailures, created: &created)
        let identityToSave = leavesNewIdentityToCaller ? created : nil
        var snapshot = StorageSnapshot(identity: identity)

        if integrityCheck == .INTEGRITY_CHECK_CLEAR {
            notes += removeClearableFiles()
            return (snapshot, joined(notes), identityToSave)
        }
        if integrityCheck == .INTEGRITY_CHECK_ALL, let problem = probeOperability() {
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
                    notes.append(discard(name, because: error))
                }
            }
        }

        if !integrityFailures.isEmpty {
            snapshot = StorageSnapshot(identity: identity)
            notes.append("storage integrity check failed (\(integrityFailures.joined(separator: "; "))); "
                + "cleared all stored values except the device identifier")
            notes += removeClearableFiles()
        }
        snapshot.requestors = snapshot.requestors.mapValues { $0.droppingExpiredEntries(at: now) }
        return (snapshot, joined(notes), identityToSave)
    }

    // MARK: - Identity

    private func loadIdentity(notes: inout [String], integrityFailures: inout [String], created: inout StoredIdentity?) -> StoredIdentity {
        let file = directory.appendingPathComponent(StorageLayout.identityFile)
        do throws(StorageFileProblem) {
            guard let data = try read(file) else {
                return createIdentity(notes: &notes, created: &created)
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
                try? StorageFileSystem.writeAtomically(
                    StorageEnvelope.encode(identity, kind: StorageLayout.Kind.identity, protection: .digest), to: file)
            }
            return identity
        } catch {
            notes.append(discard(StorageLayout.identityFile, because: error) + "; created a new device identifier")
            return createIdentity(notes: &notes, created: &created)
        }
    }

    private func createIdentity(notes: inout [String], created: inout StoredIdentity?) -> StoredIdentity {
        let identity = StoredIdentity.generate()
        created = identity
        if leavesNewIdentityToCaller { return identity }
        do {
            let data = try StorageEnvelope.encode(identity, kind: StorageLayout.Kind.identity, protection: .digest)
            try StorageFileSystem.writeAtomically(data, to: directory.appendingPathComponent(StorageLayout.identityFile))
        } catch {
            notes.append("could not save the device identifier: \(error)")
        }
        return identity
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
    private func probeOperability() -> String? {
        let file = directory.appendingPathComponent(StorageLayout.probeFile)
        let sample = Data(Hex.encode(StorageFileSystem.randomBytes(count: 16)).utf8)
        do {
            try StorageFileSystem.writeAtomically(sample, to: file)
            let readBack = try StorageFileSystem.contents(of: file)
            try StorageFileSystem.remove(file)
            return readBack == sample ? nil : "read back different bytes"
        } catch {
            try? StorageFileSystem.remove(file)
            return StorageFileProblem.notOperable(error.description).description
        }
    }

    private func discard(_ name: String, because problem: StorageFileProblem) -> String {
        var note = "discarded corrupt storage file \(name): \(problem)"
        do {
            try StorageFileSystem.remove(directory.appendingPathComponent(name))
        } catch {
            note += " (and could not delete it: \(error))"
        }
        return note
    }

    /// Deletes every file but the identity; returns the failures.
    private func removeClearableFiles() -> [String] {
        var failures: [String] = []
        for name in StorageFileSystem.fileNames(in: directory) where StorageLayout.isClearableFile(name) {
            do {
                try StorageFileSystem.remove(directory.appendingPathComponent(name))
            } catch {
                failures.append("could not delete \(name): \(error)")
            }
        }
        return failures
    }

    private func removeTemporaryFiles() {
        for name in StorageFileSystem.fileNames(in: directory) where StorageLayout.isTemporaryFile(name) {
            try? StorageFileSystem.remove(directory.appendingPathComponent(name))
        }
    }

    private func joined(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
