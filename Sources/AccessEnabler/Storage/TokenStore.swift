import Foundation
import Synchronization

/// The SDK's persistent state for one software statement: DCR client, access token, device
/// identifier, and per requestor the current profile, media tokens and preauthorization answers.
///
/// Everything is read once at creation (applying the ``IntegrityCheckType``, see
/// ``StorageLoader``) and then served from memory, so reads never touch the disk. Every change
/// updates memory at once and is written crash-safely, in order, by the process's
/// ``StorageCommitter`` (see ``StorageBatchWriter``): before the call returns, or — with
/// `writeBehind`, as the SDK's engine uses it — behind it. Behind the caller, the changes
/// made while a hold is on (``holdWrites()``: the engine holds them while it handles a call)
/// gather into one batch, one file per record however often it changed, written once the
/// hold ends; so the engine never waits for `fsync`, and a sign-in costs one round of
/// durability after its callback instead of eight `fsync`s before it. A store writing behind
/// creates its directory with its first batch, not when it opens. A new store over the
/// same directory waits for the batches on their way before reading, so it resumes the
/// session. Problems never crash: a bad file is discarded, the affected
/// values are simply absent, and ``lastError`` says what happened. Every write or deletion
/// that fails (a full disk, a read-only directory, a directory in the way) is also told to
/// the `onProblem` callback as a ``StorageProblem``, and the value stays in memory.
///
/// Profiles, media tokens and preauthorizations hold only for the device identifier and the
/// DCR client they were obtained with (REST API V2 FAQ: profiles become invalid when the
/// `AP-Device-Identifier` or the client credentials change), so a new device identifier or
/// a new client id removes them all.
///
/// Several stores may share one directory — AccessEnablers of one app, in one process or in
/// two (an app and its helper). The directory's lock (``StorageDirectoryLock``) is held
/// while a store reads it at launch (so however many first launches race, one device
/// identity is created and every store reads it), while a batch renames its files into
/// place, and while a store reloads what another one changed: ``refreshIfChanged()``,
/// called at the start of each facade call, compares the directory's change counter with
/// the one this store saw last (one load from shared memory) and only when it moved reads
/// the files whose signature changed — never one this store has a change on its way for
/// (that change is newer, and will be written over it). A file another store wrote that
/// this one cannot use is left alone and reported (``StorageDiscard``).
///
/// All methods are thread-safe. A write that was overtaken by a newer change to the same file
/// is skipped.
final class TokenStore: @unchecked Sendable {
    /// The directory holding this software statement's files.
    let statementDirectory: URL
    /// What the committer counts this directory's batches under.
    private let directoryKey: String

    private let protection: StorageEnvelope.Protection
    private let identity: StoredIdentity
    private let isPersistent: Bool
    private let system: StorageSystem
    private let onProblem: @Sendable (StorageProblem) -> Void
    /// Told about stored values found unusable and discarded.
    private let onDiscard: @Sendable (StorageDiscard) -> Void
    private let integrityCheck: IntegrityCheckType
    /// The directory's lock and change counter; `nil` for a store that keeps nothing, or
    /// whose directory has no usable lock file.
    private let directoryLock: StorageDirectoryLock?
    /// The directory's change counter as of this store's last look (load, reload, or its
    /// own batch when nobody else wrote in between).
    private let seenGeneration = Atomic<UInt64>(0)
    /// The version of each record file this store holds in memory (read or written by it),
    /// by file name; guarded by `stateLock`.
    private var signatures: [String: FileSignature] = [:]
    /// Per file name, the newest change of this store not yet on disk; guarded by `stateLock`.
    private var outstanding: [String: UInt64] = [:]
    /// The clock: a reload drops media tokens and preauthorization answers that have ended.
    private let now: @Sendable () -> Date

    private let stateLock = NSLock()
    private var snapshot: StorageSnapshot
    private var problem: String?

