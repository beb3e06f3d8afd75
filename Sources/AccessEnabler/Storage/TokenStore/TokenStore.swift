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
///
/// **Where it is written.** This file holds the store's state and its opening (the load
/// path); the folder splits the rest by role: `TokenStore+Credentials.swift` and
/// `TokenStore+RequestorRecords.swift` the surface for each kind of record,
/// `TokenStore+CommitPoints.swift` when changes go to disk, `TokenStore+Write.swift` the
/// writer, `TokenStore+OtherWriters.swift` the reads of other writers' versions
/// (``refreshIfChanged()``); ``PendingChanges`` keeps the commit policy's bookkeeping and
/// ``StoreFileMerge`` decides what another writer's version changes. The state below is
/// internal only so those extensions reach it: nothing outside this folder touches it.
final class TokenStore: @unchecked Sendable {
    /// The directory holding this software statement's files.
    let statementDirectory: URL
    /// The device identifier as requests read it (see ``DeviceIdentity``): settled once this
    /// store has claimed a new device's identity, before any request carries it.
    let deviceIdentity: DeviceIdentity
    /// What the storage thread counts this directory's jobs under.
    let directoryKey: String
    let storeFile: URL
    /// `storeFile`'s path, made once: every call compares the file's signature, and making
    /// the path from the `URL` each time cost more than the `stat` itself.
    let storeFilePath: String
    let identityFile: URL

    let integrityCheck: IntegrityCheckType
    /// Whether this store keeps anything on disk: `false` when nothing could keep the
    /// device identity, or when the location was refused (``StorageLocationCheck``) —
    /// at opening or at the first write. Guarded by `stateLock`.
    var isPersistent: Bool
    /// Whether the store's directory was found there and trusted (``StorageLocationCheck``):
    /// until it is, nothing is read from it. Guarded by `stateLock`.
    var locationVerified: Bool
    let writeBehind: Bool
    let system: StorageSystem
    let onProblem: @Sendable (StorageProblem) -> Void
    let onDiscard: @Sendable (StorageDiscard) -> Void
    let onNotice: @Sendable (String) -> Void
    /// The clock: media tokens and preauthorization answers that have ended are dropped
    /// when the store is read.
    let now: @Sendable () -> Date
    /// The SHA-256 of the device identifier the application configured, if it did.
    let configuredDeviceIdentifier: String?

    /// Serialises this store's writes and its reads of other writers' versions.
    let ioLock = NSLock()
    /// Guards everything below; held only for moments, never across a system call that waits.
    let stateLock = NSLock()
    var snapshot: StorageSnapshot {
        didSet { chosenProfiles = snapshot.requestors.mapValues(\.profile) }
    }
    /// Each requestor's chosen profile, kept beside ``snapshot`` as it changes: every
    /// checkAuthentication reads one, and reading it from the snapshot copies the whole record
    /// of its requestor. Guarded by `stateLock`.
    var chosenProfiles: [String: StoredProfile?] = [:]
    var problem: String?
    /// The version of `store.json` memory reflects (read or written by this store); `nil`
    /// when there was none.
    var seen: FileSignature?
    /// The changes memory holds that are not yet on disk, and which of them are urgent.
    var changes = PendingChanges()
    var identityWrite: StorageLoadResult.IdentityWrite?
    /// The `INTEGRITY_CHECK_ALL` operability check is still to be made.
    var probeWanted: Bool
    /// Files of the old layout, deleted once `store.json` is durable.
    var legacyFiles: [String]
    /// Whether this store has made sure its directory exists.
    var prepared = false
    /// Leftover temporary files may be there, to sweep at the first write.
    var sweepWanted = true
    /// The identity's data sync, left to ride with the next write's (or a flush): a device
    /// identity nothing durable refers to yet needs no sync of its own.
    var deferredSyncs: [StorageSyncThread.SyncRequest] = []
    /// How long callers may still wait for another process's lock, and whether the app was
    /// told it is held (``LockWaitBudget``).
    var lockBudget: LockWaitBudget
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
        onProblem: @escaping @Sendable (StorageProblem) -> Void = { _ in },
        onDiscard: @escaping @Sendable (StorageDiscard) -> Void = { _ in },
        onNotice: @escaping @Sendable (String) -> Void = { _ in },
        lockPatience: TimeInterval = StorageDirectoryLock.patience,
        now: @escaping @Sendable () -> Date
    ) {
        statementDirectory = StorageLayout.statementDirectory(in: directory, softwareStatement: softwareStatement)
        directoryKey = Self.key(for: statementDirectory)
        storeFile = statementDirectory.appendingPathComponent(StorageLayout.storeFile, isDirectory: false)
        storeFilePath = storeFile.path
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
        let configured = configuredDeviceIdentifier.flatMap {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : DeviceIdentifier.hashed($0)
        }
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
                "storage unavailable (\(obstacle)): the device identifier cannot be saved, so one derived from this"
                    + " machine is used, and nothing will be kept after this launch",
            ].compactMap { $0 }.joined(separator: "; ")
            failures.append(StorageProblem(subject: "the device identifier", operation: .save, error: obstacle))
            persistent = false
        }
        isPersistent = persistent
        locationVerified = location == .trusted
        deviceIdentity = DeviceIdentity(fixed: result.snapshot.identity.deviceIdentifier)
        snapshot = result.snapshot
        chosenProfiles = snapshot.requestors.mapValues(\.profile)
        problem = result.notes
        seen = result.storeSignature
        identityWrite = result.identityWrite
        legacyFiles = result.legacyFiles
        probeWanted = persistent && integrityCheck == .INTEGRITY_CHECK_ALL
        // A directory that did not exist holds no leftovers to sweep.
        sweepWanted = result.directoryExisted
        if persistent { changes = PendingChanges(launchWipe: result.wipe, rewrite: result.rewrite) }
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
            return URL(fileURLWithPath: dataHome, isDirectory: true)
                .appendingPathComponent("accessenabler", isDirectory: true)
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
}
