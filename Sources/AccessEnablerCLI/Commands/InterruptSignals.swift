import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs an action at the first SIGINT (Ctrl-C) or SIGTERM (a service manager's stop), once.
enum InterruptSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let lock = NSLock()

    /// Calls `action` on the first of the two signals.
    static func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        let once = Once(action)
        lock.withLock {
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { once.run() }
                source.resume()
                sources.append(source)
            }
        }
    }

    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var action: (@Sendable () -> Void)?
        init(_ action: @escaping @Sendable () -> Void) { self.action = action }
        func run() {
            let pending = lock.withLock {
                defer { action = nil }
                return action
            }
            pending?()
        }
    }
}
