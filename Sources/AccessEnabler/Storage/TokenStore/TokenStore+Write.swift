import Foundation

/// ``TokenStore``'s writer: the launch's work (claiming a new device's identity, the
/// `INTEGRITY_CHECK_ALL` operability check), then `store.json` — what other writers put there
/// since this store last looked, with this store's unwritten changes over it — replaced whole
/// under the directory's lock; and what becomes of the store when its location turns out to be
/// one a stranger could touch. When it writes is `TokenStore+CommitPoints.swift`'s to say.
extension TokenStore {
    /// Writes what waits: the launch's work (the identity, the operability check), then this
    /// store's changes merged over what others wrote. Must be called with `ioLock` held.
    ///
    /// A write on a caller's path (`onCallersPath`) waits for another process's lock only as
    /// long as the caller's budget allows (``LockWaitBudget``); the storage thread's writes
    /// wait their own short `patience` and are tried again.
    func performWrite(patience: TimeInterval, onCallersPath: Bool, identityOnly: Bool = false) -> WriteOutcome {
        var (wanted, upTo, identity, probe) = stateLock.withLock {
            (changes.hasUnattempted, changes.latest, identityWrite, probeWanted)
        }
        if identityOnly { (wanted, probe) = (false, false) }
        guard stateLock.withLock({ isPersistent }), wanted || identity != nil || probe else { return .nothing }
        if !prepared {
            do throws(StorageIOError) {
                try system.ensureDirectory(statementDirectory, true)
                stateLock.withLock { locationVerified = true }
                prepared = true
            } catch {
                if let refusal = error.refusal {
                    refuseLocation(refusal)
                    return .written([])
                }
                let subject: String = stateLock.withLock {
                    defer {
                        changes.abandoned(upTo: upTo)
                        identityWrite = nil
                        probeWanted = false
                    }
                    return wanted ? subjects().subject : "the device identifier"
                }
                deviceIdentity.settled(as: stateLock.withLock { snapshot.identity.deviceIdentifier })
                report(StorageProblem(subject: subject, operation: .save, error: error))
                return .written([])
            }
        }
        let waitStarted = DispatchTime.now().uptimeNanoseconds
        let granted = onCallersPath ? stateLock.withLock { lockBudget.allowance(patience, at: waitStarted) } : patience
        let lock = StorageDirectoryLock.acquire(in: statementDirectory.path, patience: granted)
        if onCallersPath {
            let waited = DispatchTime.now().uptimeNanoseconds &- waitStarted
            stateLock.withLock {
                lockBudget.record(granted: granted, waitedNanoseconds: waited, gotTheLock: !lock.isBusy)
            }
        }
        if case .busy = lock {
            _ = stateLock.withLock { lockBudget.heldByAnother(since: waitStarted) }
            return .lockBusy(since: waitStarted)
        }
        defer { if case .held(let held) = lock { held.release() } }
        let heldUpUntilNow = stateLock.withLock { lockBudget.lockTaken() }
        if heldUpUntilNow {
            onNotice(
                "The storage lock (\(lockFilePath)) is free again: the changes this AccessEnabler kept in memory"
                    + " meanwhile are written now, and other processes see them from their next call.")
        }
        if sweepWanted {
            // Leftovers of writers that died mid-write; a writer that lives holds its own.
            StorageFileSystem.sweepTemporaryFiles(in: statementDirectory)
            sweepWanted = false
        }
        if let identity {
            deferredSyncs += writeIdentity(identity)
            deviceIdentity.settled(as: stateLock.withLock { snapshot.identity.deviceIdentifier })
        }
        if probe { checkOperability() }
        guard wanted, let request = writeStoreFile(upTo: upTo) else { return .written([]) }
        defer { deferredSyncs = [] }
        return .written(deferredSyncs + [request])
    }

