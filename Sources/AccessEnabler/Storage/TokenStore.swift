import Foundation

/// The SDK's persistent state for one software statement: DCR client, access token, device
/// identifier, and per requestor the current profile, media tokens and preauthorization answers.
///
/// **Reading.** Everything is read once at creation (applying the ``IntegrityCheckType``, see
/// ``StorageLoader``) and then served from memory. Creating a store reads and writes nothing
/// else: no directory, lock file or identity is created before it is needed, so neither an
/// `AccessEnabler`'s creation nor its first request waits for the disk. A new device's
/// identity is drawn in memory and claimed on the storage thread at once (see
/// ``StorageSyncThread``): created under the directory's lock unless another first launch
/// created one meanwhile, which is then used instead — before any request carries it, since
/// the first request of a new device (the DCR registration) does not.
///
/// **Writing.** Every change updates memory at once; the store then holds everything but the
/// identity in one file, `store.json` (``StorageStoreFile``), replaced whole: one temporary
/// file, one rename, then the data sync. Changes wait for a commit point and go to disk
/// together, one write however many records changed:
/// - ``writeUrgentChanges()``: a sign-in or a logout (a change of a requestor's profiles) is
///   renamed into place on the caller's thread before the callback that announces it — from
///   then on another process reads it and a `kill -9` cannot lose it — and its data sync
///   follows at once on the storage thread, off the caller's path;
/// - ``commitPendingWrites()``: anything else (a media token, a renewed access token) is
///   written on the storage thread after the callbacks.
/// A store created with `writeBehind: false` (the storage tests) writes each change, durably,
/// before the call returns.
///
/// **Several stores over one directory** — AccessEnablers of one app, in one process or in
/// two (an app and its helper): a write holds the directory's lock
/// (``StorageDirectoryLock``), reads what others wrote since this store last looked, keeps
/// its own unwritten changes over it (they are newer) and renames the result into place, so
/// nobody's change is lost. ``refreshIfChanged()``, called at the start of each call, compares
/// `store.json`'s signature (one `stat`) with the version this store holds and only when it
/// differs reads it again — no lock, since a rename is atomic. A lock held by a stuck process
/// delays the calls by at most ``StorageDirectoryLock/patience`` in all (``LockWaitBudget``);
/// the change then stays in memory, is written as soon as the lock is free, and `onNotice`
/// says so.
///
/// **A location a stranger could touch** (``StorageLocationCheck``) is refused at opening, or
/// at the first write when the directory appeared meanwhile: nothing is read or written
/// there, `onProblem` hears why, and the store keeps everything in memory.
///
/// Problems never crash: a bad value is discarded (``lastError`` and `onDiscard` say what
/// happened); a write that fails (a full disk, a read-only directory, a directory in the
/// way) is told to `onProblem` as a ``StorageProblem``, and the value stays in memory. A store
/// that cannot be written is never taken for a damaged one.
///
/// Profiles, media tokens and preauthorizations hold only for the device identifier and the
/// DCR client they were obtained with (REST API V2 FAQ: profiles become invalid when the
/// `AP-Device-Identifier` or the client credentials change), so a new device identifier or
/// a new client id removes them all.
///
/// All methods are thread-safe.
final class TokenStore: @unchecked Sendable {
    /// The directory holding this software statement's files.
    let statementDirectory: URL
    /// The device identifier as requests read it (see ``DeviceIdentity``): settled once this
    /// store has claimed a new device's identity, before any request carries it.
    let deviceIdentity: DeviceIdentity
    /// What the storage thread counts this directory's jobs under.
    private let directoryKey: String
    private let storeFile: URL
    private let identityFile: URL

