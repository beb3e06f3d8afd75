import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells a store whether `store.json` may have changed since it last looked, so that a call
/// that finds nothing changed costs no system call (``TokenStore/refreshIfChanged()``).
///
/// Once the store's directory exists, the watch asks the kernel to notify the process's one
/// ``StoreChangeWatcher`` (inotify) of every rename, deletion or write in it; the watcher's
/// thread sets the flag when one touches `store.json`. A store of this process that writes
/// the file sets the flag of every other watch over the same directory itself, before its
/// callbacks, so neither waits for the watcher's thread. A watch that cannot be had (no
/// inotify, the per-user limit of watches reached, the directory not there yet) answers
/// "maybe" every time: the store then compares the file's signature (one `stat`) at each
/// call, as it did before there was a watch.
///
/// Another process's write is seen once the watcher's thread has read the kernel's notice,
/// which the rename itself wakes it for: the notice is queued before the other process's
/// `rename` returns, so it precedes that process's callbacks.
final class StoreChangeWatch: Sendable {
    /// Whether the file may have changed since ``mayHaveChanged()`` last said so.
    private let changed = Atomic<Bool>(true)
    /// Whether a kernel watch covers the directory: until then every question answers yes.
    private let armed = Atomic<Bool>(false)
    /// Whether arming was tried and failed for good (no inotify, no watch left).
    private let unavailable = Atomic<Bool>(false)
    /// The statement directory, as the watcher knows it.
    let directory: String
    private let watcher: StoreChangeWatcher

    /// A watch of `directory` (not armed yet: see ``arm()``).
    init(directory: String, watcher: StoreChangeWatcher = .shared) {
        self.directory = directory
        self.watcher = watcher
    }

    deinit {
        if armed.load(ordering: .relaxed) { watcher.remove(self) }
    }

    /// Whether `store.json` may have changed since the last `true`: a load and, when it
    /// did, a store. Clears the flag before answering yes, so a change made while the
    /// caller reads the file sets it again.
    func mayHaveChanged() -> Bool {
        guard armed.load(ordering: .acquiring) else { return true }
        guard changed.load(ordering: .acquiring) else { return false }
        changed.store(false, ordering: .releasing)
        return true
    }

    /// Asks the kernel to watch the directory, once it exists; a watch that cannot be had
    /// leaves the store on its `stat`. Idempotent; costs a system call the first time only.
    func arm() {
        guard !armed.load(ordering: .acquiring), !unavailable.load(ordering: .relaxed) else { return }
        guard watcher.add(self) else {
            unavailable.store(true, ordering: .relaxed)
            return
        }
        // What happened before the watch began is for the next question's `stat` to see.
        changed.store(true, ordering: .releasing)
        armed.store(true, ordering: .releasing)
    }

    /// The file may have changed (the watcher saw a notice, or a store of this process wrote it).
    func noteChange() {
        changed.store(true, ordering: .releasing)
    }

    /// This store wrote `store.json`: every watch of this process over the same directory
    /// (its own included) hears so at once.
    func noteWriteHere() {
        watcher.noteWrite(in: directory)
    }

    /// The kernel's watch ended (the directory was removed or renamed): back to the `stat`,
    /// and to a new watch once the store finds the directory again.
    func watchEnded() {
        armed.store(false, ordering: .releasing)
    }
}

/// The process's one inotify instance and the thread that reads it, for every
/// ``StoreChangeWatch``: started with the first watch, it sleeps in `read` until the kernel
/// has a notice, so it costs nothing while nothing changes.
final class StoreChangeWatcher: @unchecked Sendable {
    /// The process's watcher.
    static let shared = StoreChangeWatcher()

    /// The kernel's events this watcher asks for (`sys/inotify.h`): a file renamed in or out,
    /// deleted, or closed after writing; the directory itself deleted or renamed.
    private enum Event {
        static let closeWrite: UInt32 = 0x0000_0008
        static let movedFrom: UInt32 = 0x0000_0040
        static let movedTo: UInt32 = 0x0000_0080
        static let delete: UInt32 = 0x0000_0200
        static let deleteSelf: UInt32 = 0x0000_0400
        static let moveSelf: UInt32 = 0x0000_0800
        static let queueOverflow: UInt32 = 0x0000_4000
        static let ignored: UInt32 = 0x0000_8000
        static let onlyDirectory: UInt32 = 0x0100_0000
        static let watched = closeWrite | movedFrom | movedTo | delete | deleteSelf | moveSelf | onlyDirectory
    }

    /// The watches of one directory (stores of this process over the same directory share
    /// the kernel's watch).
    private struct Directory {
        var descriptor: Int32
        var watches: [ObjectIdentifier: Weak] = [:]
    }

    private struct Weak {
        weak var watch: StoreChangeWatch?
    }

    private struct State {
        /// The inotify instance: `nil` until the first watch, `-1` when it cannot be had.
        var instance: Int32?
        var byDirectory: [String: Directory] = [:]
        var byDescriptor: [Int32: String] = [:]
    }