    /// Creates (claiming it) or replaces the identity file. A claim that finds an identity
    /// another first launch created meanwhile takes that one instead.
    private func writeIdentity(_ write: StorageLoadResult.IdentityWrite) -> [StorageSyncThread.SyncRequest] {
        var existed = true
        if write == .claim {
            switch StorageLoader.readIdentity(in: statementDirectory) {
            case .found(let existing):
                if !adopt(existing) { return [] }
            case .unusable:
                break
            case .absent:
                existed = false
            }
        }
        let identity = stateLock.withLock { snapshot.identity }
        do throws(StorageIOError) {
            let data: Data
            do {
                data = try StorageEnvelope.encode(identity, kind: StorageLayout.Kind.identity, protection: .digest)
            } catch {
                throw StorageIOError(operation: "encode", path: identityFile.path, code: EINVAL)
            }
            try replace(identityFile, with: data, after: nil)
            stateLock.withLock { identityWrite = nil }
            return [syncRequest(identityFile, created: !existed, subject: "the device identifier")]
        } catch {
            stateLock.withLock { identityWrite = nil }
            report(
                StorageProblem(
                    subject: "the device identifier", path: identityFile.path, operation: .save,
                    cause: .init(errno: error.code)))
            return []
        }
    }

    /// Takes `identity`, which another launch created first. Returns whether this store must
    /// still write its own (only to put the device identifier the application configured in it).
    private func adopt(_ identity: StoredIdentity) -> Bool {
        stateLock.withLock {
            var adopted = identity
            let mustRewrite = configuredDeviceIdentifier.map { $0 != identity.deviceIdentifier } ?? false
            if let configuredDeviceIdentifier { adopted.deviceIdentifier = configuredDeviceIdentifier }
            if adopted.deviceIdentifier != snapshot.identity.deviceIdentifier, !snapshot.requestors.isEmpty {
                // Obtained with another device identifier: they no longer hold.
                let change = changes.next()
                for requestor in snapshot.requestors.keys { changes.changed(.requestor(requestor), by: change) }
                snapshot.requestors = [:]
            }
            snapshot.identity = adopted
            if !mustRewrite { identityWrite = nil }
            return mustRewrite
        }
    }

    /// The `INTEGRITY_CHECK_ALL` operability check: a file written and read back. A store
    /// that fails it cannot keep anything, which is reported — and clears nothing.
    private func checkOperability() {
        stateLock.withLock { probeWanted = false }
        let sample = Data(Hex.encode(StorageFileSystem.randomBytes(count: 16)).utf8)
        let target = statementDirectory.appendingPathComponent(StorageLayout.operabilityProbeFile, isDirectory: false)
        do throws(StorageIOError) {
            let temporary = try system.writeTemporary(sample, target)
            defer {
                try? system.unlink(temporary.url)
                temporary.close()
            }
            if try StorageFileSystem.read(temporary.url.path)?.data != sample {
                throw StorageIOError(operation: "read back", path: temporary.url.path, code: EIO)
            }
        } catch {
            report(
                StorageProblem(
                    subject: "a test file", path: target.path, operation: .save, cause: .init(errno: error.code)))
        }
    }

    /// Writes `store.json`: what others wrote since this store last looked, with this
    /// store's unwritten changes over it. Returns its sync request, `nil` when it failed
    /// (reported).
    private func writeStoreFile(upTo: UInt64) -> StorageSyncThread.SyncRequest? {
        var onDisk = FileSignature(path: storeFilePath)
        if onDisk != stateLock.withLock({ seen }) {
            let read = readStoreFile()
            takeIn(read, signature: onDisk)
            onDisk = read?.signature ?? onDisk
        }
        let (snapshot, described) = stateLock.withLock { (self.snapshot, subjects()) }
        do throws(StorageIOError) {
            let data: Data
            do {
                data = try StorageStoreFile.encode(snapshot, key: snapshot.identity.integrityKeyBytes)
            } catch {
                throw StorageIOError(operation: "encode", path: storeFilePath, code: EINVAL)
            }
            let written = try replace(storeFile, with: data, after: onDisk)
            let legacy: [URL] = stateLock.withLock {
                seen = written
                changes.written(upTo: upTo)
                defer { legacyFiles = [] }
                return legacyFiles.map { statementDirectory.appendingPathComponent($0, isDirectory: false) }
            }
            var request = syncRequest(storeFile, created: onDisk == nil, subject: described.subject)
            if !legacy.isEmpty {
                // The old layout's files go once what they held is durable in store.json.
                let system = self.system
                request.afterwards = { for file in legacy { try? system.unlink(file) } }
            }
            return request
        } catch {
            stateLock.withLock { changes.failed(upTo: upTo) }
            report(
                StorageProblem(
                    subject: described.subject, path: storeFilePath, operation: described.operation,
                    cause: .init(errno: error.code)))
            return nil
        }
    }

