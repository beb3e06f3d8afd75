import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Samples, every few milliseconds on a thread of its own, how many file descriptors,
/// sockets and threads the process holds, and keeps the highest of each: what shows
/// whether a wave of devices came near a limit (`ulimit -n`, the server's connection cap,
/// the thread count).
final class ResourcePeaks: @unchecked Sendable {
    /// The highest counts seen.
    struct Peaks: Sendable, Equatable {
        var descriptors = 0
        var sockets = 0
        var threads = 0
    }

    private let lock = NSLock()
    private var running = false
    private var highest = Peaks()
    private let done = DispatchSemaphore(value: 0)

    /// The highest counts seen so far.
    var peaks: Peaks { lock.withLock { highest } }

    /// Starts sampling.
    func start() {
        lock.withLock { running = true }
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let now = Self.sample()
                lock.withLock {
                    highest.descriptors = max(highest.descriptors, now.descriptors)
                    highest.sockets = max(highest.sockets, now.sockets)
                    highest.threads = max(highest.threads, now.threads)
                }
                usleep(10_000)
            }
            done.signal()
        }
        thread.name = "benchmark.resource-peaks"
        thread.start()
    }

    /// Stops sampling and waits for the sampler to end.
    func stop() {
        lock.withLock { running = false }
        done.wait()
    }

    /// The process's soft limit on open file descriptors (`ulimit -n`), or `nil`.
    static var descriptorLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur == rlim_t.max ? nil : Int(limit.rlim_cur)
    }

    private static func sample() -> Peaks {
        var counts = Peaks()
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            counts.descriptors = entries.count
            for entry in entries {
                let target =
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? ""
                if target.hasPrefix("socket:") { counts.sockets += 1 }
            }
        }
        counts.threads = ProcessMetrics.statusNumber("Threads").map { Int($0) } ?? 0
        return counts
    }
}