    private let state = Mutex(State())

    /// Watches `watch`'s directory; `false` when no watch can be had.
    func add(_ watch: StoreChangeWatch) -> Bool {
        state.withLock { state in
            guard let instance = Self.instance(&state) else { return false }
            if var existing = state.byDirectory[watch.directory] {
                existing.watches[ObjectIdentifier(watch)] = Weak(watch: watch)
                state.byDirectory[watch.directory] = existing
                return true
            }
            let descriptor = inotify_add_watch(instance, watch.directory, Event.watched)
            guard descriptor >= 0 else { return false }
            if let other = state.byDescriptor[descriptor], other != watch.directory {
                // The same directory under another spelling: one kernel watch for both.
                state.byDirectory[other]?.watches[ObjectIdentifier(watch)] = Weak(watch: watch)
                return state.byDirectory[other] != nil
            }
            state.byDirectory[watch.directory] = Directory(
                descriptor: descriptor, watches: [ObjectIdentifier(watch): Weak(watch: watch)])
            state.byDescriptor[descriptor] = watch.directory
            return true
        }
    }

    /// Forgets `watch` (its store is gone); the kernel's watch goes with the last one.
    func remove(_ watch: StoreChangeWatch) {
        state.withLock { state in
            guard let instance = state.instance, instance >= 0 else { return }
            let key = ObjectIdentifier(watch)
            // Filed under its own directory, unless that directory was watched under another
            // spelling first: only then is every directory looked at (thousands of stores in
            // one process must not make each removal scan them all).
            let paths =
                state.byDirectory[watch.directory]?.watches[key] != nil
                ? [watch.directory] : state.byDirectory.keys.filter { state.byDirectory[$0]?.watches[key] != nil }
            for path in paths {
                guard var directory = state.byDirectory[path] else { continue }
                directory.watches[key] = nil
                directory.watches = directory.watches.filter { $0.value.watch != nil }
                if directory.watches.isEmpty {
                    _ = inotify_rm_watch(instance, directory.descriptor)
                    state.byDirectory[path] = nil
                    state.byDescriptor[directory.descriptor] = nil
                } else {
                    state.byDirectory[path] = directory
                }
            }
        }
    }

    /// A store of this process wrote `store.json` in `directory`: every watch over it hears
    /// so now, without waiting for the kernel's notice.
    func noteWrite(in directory: String) {
        let watches: [StoreChangeWatch] = state.withLock { state in
            state.byDirectory[directory].map { $0.watches.values.compactMap(\.watch) } ?? []
        }
        for watch in watches { watch.noteChange() }
    }

    /// The inotify instance, made (with its thread) on first use. Called under the lock.
    private static func instance(_ state: inout State) -> Int32? {
        if let instance = state.instance { return instance >= 0 ? instance : nil }
        let instance = inotify_init1(Int32(O_CLOEXEC))
        state.instance = instance
        guard instance >= 0 else { return nil }
        let thread = Thread { StoreChangeWatcher.shared.readNotices(from: instance) }
        thread.name = "AccessEnabler storage watch"
        thread.start()
        return instance
    }

    /// The watcher's thread: reads the kernel's notices and sets the flags they concern.
    private func readNotices(from instance: Int32) {
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(instance, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            var offset = 0
            while offset + 16 <= count {
                let descriptor = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let name =
                    nameLength > 0
                    ? Self.name(at: buffer + offset + 16, length: min(nameLength, count - offset - 16)) : nil
                handle(descriptor: descriptor, mask: mask, name: name)
                offset += 16 + nameLength
            }
        }
    }

    /// The NUL-padded name of a notice.
    private static func name(at start: UnsafeMutableRawPointer, length: Int) -> String {
        let bytes = UnsafeRawBufferPointer(start: start, count: length)
        return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? length)], as: UTF8.self)
    }

    private func handle(descriptor: Int32, mask: UInt32, name: String?) {
        let ended = mask & (Event.ignored | Event.deleteSelf | Event.moveSelf) != 0
        let watches: [StoreChangeWatch] = state.withLock { state in
            if mask & Event.queueOverflow != 0 {
                // Notices were lost: every store looks again.
                return state.byDirectory.values.flatMap { $0.watches.values.compactMap(\.watch) }
            }
            guard let path = state.byDescriptor[descriptor], let directory = state.byDirectory[path] else { return [] }
            if ended {
                // The directory went, or moved (the kernel's watch would follow it elsewhere):
                // its stores go back to their `stat` and watch again once they find it.
                if mask & Event.moveSelf != 0, let instance = state.instance {
                    _ = inotify_rm_watch(instance, descriptor)
                }
                state.byDirectory[path] = nil
                state.byDescriptor[descriptor] = nil
            }
            return directory.watches.values.compactMap(\.watch)
        }
        guard ended || name == StorageLayout.storeFile else { return }
        for watch in watches {
            if ended { watch.watchEnded() }
            watch.noteChange()
        }
    }
}