    private let writeBehind: Bool
    /// Incremented on every change (under `stateLock`, with the change itself): orders the
    /// versions of one file when several threads change it at once.
    private var changeCounter: UInt64 = 0
    /// Changes not yet handed on, one per file (its latest), in the order made; guarded by
    /// `stateLock`.
    private var pending: [(change: UInt64, file: StorageBatch.Change)] = []
    /// Writing before returning: the change written last per file, so an older version
    /// that lost the race to the lock is not written over a newer one.
    private let syncWriteLock = NSLock()
    nonisolated(unsafe) private var writtenChange: [String: UInt64] = [:]
    /// The URL of each record file written so far, by file name: `URL` path operations cost
    /// tens of thousands of instructions, and a sign-in writes four files. Guarded by
    /// `stateLock`.
    private var fileURLs: [String: URL] = [:]

    /// Holds on the writes (``holdWrites()``); guarded by `stateLock`.
    private var holds = 0
    /// Whether the statement directory exists; guarded by `stateLock`.
    private var directoryExists: Bool

    /// Opens (creating when needed) the store of `softwareStatement` under `directory`.
    ///
    /// - Parameters:
    ///   - writeBehind: `false` writes each change before the call returns; `true` writes it
    ///     on the write queue after returning (``flush()`` waits for it).
    ///   - configuredDeviceIdentifier: the device identifier the application supplies
    ///     (`AccessEnablerConfiguration.deviceIdentifier`); its SHA-256 (see
    ///     ``DeviceIdentifier``) replaces the stored identifier. `nil`, empty or blank: the
    ///     stored (or a new) identifier is used.
    ///   - system: the file operations; tests pass failing ones.
    ///   - onProblem: told about every write or deletion that fails, with a sentence naming
    ///     the file and what to do. Called on the caller's thread while the store opens and
    ///     on the write queue afterwards; keep it short.
    ///   - onDiscard: told about every stored value found unusable and discarded (a corrupt
    ///     or tampered file, a store cleared by the integrity check), while the store opens
    ///     or reloads.
    ///   - now: the clock; media tokens and preauthorization answers that have ended are
    ///     dropped when the store is read.
    init(
        directory: URL, softwareStatement: String, integrityCheck: IntegrityCheckType, writeBehind: Bool = false,
        configuredDeviceIdentifier: String? = nil, system: StorageSystem = .posix,
        onProblem: @escaping @Sendable (StorageProblem) -> Void = { _ in }, onDiscard: @escaping @Sendable (StorageDiscard) -> Void = { _ in },
        now: @escaping @Sendable () -> Date
    ) {
        statementDirectory = StorageLayout.statementDirectory(in: directory, softwareStatement: softwareStatement)
        directoryKey = StorageCommitter.key(for: statementDirectory)
        self.writeBehind = writeBehind
        self.system = system
        self.onProblem = onProblem
        self.onDiscard = onDiscard
        self.integrityCheck = integrityCheck
        self.now = now
        let configured = configuredDeviceIdentifier.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : DeviceIdentifier.hashed($0) }
        // Batches of an earlier store over this directory land before this one reads.
        StorageCommitter.shared.waitUntilWritten(directoryKey)
        var result: StorageLoadResult
        var lock: StorageDirectoryLock?
        var loaded: (signatures: [String: FileSignature], generation: UInt64) = ([:], 0)
        do throws(StorageIOError) {
            if writeBehind, let obstacle = system.directoryObstacle(statementDirectory) {
                throw obstacle
            }
            try system.ensureDirectory(statementDirectory, true)
            let loader = StorageLoader(
                directory: statementDirectory, integrityCheck: integrityCheck, now: now(),
                configuredDeviceIdentifier: configured, system: system)
            let directoryLock = StorageDirectoryLock(directory: statementDirectory)
            lock = directoryLock
            let directory = statementDirectory
            // Under the lock: a store opening meanwhile (another launch) waits, then reads
            // the identity this one may have created, and no batch lands half-read.
            let load = { () -> (StorageLoadResult, [String: FileSignature], UInt64) in
                let result = loader.load()
                if result.changedDirectory { directoryLock?.advance() }
                return (result, Self.signatures(in: directory), directoryLock?.generation ?? 0)
            }
            let signed: [String: FileSignature]
            let generation: UInt64
            (result, signed, generation) = directoryLock.map { $0.withExclusiveLock(load) } ?? load()
            loaded = (signed, generation)
            isPersistent = true
        } catch {
            // Nothing can be kept; the device identifier must still be the same at every launch.
            var identity = StoredIdentity.derived(statementDirectory: statementDirectory, machineID: system.machineID())
            if let configured { identity.deviceIdentifier = configured }
            result = StorageLoadResult(
                snapshot: StorageSnapshot(identity: identity),
                notes: "storage unavailable, nothing will be kept after this launch: \(error)",
                writeFailures: [StorageProblem(subject: "the sign-in data", operation: .save, error: error)])
            isPersistent = false
        }
        directoryLock = lock
        signatures = loaded.signatures
        seenGeneration.store(loaded.generation, ordering: .releasing)
        directoryExists = isPersistent
        snapshot = result.snapshot
        problem = result.notes
        identity = result.snapshot.identity
        protection = .keyed(result.snapshot.identity.integrityKeyBytes)
        for failure in result.writeFailures { onProblem(failure) }
        for discard in result.discards { onDiscard(discard) }
        if let newIdentity = result.identityToSave {
            // The loader wrote the new identity at once, for the stores that open next; here
            // it becomes durable, as the first change of the first batch. Writing behind, it
            // waits for the first hold to end (or a flush), so opening costs no fsync.
            let change = stateLock.withLock { nextChange() }
            persist(
                newIdentity, kind: StorageLayout.Kind.identity, file: StorageLayout.identityFile, subject: "the device identifier",
                change: change, protection: .digest, submit: !writeBehind)
        }
    }

    /// `$XDG_DATA_HOME/accessenabler` when `XDG_DATA_HOME` is an absolute path, otherwise
    /// `~/.local/share/accessenabler`.
    static func defaultDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("accessenabler", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/accessenabler", isDirectory: true)
    }

    /// The last storage problem (a discarded file, a failed write, a cleared store), for a
    /// status message; nil when none happened.
    var lastError: String? {
        stateLock.withLock { problem }
    }

    /// Created once and kept across launches and every integrity check for this software
    /// statement and directory: 64 lowercase hex characters from 32 random bytes, or the
    /// SHA-256 of the identifier the application configured, or — when the store cannot
    /// keep it — derived from the machine (the same at every launch).
    var deviceIdentifier: String {
        identity.deviceIdentifier
    }

    // MARK: - Client and access token

    var clientCredentials: StoredClientCredentials? {
        stateLock.withLock { snapshot.clientCredentials }
    }

    /// Stores the DCR client; nil removes it.
    ///
    /// A client with another client id than the stored one (a new registration after
    /// `application-registration` or `invalid_client`, or after the credentials file was
    /// lost) removes every stored profile, media token and preauthorization: they were
    /// obtained with the old client and no longer hold. Returns the requestors whose sign-in
    /// went that way (those that had a profile), so the user can be told.
    @discardableResult
    func setClientCredentials(_ credentials: StoredClientCredentials?) -> [String] {
        let (change, dropped, signedOut) = stateLock.withLock { () -> (UInt64, [String], [String]) in
            var dropped: [String] = []
            var signedOut: [String] = []
            if let credentials, credentials.clientID != snapshot.clientCredentials?.clientID {
                dropped = Array(snapshot.requestors.keys)
                signedOut = snapshot.requestors.values.filter { $0.profile != nil || $0.standby != nil }.map(\.requestor).sorted()
                snapshot.requestors = [:]
            }
            snapshot.clientCredentials = credentials
            return (nextChange(), dropped, signedOut)
        }
        persist(
            credentials, kind: StorageLayout.Kind.clientCredentials, file: StorageLayout.clientCredentialsFile,
            subject: "the registered client (DCR client credentials)", change: change)
        for requestor in dropped {
            persist(
                nil as RequestorRecord?, kind: StorageLayout.Kind.requestor, file: StorageLayout.requestorFile(requestor),
                subject: "the sign-in of \(requestor)", change: change)
        }
        return signedOut
    }

    var accessToken: StoredAccessToken? {
        stateLock.withLock { snapshot.accessToken }
    }

    /// Stores the access token; nil removes it.
    func setAccessToken(_ token: StoredAccessToken?) {
        let change = stateLock.withLock {
            snapshot.accessToken = token
            return nextChange()
        }
        persist(token, kind: StorageLayout.Kind.accessToken, file: StorageLayout.accessTokenFile, subject: "the access token", change: change)
    }

    // MARK: - Extra service providers

    /// The client and token registered at the service provider `baseURL`, if any.
    func serviceProviderClient(baseURL: String) -> StoredServiceProviderClient? {
        stateLock.withLock { snapshot.serviceProviderClients[baseURL] }
    }

    /// Changes the client and token stored for the service provider `baseURL`.
    func updateServiceProviderClient(baseURL: String, _ change: (inout StoredServiceProviderClient) -> Void) {
        let (record, number) = stateLock.withLock {
            var record = snapshot.serviceProviderClients[baseURL] ?? StoredServiceProviderClient(baseURL: baseURL)
            change(&record)
            snapshot.serviceProviderClients[baseURL] = record
            return (record, nextChange())
        }
        persist(
            record, kind: StorageLayout.Kind.serviceProviderClient, file: StorageLayout.serviceProviderFile(baseURL),
            subject: "the client registered at \(baseURL)", change: number)
    }

    // MARK: - Profiles

    /// The profiles stored for `requestor`, as they were stored: which one is in force is
    /// ``ProfileSelection``'s to say.
    func profiles(requestor: String) -> RequestorProfiles {
        stateLock.withLock {
            guard let record = snapshot.requestors[requestor] else { return .none }
            return RequestorProfiles(
                chosen: record.profile, standby: record.standby, others: record.others ?? [], pendingLogouts: record.pendingLogouts ?? [],
                remembered: record.rememberedProvider)
        }
    }

    /// Every requestor's logouts Adobe Pass has not confirmed, by requestor (only those with some).
    func pendingLogouts() -> [String: [PendingLogout]] {
        stateLock.withLock {
            snapshot.requestors.compactMapValues { record in record.pendingLogouts.flatMap { $0.isEmpty ? nil : $0 } }
        }
    }

    /// The profile of `requestor` chosen last, expired or not.
    func profile(requestor: String) -> StoredProfile? {
        stateLock.withLock { snapshot.requestors[requestor]?.profile }
    }

    /// Stores what ``ProfileSelection`` decided for `requestor`: its profiles, and the media
    /// tokens and preauthorization answers that no longer hold with them removed — in one
    /// write of the requestor's record.
    func apply(_ change: ProfileChange, requestor: String) {
        updateRecord(of: requestor) { record in
            record.profile = change.profiles.chosen
            record.standby = change.profiles.standby
            record.others = change.profiles.others.isEmpty ? nil : change.profiles.others
            record.pendingLogouts = change.profiles.pendingLogouts.isEmpty ? nil : change.profiles.pendingLogouts
            record.rememberedProvider = change.profiles.remembered
            if let kept = change.keepingMediaTokensOf {
                record.authorizations = record.authorizations.filter { kept.contains($0.value.mvpd) }
            }
            if change.droppingPreauthorizations { record.preauthorizations = [:] }
        }
    }

    /// Removes `requestor`'s profiles with its media tokens and preauthorization answers;
    /// logouts Adobe Pass has not confirmed stay, to be sent again, and so does the provider
    /// of the last sign-in (only a logout forgets it) and the configuration.
    func removeProfile(requestor: String) {
        updateRecord(of: requestor) { record in
            record = RequestorRecord(
                requestor: requestor, pendingLogouts: record.pendingLogouts, rememberedProvider: record.rememberedProvider, configuration: record.configuration)
        }
    }

    // MARK: - Configuration

    /// The configuration of `requestor` last stored, whatever its age.
    func configuration(requestor: String) -> StoredConfiguration? {
        stateLock.withLock { snapshot.requestors[requestor]?.configuration }
    }

    /// Keeps `configuration` as `requestor`'s, in place of the one stored before.
    func setConfiguration(_ configuration: StoredConfiguration, requestor: String) {
        updateRecord(of: requestor) { record in record.configuration = configuration }
    }

    // MARK: - Authorizations

    /// The media tokens stored for `requestor`, by resource, expired or not.
    func authorizations(requestor: String) -> [String: StoredAuthorization] {
        stateLock.withLock { snapshot.requestors[requestor]?.authorizations ?? [:] }
    }

    /// The media token stored for `resource`, expired or not.
    func authorization(requestor: String, resource: String) -> StoredAuthorization? {
        stateLock.withLock { snapshot.requestors[requestor]?.authorizations[resource] }
    }

    /// Stores a media token, replacing the previous one for the same requestor and resource.
    func setAuthorization(_ authorization: StoredAuthorization) {
        updateRecord(of: authorization.requestor) { record in
            record.authorizations[authorization.resource] = authorization
        }
    }

    /// Removes the media token of `resource`.
    func removeAuthorization(requestor: String, resource: String) {
        updateRecord(of: requestor) { record in
            record.authorizations[resource] = nil
        }
    }

    // MARK: - Preauthorizations

    /// The cached preauthorization answers of `requestor`, by resource.
    func preauthorizations(requestor: String) -> [String: StoredPreauthorization] {
        stateLock.withLock { snapshot.requestors[requestor]?.preauthorizations ?? [:] }
    }

    /// Replaces the whole preauthorization cache of `requestor` (merge before calling to keep entries).
    func setPreauthorizations(requestor: String, _ preauthorizations: [String: StoredPreauthorization]) {
        updateRecord(of: requestor) { record in
            record.preauthorizations = preauthorizations
        }
    }

    // MARK: - Everything

    /// Removes every stored value except the device identifier.
    func clearAll() {
        let (requestors, change) = stateLock.withLock {
            let requestors = Array(snapshot.requestors.keys)
            snapshot = StorageSnapshot(identity: identity)
            return (requestors, nextChange())
        }
        persist(
            nil as StoredClientCredentials?, kind: StorageLayout.Kind.clientCredentials, file: StorageLayout.clientCredentialsFile,
            subject: "the registered client (DCR client credentials)", change: change)
        persist(nil as StoredAccessToken?, kind: StorageLayout.Kind.accessToken, file: StorageLayout.accessTokenFile, subject: "the access token", change: change)
        for requestor in requestors {
            persist(
                nil as RequestorRecord?, kind: StorageLayout.Kind.requestor, file: StorageLayout.requestorFile(requestor),
                subject: "the sign-in of \(requestor)", change: change)
        }
    }

    // MARK: - Write-through

    /// Applies `change` to `requestor`'s record in memory, then writes (or, once empty, deletes) its file.
    private func updateRecord(of requestor: String, _ change: (inout RequestorRecord) -> Void) {
        let (record, number) = stateLock.withLock {
            var record = snapshot.requestors[requestor] ?? RequestorRecord(requestor: requestor)
            change(&record)
            snapshot.requestors[requestor] = record.isEmpty ? nil : record
            return (record.isEmpty ? nil : record, nextChange())
        }
        persist(
            record, kind: StorageLayout.Kind.requestor, file: StorageLayout.requestorFile(requestor),
            subject: "the sign-in of \(requestor)", change: number)
    }

    /// Must be called with `stateLock` held.
    private func nextChange() -> UInt64 {
        changeCounter += 1
        return changeCounter
    }

    // MARK: - Batches

    /// Holds the writes behind the caller: changes made until the matching
    /// ``releaseWrites()`` gather into one batch. Holds nest.
    func holdWrites() {
        stateLock.withLock { holds += 1 }
    }

    /// Ends a hold; the changes gathered stay pending until ``commitPendingWrites()`` (the
    /// engine commits them once the call's callbacks are delivered).
    func releaseWrites() {
        stateLock.withLock { holds = max(0, holds - 1) }
    }

    /// Whether changes wait for ``commitPendingWrites()``.
    var hasPendingWrites: Bool { stateLock.withLock { !pending.isEmpty } }

    /// Hands the pending changes to the committer as one batch.
    func commitPendingWrites() {
        // Submitted under the lock: batches of this store reach the committer in the order
        // their changes were made.
        stateLock.withLock {
            guard !pending.isEmpty else { return }
            StorageCommitter.shared.submit(makeBatch(pending))
            pending = []
        }
    }

    /// Blocks until every change made so far is on disk.
    func flush() {
        commitPendingWrites()
        StorageCommitter.shared.waitUntilWritten(directoryKey)
    }

    /// `true` while a change is still on its way to disk.
    var hasQueuedWrites: Bool {
        hasPendingWrites || StorageCommitter.shared.hasUnwritten(directoryKey)
    }

    /// A batch of `changes`. Must be called with `stateLock` held.
    private func makeBatch(_ changes: [(change: UInt64, file: StorageBatch.Change)]) -> StorageBatch {
        let numbers = changes.map { (name: $0.file.file.lastPathComponent, change: $0.change) }
        return StorageBatch(
            directory: statementDirectory, directoryKey: directoryKey, createDirectory: !directoryExists, changes: changes.map(\.file),
            system: system, lock: directoryLock,
            failed: { [self] failure, fileName in
                stateLock.withLock { problem = "could not save \(fileName): \(failure.message)" }
                onProblem(failure)
            },
            written: { [self] outcome in
                stateLock.withLock {
                    if outcome.directoryExists { directoryExists = true }
                    for (name, change) in numbers {
                        if let newest = outstanding[name], newest <= change { outstanding[name] = nil }
                        guard let committed = outcome.committed[name] else { continue }
                        signatures[name] = committed
                    }
                    // Nobody else changed the directory since this store last looked: what
                    // this batch wrote is what it holds, so nothing needs reloading.
                    if let generation = outcome.generation {
                        _ = seenGeneration.compareExchange(expected: generation.before, desired: generation.after, ordering: .acquiringAndReleasing)
                    }
                }
            })
    }

    // MARK: - Other stores over the directory

    /// Takes in what other stores over the same directory (other AccessEnablers, in this
    /// process or another) wrote since this store last looked. Costs one load from shared
    /// memory when nothing changed; otherwise the changed record files are read again under
    /// the directory's lock. Call it between two calls of the app (the engine's turn), not
    /// while a flow is reading the store.
    func refreshIfChanged() {
        guard let lock = directoryLock, lock.generation != seenGeneration.load(ordering: .acquiring) else { return }
        reloadChangedFiles(lock)
    }

    private func reloadChangedFiles(_ lock: StorageDirectoryLock) {
        let loader = StorageLoader(directory: statementDirectory, integrityCheck: integrityCheck, now: now(), system: system)
        let discards: [StorageDiscard] = lock.withExclusiveLock {
            let generation = lock.generation
            let onDisk = Self.signatures(in: statementDirectory)
            let (known, busy) = stateLock.withLock { (signatures, Set(outstanding.keys)) }
            let changed = onDisk.filter { known[$0.key] != $0.value && !busy.contains($0.key) }
            let gone = known.keys.filter { onDisk[$0] == nil && !busy.contains($0) }
            var read: [String: Result<StorageRecord, StorageFileProblem>] = [:]
            for name in changed.keys { read[name] = loader.reload(name, protection: protection) }
            var discards: [StorageDiscard] = []
            stateLock.withLock {
                for name in gone where outstanding[name] == nil {
                    apply(.absent, fileName: name)
                    signatures[name] = nil
                }
                for (name, result) in read where outstanding[name] == nil {
                    switch result {
                    case .success(let record):
                        apply(record, fileName: name)
                    case .failure(let reason):
                        // Not usable here (another store's damage, or an identity this one
                        // does not share): what this store held of it goes, the file stays.
                        apply(.absent, fileName: name)
                        discards.append(
                            StorageDiscard(
                                scope: .file, path: statementDirectory.appendingPathComponent(name).path,
                                subject: StorageDiscard.subject(ofFile: name), reason: reason.description))
                    }
                    signatures[name] = changed[name]
                }
                seenGeneration.store(generation, ordering: .releasing)
            }
            return discards
        }
        for discard in discards {
            stateLock.withLock { problem = discard.message }
            onDiscard(discard)
        }
    }

    /// Puts `record`, read from the file `fileName`, in place of what memory held for that
    /// file. Must be called with `stateLock` held.
    private func apply(_ record: StorageRecord, fileName: String) {
        switch record {
        case .clientCredentials(let credentials):
            snapshot.clientCredentials = credentials
        case .accessToken(let token):
            snapshot.accessToken = token
        case .requestor(let record):
            snapshot.requestors[record.requestor] = record.isEmpty ? nil : record
        case .serviceProviderClient(let client):
            snapshot.serviceProviderClients[client.baseURL] = client
        case .absent:
            switch fileName {
            case StorageLayout.clientCredentialsFile: snapshot.clientCredentials = nil
            case StorageLayout.accessTokenFile: snapshot.accessToken = nil
            case _ where StorageLayout.isServiceProviderFile(fileName):
                if let url = snapshot.serviceProviderClients.keys.first(where: { StorageLayout.serviceProviderFile($0) == fileName }) {
                    snapshot.serviceProviderClients[url] = nil
                }
            default:
                if let requestor = snapshot.requestors.keys.first(where: { StorageLayout.requestorFile($0) == fileName }) {
                    snapshot.requestors[requestor] = nil
                }
            }
        }
    }

    /// The signature of every record file in `directory`, by name.
    private static func signatures(in directory: URL) -> [String: FileSignature] {
        var found: [String: FileSignature] = [:]
        let base = directory.path
        for name in StorageFileSystem.fileNames(in: directory) where StorageLayout.isClearableFile(name) {
            if let signature = FileSignature(path: base + "/" + name) { found[name] = signature }
        }
        return found
    }

    /// The URL of the record file `name` in the statement directory.
    private func fileURL(_ name: String) -> URL {
        if let known = stateLock.withLock({ fileURLs[name] }) { return known }
        let url = statementDirectory.appendingPathComponent(name)
        stateLock.withLock { fileURLs[name] = url }
        return url
    }

    /// Records change number `change` of `file`: to `value`, or its deletion for nil.
    /// Writing behind, it joins the pending changes, replacing an earlier change of the same
    /// file, and goes to the committer at once unless a hold is on; otherwise it is written
    /// before this returns. Either way a version older than one already pending or written
    /// is dropped. Encoding (JSON and the integrity code) happens when the batch is written,
    /// off the caller's path. A failure is kept in ``lastError`` and told to `onProblem`.
    private func persist<Value: Encodable & Sendable>(
        _ value: Value?, kind: String, file: String, subject: String, change: UInt64,
        protection: StorageEnvelope.Protection? = nil, submit: Bool = true
    ) {
        guard isPersistent else { return }
        let url = fileURL(file)
        let protection = protection ?? self.protection
        let content: StorageBatch.Change.Content =
            value.map { value in
                .write { try StorageEnvelope.encode(value, kind: kind, protection: protection) }
            } ?? .delete
        let entry = (change: change, file: StorageBatch.Change(file: url, subject: subject, content: content))
        stateLock.withLock { outstanding[file] = max(outstanding[file] ?? 0, change) }
        guard writeBehind else {
            // Written here and now, on the caller's thread, in the order of the changes.
            syncWriteLock.withLock {
                if let written = writtenChange[file], written > change { return }
                writtenChange[file] = change
                let batch = stateLock.withLock { makeBatch([entry]) }
                StorageBatchWriter.write([batch])
            }
            return
        }
        let submitNow: Bool = stateLock.withLock {
            if let existing = pending.first(where: { $0.file.file == url }), existing.change > change { return false }
            pending.removeAll { $0.file.file == url }
            pending.append(entry)
            return submit && holds == 0
        }
        if submitNow { commitPendingWrites() }
    }
}
