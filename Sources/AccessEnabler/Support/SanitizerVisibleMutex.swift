#if ACCESSENABLER_TSAN
/// Under the thread sanitizer only (built with `-Xswiftc -DACCESSENABLER_TSAN`), the
/// module's `Mutex` is an `NSLockedValue`, which shadows `Synchronization.Mutex`.
///
/// `Synchronization.Mutex` takes its lock inside the toolchain's runtime, which the sanitizer
/// does not instrument: it sees none of the ordering the lock gives and reports every access
/// the lock guards as a race. An `NSLock` is a pthread mutex, which the sanitizer intercepts,
/// so with this stand-in what it reports is a real race. Ordinary builds never compile this.
typealias Mutex<Value: Sendable> = NSLockedValue<Value>
#endif