    private let integrityCheck: IntegrityCheckType
    /// Whether this store keeps anything on disk: `false` when nothing could keep the
    /// device identity, or when the location was refused (``StorageLocationCheck``) —
    /// at opening or at the first write. Guarded by `stateLock`.
    private var isPersistent: Bool
    /// Whether the store's directory was found there and trusted (``StorageLocationCheck``):
    /// until it is, nothing is read from it. Guarded by `stateLock`.
    private var locationVerified: Bool
    private let writeBehind: Bool
    private let system: StorageSystem
    private let onProblem: @Sendable (StorageProblem) -> Void
    private let onDiscard: @Sendable (StorageDiscard) -> Void
    private let onNotice: @Sendable (String) -> Void
    /// The clock: media tokens and preauthorization answers that have ended are dropped
    /// when the store is read.
    private let now: @Sendable () -> Date
    /// The SHA-256 of the device identifier the application configured, if it did.
    private let configuredDeviceIdentifier: String?

    /// Serialises this store's writes and its reads of other writers' versions.
    private let ioLock = NSLock()
    /// Guards everything below; held only for moments, never across a system call that waits.
    private let stateLock = NSLock()
    private var snapshot: StorageSnapshot
    private var problem: String?
    /// The version of `store.json` memory reflects (read or written by this store); `nil`
    /// when there was none.
    private var seen: FileSignature?
    /// Numbers the changes, in the order made.
    private var changeCounter: UInt64 = 0
    /// The records this store changed and has not yet put on disk, with the number of the
    /// latest change of each: memory's version wins over the disk's until it is written.
    private var unwritten: [StoredRecordKey: UInt64] = [:]
    /// A clear not yet on disk (its change number): nothing the disk held comes back.
    private var wipe: UInt64?
    /// A new client not yet on disk (its change number): no requestor record the disk held
    /// comes back (they were obtained with the old client).
    private var requestorsDropped: UInt64?
    /// Changes up to this number were handed to a write (written, or failed and reported).
    private var attemptedUpTo: UInt64 = 0
    /// A change of a requestor's profiles waits for ``writeUrgentChanges()``.
    private var urgent = false
    private var identityWrite: StorageLoadResult.IdentityWrite?
    /// The `INTEGRITY_CHECK_ALL` operability check is still to be made.
    private var probeWanted: Bool
    /// Files of the old layout, deleted once `store.json` is durable.
    private var legacyFiles: [String]
    /// Whether this store has made sure its directory exists.
    private var prepared = false
    /// Leftover temporary files may be there, to sweep at the first write.
    private var sweepWanted = true
    /// The identity's data sync, left to ride with the next write's (or a flush): a device
    /// identity nothing durable refers to yet needs no sync of its own.
    private var deferredSyncs: [StorageSyncThread.SyncRequest] = []
    /// How long callers may still wait for another process's lock, and whether the app was
    /// told it is held (``LockWaitBudget``).
    private var lockBudget: LockWaitBudget
    /// How long a write waits for another process's lock before this store goes on without
    /// it (``StorageDirectoryLock/patience``; tests give a longer one).
    let lockPatience: TimeInterval