    /// Puts `data` in place of `file`: a temporary file, stamped later than `previous`, renamed
    /// over it. Returns the signature of the version written.
    @discardableResult
    private func replace(
        _ file: URL, with data: Data, after previous: FileSignature?
    ) throws(StorageIOError) -> FileSignature? {
        let temporary = try system.writeTemporary(data, file)
        defer { temporary.close() }
        StorageFileSystem.stamp(temporary.descriptor, after: previous)
        let signature = FileSignature(descriptor: temporary.descriptor)
        do throws(StorageIOError) {
            try system.replace(temporary.url, file)
        } catch {
            try? system.unlink(temporary.url)
            throw error
        }
        return signature
    }

    private func syncRequest(_ file: URL, created: Bool, subject: String) -> StorageSyncThread.SyncRequest {
        StorageSyncThread.SyncRequest(
            file: file, createdIn: created ? statementDirectory : nil, system: system,
            failed: { [self] error in
                report(
                    StorageProblem(
                        subject: subject, path: file.path, operation: .save, cause: .init(errno: error.code)))
            })
    }

    /// What the changes made since the last write attempt are, in words, and whether they
    /// only remove. Must be called with `stateLock` held.
    private func subjects() -> (subject: String, operation: StorageProblem.Operation) {
        changes.subjects(held: snapshot.recordKeys)
    }

    /// The location was refused at a write or a read (the store's directory, not there when
    /// the store opened, appeared meanwhile and is not the user's own): from now on the
    /// session lives in memory only, and the app hears why, once. A device identity never
    /// claimed becomes the one this machine derives for the directory, as a store opened
    /// over a refused location uses. Must be called with `ioLock` held.
    private func refuseLocation(_ refusal: StorageLocationRefusal) {
        let machineID = system.machineID()
        let identifier: String = stateLock.withLock {
            isPersistent = false
            locationVerified = false
            changes.abandonedAll()
            probeWanted = false
            if identityWrite == .claim {
                var derived = StoredIdentity.derived(statementDirectory: statementDirectory, machineID: machineID)
                if let configuredDeviceIdentifier { derived.deviceIdentifier = configuredDeviceIdentifier }
                snapshot.identity = derived
            }
            identityWrite = nil
            problem = refusal.message
            return snapshot.identity.deviceIdentifier
        }
        deviceIdentity.settled(as: identifier)
        onProblem(StorageProblem(refusal: refusal))
    }

    /// Whether the store's directory may be read: verified when the store opened or first
    /// wrote, or now — a directory that appeared since the store opened (another process of
    /// this user created it, or a stranger planted it) is checked once before anything is
    /// read from it. Must be called with `ioLock` held.
    func locationMayBeRead() -> Bool {
        if stateLock.withLock({ locationVerified }) { return true }
        switch StorageLocationCheck.check(statementDirectory: statementDirectory) {
        case .trusted:
            stateLock.withLock { locationVerified = true }
            return true
        case .absent:
            return false
        case .refused(let refusal):
            refuseLocation(refusal)
            return false
        }
    }

    private func report(_ failure: StorageProblem) {
        stateLock.withLock { problem = "could not save \(StorageLayout.storeFile): \(failure.message)" }
        onProblem(failure)
    }
}
