/// Which checks the SDK runs over its persistent storage when an `AccessEnabler` is created.
///
/// Pass it to `AccessEnabler(storageCheck:softwareStatement:configuration:)`; the other
/// initializers use ``INTEGRITY_CHECK_NONE``. The device identifier is never cleared by
/// any of these checks: it is how Adobe Pass finds the device's profiles, so it stays stable.
public enum IntegrityCheckType: Sendable {
    /// No check: stored values are trusted as they are read, and storage is never cleared.
    /// A file that cannot be read or parsed at all is still discarded on its own.
    /// The right choice while the SDK flows work as expected; this is the default.
    case INTEGRITY_CHECK_NONE
    /// Every check: the storage must be readable and writable and every stored value must be
    /// intact (format version, integrity code) and well-formed. If any check fails, all stored
    /// values are cleared and the user is signed out. Use it when storage corruption is suspected.
    case INTEGRITY_CHECK_ALL
    /// No check: the storage is cleared every time, so each launch starts signed out.
    /// Use it when the SDK flows cannot complete as expected with the stored state.
    case INTEGRITY_CHECK_CLEAR
}