    /// Opens the store of `softwareStatement` under `directory`: reads what it holds, and
    /// creates nothing.
    ///
    /// - Parameters:
    ///   - writeBehind: `false` writes each change, durably, before the call returns; `true`
    ///     waits for a commit point (``writeUrgentChanges()``, ``commitPendingWrites()``,
    ///     ``flush()``) and syncs on the storage thread.
    ///   - configuredDeviceIdentifier: the device identifier the application supplies
    ///     (`AccessEnablerConfiguration.deviceIdentifier`); its SHA-256 (see
    ///     ``DeviceIdentifier``) replaces the stored identifier. `nil`, empty or blank: the
    ///     stored (or a new) identifier is used.
    ///   - system: the file operations; tests pass failing ones.
    ///   - onProblem: told about every write or deletion that fails, with a sentence naming
    ///     the file and what to do. Called on the thread that writes; keep it short.
    ///   - onDiscard: told about every stored value found unusable and discarded (a corrupt
    ///     or tampered file, a store cleared by the integrity check), while the store opens
    ///     or reads another writer's version.
    ///   - onNotice: told when a write waits for a lock another process holds past its
    ///     patience (the change is kept in memory and written later).
    ///   - lockPatience: how long a write waits for another process's lock.
    ///   - now: the clock; media tokens and preauthorization answers that have ended are
    ///     dropped when the store is read.
    init(
        directory: URL, softwareStatement: String, integrityCheck: IntegrityCheckType, writeBehind: Bool = false,
        configuredDeviceIdentifier: String? = nil, system: StorageSystem = .posix,
        onProblem: @escaping @Sendable (StorageProblem) -> Void = { _ in }, onDiscard: @escaping @Sendable (StorageDiscard) -> Void = { _ in },
        onNotice: @escaping @Sendable (String) -> Void = { _ in }, lockPatience: TimeInterval = StorageDirectoryLock.patience,
        now: @escaping @Sendable () -> Date
    ) {
        statementDirectory = StorageLayout.statementDirectory(in: directory, softwareStatement: softwareStatement)
        directoryKey = Self.key(for: statementDirectory)
        storeFile = statementDirectory.appendingPathComponent(StorageLayout.storeFile, isDirectory: false)
        identityFile = statementDirectory.appendingPathComponent(StorageLayout.identityFile, isDirectory: false)
        self.integrityCheck = integrityCheck
        self.writeBehind = writeBehind
        self.system = system
        self.onProblem = onProblem
        self.onDiscard = onDiscard
        self.onNotice = onNotice
        self.lockPatience = lockPatience
        lockBudget = LockWaitBudget(patience: lockPatience)
        self.now = now
        let configured = configuredDeviceIdentifier.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : DeviceIdentifier.hashed($0) }
        self.configuredDeviceIdentifier = configured
        // Writes of an earlier store of this process over this directory land before this
        // one reads (nothing to wait for unless one was just released).
        StorageSyncThread.shared.waitUntilWritten(directoryKey)

        // Nothing is read from a directory another user could have planted or can change.
        let location = StorageLocationCheck.check(statementDirectory: statementDirectory)
        var loader = StorageLoader(
            directory: statementDirectory, integrityCheck: integrityCheck, now: now(),
            configuredDeviceIdentifier: configured)
        loader.readsFiles = location == .trusted
        var result = loader.load()
        var failures: [StorageProblem] = []
        var persistent = true
        if case .refused(let refusal) = location {
            // The session lives in memory for this process, under the identifier this
            // machine derives for the directory (the same at every launch).
            var identity = StoredIdentity.derived(statementDirectory: statementDirectory, machineID: system.machineID())
            if let configured { identity.deviceIdentifier = configured }
            result = StorageLoadResult(
                snapshot: StorageSnapshot(identity: identity), notes: refusal.message, directoryExisted: false)
            failures.append(StorageProblem(refusal: refusal))
            persistent = false
        } else if result.identityWrite == .claim, let obstacle = system.creationObstacle(identityFile) {
            // Nothing could keep a drawn identifier: derive one that every launch finds again,
            // and keep nothing.
            var identity = StoredIdentity.derived(statementDirectory: statementDirectory, machineID: system.machineID())
            if let configured { identity.deviceIdentifier = configured }
            result.snapshot = StorageSnapshot(identity: identity)
            result.identityWrite = nil
            result.notes = [
                result.notes,
                "storage unavailable (\(obstacle)): the device identifier cannot be saved, so one derived from this machine is used, and nothing will be kept after this launch",
            ].compactMap { $0 }.joined(separator: "; ")
            failures.append(StorageProblem(subject: "the device identifier", operation: .save, error: obstacle))
            persistent = false
        }
        isPersistent = persistent
        locationVerified = location == .trusted
        deviceIdentity = DeviceIdentity(fixed: result.snapshot.identity.deviceIdentifier)
        snapshot = result.snapshot
        problem = result.notes
        seen = result.storeSignature
        identityWrite = result.identityWrite
        legacyFiles = result.legacyFiles
        probeWanted = persistent && integrityCheck == .INTEGRITY_CHECK_ALL
        // A directory that did not exist holds no leftovers to sweep.
        sweepWanted = result.directoryExisted
        if persistent, result.wipe || !result.rewrite.isEmpty {
            changeCounter = 1
            if result.wipe { wipe = 1 }
            for record in result.rewrite { unwritten[record] = 1 }
        }
        if identityWrite == .claim { deviceIdentity.settle { [weak self] in self?.settleIdentity() } }
        for failure in failures { onProblem(failure) }
        for discard in result.discards { onDiscard(discard) }
        // What the launch must change on disk (a new identity, a clear, a discarded value,
        // the operability check) is done off the caller's path, at once — or, writing
        // through, before this returns.
        if hasPendingWrites {
            if writeBehind {
                commitPendingWrites()
            } else {
                write(patience: lockPatience, durableBeforeReturning: true)
            }
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

    /// The key a directory's jobs are counted under: its absolute path with `.`, `..` and
    /// repeated slashes resolved on the text (`standardizedFileURL` gives the same for the
    /// paths a store is given, at tens of microseconds a call).
    static func key(for directory: URL) -> String {
        var parts: [Substring] = []
        for part in directory.path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The last storage problem (a discarded value, a failed write, a cleared store), for a
    /// status message; nil when none happened.
    var lastError: String? {
        stateLock.withLock { problem }
    }

    /// Created once and kept across launches and every integrity check for this software
    /// statement and directory: 64 lowercase hex characters from 32 random bytes, or the
    /// SHA-256 of the identifier the application configured, or — when the store cannot
    /// keep it — derived from the machine (the same at every launch). On a new device the
    /// first read waits for the identity's claim (see ``DeviceIdentity``).
    var deviceIdentifier: String {
        deviceIdentity.value
    }

    /// Settles a new device's identity for its first reader: claims it here unless the
    /// storage thread has already, waiting at most ``lockPatience`` for
    /// another process's lock (past that, the drawn identifier stands for now).
    private func settleIdentity() {
        let outcome: WriteOutcome? = ioLock.withLock {
            guard stateLock.withLock({ identityWrite == .claim }) else { return nil }
            return performWrite(patience: lockPatience, onCallersPath: true, identityOnly: true)
        }
        if case .lockBusy(let since) = outcome { _ = noteLockBusy(since: since) }
        deviceIdentity.settled(as: stateLock.withLock { snapshot.identity.deviceIdentifier })
    }

    // MARK: - Client and access token

    var clientCredentials: StoredClientCredentials? {
        stateLock.withLock { snapshot.clientCredentials }
    }

    /// Stores the DCR client; nil removes it.
    ///
    /// A client with another client id than the stored one (a new registration after
    /// `application-registration` or `invalid_client`, or after the stored client was lost)
    /// removes every stored profile, media token and preauthorization: they were obtained
    /// with the old client and no longer hold. Returns the requestors whose sign-in went that
    /// way (those that had a profile), so the user can be told.
    @discardableResult
    func setClientCredentials(_ credentials: StoredClientCredentials?) -> [String] {
        let signedOut = stateLock.withLock { () -> [String]? in
            guard snapshot.clientCredentials != credentials else { return nil }
            var signedOut: [String] = []
            let change = nextChange()
            if let credentials, credentials.clientID != snapshot.clientCredentials?.clientID {
                signedOut = snapshot.requestors.values.filter { $0.profile != nil || $0.standby != nil }.map(\.requestor).sorted()
                for requestor in snapshot.requestors.keys { unwritten[.requestor(requestor)] = change }
                snapshot.requestors = [:]
                requestorsDropped = change
                urgent = urgent || !signedOut.isEmpty
            }
            snapshot.clientCredentials = credentials
            unwritten[.clientCredentials] = change
            return signedOut
        }
        guard let signedOut else { return [] }
        changed()
        return signedOut
    }

    var accessToken: StoredAccessToken? {
        stateLock.withLock { snapshot.accessToken }
    }

    /// Stores the access token; nil removes it.
    func setAccessToken(_ token: StoredAccessToken?) {
        let isChange: Bool = stateLock.withLock {
            guard snapshot.accessToken != token else { return false }
            snapshot.accessToken = token
            unwritten[.accessToken] = nextChange()
            return true
        }
        if isChange { changed() }
    }

    // MARK: - Extra service providers

    /// The client and token registered at the service provider `baseURL`, if any.
    func serviceProviderClient(baseURL: String) -> StoredServiceProviderClient? {
        stateLock.withLock { snapshot.serviceProviderClients[baseURL] }
    }

    /// Changes the client and token stored for the service provider `baseURL`.
    func updateServiceProviderClient(baseURL: String, _ change: (inout StoredServiceProviderClient) -> Void) {
        let isChange: Bool = stateLock.withLock {
            var record = snapshot.serviceProviderClients[baseURL] ?? StoredServiceProviderClient(baseURL: baseURL)
            change(&record)
            guard snapshot.serviceProviderClients[baseURL] != record else { return false }
            snapshot.serviceProviderClients[baseURL] = record
            unwritten[.serviceProviderClient(baseURL)] = nextChange()
            return true
        }
        if isChange { changed() }
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
    /// change of the requestor's record. A sign-in or a logout: written before its callback.
    func apply(_ change: ProfileChange, requestor: String) {
        updateRecord(of: requestor, urgent: true) { record in
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
    /// of the last sign-in (only a logout forgets it) and the configuration. Written before
    /// the callback that says so.
    func removeProfile(requestor: String) {
        updateRecord(of: requestor, urgent: true) { record in
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
        updateRecord(of: requestor, urgent: false) { record in record.configuration = configuration }
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
        updateRecord(of: authorization.requestor, urgent: false) { record in
            record.authorizations[authorization.resource] = authorization
        }
    }

    /// Removes the media token of `resource`.
    func removeAuthorization(requestor: String, resource: String) {
        updateRecord(of: requestor, urgent: false) { record in
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
        updateRecord(of: requestor, urgent: false) { record in
            record.preauthorizations = preauthorizations
        }
    }

    // MARK: - Everything

    /// Removes every stored value except the device identifier.
    func clearAll() {
        stateLock.withLock {
            let change = nextChange()
            for record in snapshot.recordKeys { unwritten[record] = change }
            snapshot = StorageSnapshot(identity: snapshot.identity)
            wipe = change
            urgent = true
        }
        changed()
    }

    /// Applies `change` to `requestor`'s record in memory; a change that changes nothing is none.
    private func updateRecord(of requestor: String, urgent isUrgent: Bool, _ change: (inout RequestorRecord) -> Void) {
        let isChange: Bool = stateLock.withLock {
            let before = snapshot.requestors[requestor]
            var record = before ?? RequestorRecord(requestor: requestor)
            change(&record)
            let after = record.isEmpty ? nil : record
            guard after != before else { return false }
            snapshot.requestors[requestor] = after
            unwritten[.requestor(requestor)] = nextChange()
            if isUrgent { urgent = true }
            return true
        }
        if isChange { changed() }
    }

    /// Must be called with `stateLock` held.
    private func nextChange() -> UInt64 {
        changeCounter += 1
        return changeCounter
    }

    /// A change was made in memory: written now when the store writes through, otherwise
    /// left for the next commit point.
    private func changed() {
        guard !writeBehind else { return }
        write(patience: lockPatience, durableBeforeReturning: true)
    }

    // MARK: - Commit points

    /// Whether changes (or the launch's own work) wait for a write.
    var hasPendingWrites: Bool {
        stateLock.withLock { isPersistent && (changeCounter > attemptedUpTo || identityWrite != nil || probeWanted) }
    }

    /// Writes the waiting changes now, on the caller's thread, when one of them is a
    /// sign-in or a logout: renamed into place before this returns (waiting at most
    /// ``lockPatience`` for another process's lock), made durable on the
    /// storage thread right after. The engine calls it before delivering an event's callbacks.
    func writeUrgentChanges() {
        guard writeBehind, stateLock.withLock({ urgent && isPersistent }) else { return }
        write(patience: lockPatience, durableBeforeReturning: false)
    }

    /// Hands the waiting changes to the storage thread, which writes them and makes them
    /// durable (the engine calls it once an event's callbacks are delivered).
    func commitPendingWrites() {
        guard hasPendingWrites else { return }
        StorageSyncThread.shared.submitWrite(of: self, key: directoryKey)
    }

    /// Blocks until every change made so far is on disk (or set aside while another process
    /// holds the directory's lock).
    func flush() {
        commitPendingWrites()
        StorageSyncThread.shared.waitUntilWritten(directoryKey)
        let deferred: [StorageSyncThread.SyncRequest] = ioLock.withLock {
            defer { deferredSyncs = [] }
            return deferredSyncs
        }
        guard !deferred.isEmpty else { return }
        StorageSyncThread.shared.submitSync(deferred, key: directoryKey)
        StorageSyncThread.shared.waitUntilWritten(directoryKey)
    }

    /// Runs `action` once every change made so far is on disk (or set aside while another
    /// process holds the directory's lock), holding no thread while it waits.
    func flush(then action: @escaping @Sendable () -> Void) {
        commitPendingWrites()
        StorageSyncThread.shared.whenWritten(directoryKey) { [self] in
            let deferred: [StorageSyncThread.SyncRequest] = ioLock.withLock {
                defer { deferredSyncs = [] }
                return deferredSyncs
            }
            guard !deferred.isEmpty else { return action() }
            StorageSyncThread.shared.submitSync(deferred, key: directoryKey)
            StorageSyncThread.shared.whenWritten(directoryKey, action)
        }
    }

    /// `true` while a change is still on its way to disk.
    var hasQueuedWrites: Bool {
        hasPendingWrites || StorageSyncThread.shared.hasUnwritten(directoryKey)
    }

    /// What a write on the storage thread came to.
    enum WriteOutcome {
        /// Nothing was waiting.
        case nothing
        /// Written (or failed and reported); these files still need their data sync.
        case written([StorageSyncThread.SyncRequest])
        /// Another process holds the directory's lock: try again later. `since` is when
        /// (uptime nanoseconds) it began to hold it against this store's writes — what a
        /// caller's write already waited included — so the storage thread knows when the
        /// wait has passed ``lockPatience``.
        case lockBusy(since: UInt64)
    }

    /// The storage thread's write of the waiting changes, waiting at most `patience` for the
    /// directory's lock.
    func writeBehind(patience: TimeInterval) -> WriteOutcome {
        let outcome = ioLock.withLock { performWrite(patience: patience, onCallersPath: false) }
        if case .lockBusy(let since) = outcome { return .lockBusy(since: noteLockBusy(since: since)) }
        return outcome
    }

    /// Writes the waiting changes on this thread: durably before returning, or leaving the
    /// data sync to the storage thread.
    private func write(patience: TimeInterval, durableBeforeReturning: Bool) {
        switch ioLock.withLock({ performWrite(patience: patience, onCallersPath: true) }) {
        case .nothing:
            break
        case .written(let requests):
            if durableBeforeReturning {
                for request in requests { Self.makeDurable(request) }
            } else {
                StorageSyncThread.shared.submitSync(requests, key: directoryKey)
            }
        case .lockBusy(let since):
            // The caller has waited what its budget allowed: the storage thread takes the write over,
            // and a flush no longer waits for it (the wait began that long ago).
            _ = noteLockBusy(since: since)
            StorageSyncThread.shared.submitWrite(of: self, key: directoryKey)
        }
    }

    private static func makeDurable(_ request: StorageSyncThread.SyncRequest) {
        do throws(StorageIOError) {
            try request.system.syncFiles([request.file])
            if let directory = request.createdIn { try request.system.syncDirectory(directory) }
            request.afterwards?()
        } catch {
            request.failed(error)
        }
    }

    /// Says once per episode that another process has held the lock against this store's
    /// writes for longer than ``lockPatience``, given when the attempt that
    /// found it busy began to wait (uptime nanoseconds). Returns when the episode began:
    /// the first such attempt's start.
    private func noteLockBusy(since attempt: UInt64) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let (since, say) = stateLock.withLock {
            (lockBudget.heldByAnother(since: attempt), lockBudget.shouldSay(at: now))
        }
        if say {
            onNotice(
                "Another process has held the storage lock (\(lockFilePath)) for more than \(Int(lockPatience)) s."
                    + " The SDK goes on from what it has in memory and writes its changes as soon as the lock is free;"
                    + " until then other processes do not see them, and calls no longer wait for the lock.")
        }
        return since
    }

    /// The directory's lock file, for messages.
    private var lockFilePath: String {
        statementDirectory.appendingPathComponent(StorageDirectoryLock.fileName).path
    }

    /// What the waits for the lock on callers' paths came to (``LockWaitBudget/Tally``).
    var lockWaitsOnCallersPaths: LockWaitBudget.Tally {
        stateLock.withLock { lockBudget.tally }
    }

    // MARK: - The write

    /// Writes what waits: the launch's work (the identity, the operability check), then this
    /// store's changes merged over what others wrote. Must be called with `ioLock` held.
    ///
    /// A write on a caller's path (`onCallersPath`) waits for another process's lock only as
    /// long as the caller's budget allows (``LockWaitBudget``); the storage thread's writes
    /// wait their own short `patience` and are tried again.
    private func performWrite(patience: TimeInterval, onCallersPath: Bool, identityOnly: Bool = false) -> WriteOutcome {
        var (wanted, upTo, identity, probe) = stateLock.withLock {
            (changeCounter > attemptedUpTo, changeCounter, identityWrite, probeWanted)
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
                        attemptedUpTo = upTo
                        identityWrite = nil
                        probeWanted = false
                        urgent = false
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
            report(StorageProblem(subject: "the device identifier", path: identityFile.path, operation: .save, cause: .init(errno: error.code)))
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
                let change = nextChange()
                for requestor in snapshot.requestors.keys { unwritten[.requestor(requestor)] = change }
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
            report(StorageProblem(subject: "a test file", path: target.path, operation: .save, cause: .init(errno: error.code)))
        }
    }

    /// Writes `store.json`: what others wrote since this store last looked, with this
    /// store's unwritten changes over it. Returns its sync request, `nil` when it failed
    /// (reported).
    private func writeStoreFile(upTo: UInt64) -> StorageSyncThread.SyncRequest? {
        var onDisk = FileSignature(path: storeFile.path)
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
                throw StorageIOError(operation: "encode", path: storeFile.path, code: EINVAL)
            }
            let written = try replace(storeFile, with: data, after: onDisk)
            let legacy: [URL] = stateLock.withLock {
                seen = written
                attemptedUpTo = max(attemptedUpTo, upTo)
                unwritten = unwritten.filter { $0.value > upTo }
                if let change = wipe, change <= upTo { wipe = nil }
                if let change = requestorsDropped, change <= upTo { requestorsDropped = nil }
                urgent = urgent && changeCounter > upTo
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
            stateLock.withLock {
                attemptedUpTo = max(attemptedUpTo, upTo)
                urgent = urgent && changeCounter > upTo
            }
            report(StorageProblem(subject: described.subject, path: storeFile.path, operation: described.operation, cause: .init(errno: error.code)))
            return nil
        }
    }

    /// Puts `data` in place of `file`: a temporary file, stamped later than `previous`, renamed
    /// over it. Returns the signature of the version written.
    @discardableResult
    private func replace(_ file: URL, with data: Data, after previous: FileSignature?) throws(StorageIOError) -> FileSignature? {
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
            failed: { [self] error in report(StorageProblem(subject: subject, path: file.path, operation: .save, cause: .init(errno: error.code))) })
    }

    /// What the changes made since the last write attempt are, in words, and whether they
    /// only remove. Must be called with `stateLock` held.
    private func subjects() -> (subject: String, operation: StorageProblem.Operation) {
        if let change = wipe, change > attemptedUpTo { return ("the stored sign-ins, client and token", .delete) }
        let records = unwritten.filter { $0.value > attemptedUpTo }.keys.sorted { $0.subject < $1.subject }
        let subject = records.isEmpty ? "the stored values" : records.map(\.subject).joined(separator: ", ")
        let removals = records.allSatisfy { !snapshot.recordKeys.contains($0) }
        return (subject, !records.isEmpty && removals ? .delete : .save)
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
            attemptedUpTo = changeCounter
            urgent = false
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
    private func locationMayBeRead() -> Bool {
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

    // MARK: - Other writers' versions

    /// Takes in what other stores over the same directory (other AccessEnablers, in this
    /// process or another) wrote since this store last looked. Costs one `stat` when
    /// nothing changed; otherwise `store.json` is read again (no lock: it is replaced whole,
    /// never written in place). Call it between two calls of the app (the engine's turn).
    func refreshIfChanged() {
        guard stateLock.withLock({ isPersistent }) else { return }
        let onDisk = FileSignature(path: storeFile.path)
        guard onDisk != stateLock.withLock({ seen }) else { return }
        ioLock.withLock {
            guard locationMayBeRead() else { return }
            let onDisk = FileSignature(path: storeFile.path)
            guard onDisk != stateLock.withLock({ seen }) else { return }
            takeIn(readStoreFile(), signature: onDisk)
        }
    }

    private func readStoreFile() -> (contents: Result<StorageStoreFile.Contents, StorageFileProblem>, signature: FileSignature?)? {
        StorageLoader.readStore(storeFile.path, key: stateLock.withLock { snapshot.identity.integrityKeyBytes }, integrityCheck: integrityCheck)
    }

    /// Puts another writer's version of `store.json` in place of what memory held, except
    /// for the records this store changed and has not written (they are newer). Must be
    /// called with `ioLock` held.
    private func takeIn(
        _ read: (contents: Result<StorageStoreFile.Contents, StorageFileProblem>, signature: FileSignature?)?, signature: FileSignature?
    ) {
        let date = now()
        let discards: [StorageDiscard] = stateLock.withLock {
            var discards: [StorageDiscard] = []
            var found = StorageStoreFile.Contents()
            switch read?.contents {
            case .none:
                break
            case .success(let contents):
                found = contents
                for (record, reason) in contents.unusable {
                    discards.append(StorageDiscard(scope: .file, path: storeFile.path, subject: record.subject, reason: reason.description))
                }
            case .failure(let reason):
                // Not usable here (another store's damage, or an identity this one does not
                // share): what this store held of it goes, the file stays.
                discards.append(
                    StorageDiscard(scope: .file, path: storeFile.path, subject: "the stored sign-ins, client and token", reason: reason.description))
            }
            var disk = StorageSnapshot(identity: snapshot.identity)
            StorageLoader.apply(found, to: &disk)
            disk.requestors = disk.requestors.mapValues { $0.droppingExpiredEntries(at: date) }
            for record in snapshot.recordKeys.union(disk.recordKeys) where unwritten[record] == nil {
                if wipe != nil { continue }
                if requestorsDropped != nil, case .requestor = record { continue }
                snapshot.take(record, from: disk)
            }
            seen = read?.signature ?? signature
            return discards
        }
        for discard in discards {
            stateLock.withLock { problem = discard.message }
            onDiscard(discard)
        }
    }
}

extension StorageSnapshot {
    /// Puts `other`'s version of `record` (or its absence) in place of this one's.
    fileprivate mutating func take(_ record: StoredRecordKey, from other: StorageSnapshot) {
        switch record {
        case .clientCredentials: clientCredentials = other.clientCredentials
        case .accessToken: accessToken = other.accessToken
        case .requestor(let requestor): requestors[requestor] = other.requestors[requestor]
        case .serviceProviderClient(let baseURL): serviceProviderClients[baseURL] = other.serviceProviderClients[baseURL]
        }
    }
}
