import AccessEnablerScenarios
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Benchmark {
    /// The machine and build the figures come from.
    public struct Machine: Sendable, Equatable {
        /// Processors available to this process (`nproc`).
        public var processors: Int
        /// The kernel's machine name (`uname -m`).
        public var architecture: String
        /// The CPU model from `/proc/cpuinfo`, or `"unknown"`.
        public var cpuModel: String
        /// Memory the kernel reports (`MemTotal` in `/proc/meminfo`), in GiB, or `nil`.
        public var memoryGiB: Double?
        /// `"release"` or `"debug"`: how the benchmark was compiled.
        public var build: String
        /// The 1-minute load average when the run started (other work on the same cores
        /// makes CPU and wall times noisier).
        public var loadAverage: Double?

        /// Describes the machine this process runs on.
        public static var current: Machine {
            #if DEBUG
            let build = "debug"
            #else
            let build = "release"
            #endif
            return Machine(
                processors: ProcessInfo.processInfo.activeProcessorCount, architecture: unameMachine(),
                cpuModel: cpuModelName(),
                memoryGiB: totalMemoryGiB(), build: build, loadAverage: oneMinuteLoad())
        }

        /// One line: `2 × x86_64 (AMD EPYC), 24 GiB, release build, load 0.52 at start`.
        public var summary: String {
            "\(processors) × \(architecture) (\(cpuModel))" + (memoryGiB.map { String(format: ", %.0f GiB", $0) } ?? "")
                + ", \(build) build"
                + (loadAverage.map { String(format: ", load %.2f at start", $0) } ?? "")
        }

        var jsonValue: BenchmarkJSON {
            .object([
                ("processors", .number(Double(processors))),
                ("architecture", .string(architecture)),
                ("cpuModel", .string(cpuModel)),
                ("memoryGiB", memoryGiB.map(BenchmarkJSON.number) ?? .null),
                ("build", .string(build)),
                ("loadAverage", loadAverage.map(BenchmarkJSON.number) ?? .null),
            ])
        }

        private static func unameMachine() -> String {
            var names = utsname()
            guard uname(&names) == 0 else { return "unknown" }
            return withUnsafeBytes(of: &names.machine) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }

        static func oneMinuteLoad() -> Double? {
            guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
            return text.split(separator: " ").first.flatMap { Double($0) }
        }

        private static func totalMemoryGiB() -> Double? {
            guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
                return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 / 1_048_576 }
            }
            return nil
        }

        private static func cpuModelName() -> String {
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return "unknown"
        }
    }
}

/// What the benchmark reads about its own process: CPU time, monotonic time, memory.
enum ProcessMetrics {
    /// CPU time used so far by every thread of this process, in seconds
    /// (`CLOCK_PROCESS_CPUTIME_ID`).
    static func cpuSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// A monotonic clock reading in seconds.
    static func wallSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// A field of `/proc/self/status` in KiB (`VmRSS`, `VmHWM`), or `nil` when unreadable.
    static func statusKiB(_ field: String) -> Double? { statusNumber(field) }

    /// The number a field of `/proc/self/status` starts with (`Threads`, `VmRSS`), or `nil`.
    static func statusNumber(_ field: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")
                .first
            return digits.flatMap { Double($0) }
        }
        return nil
    }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim(0)`, looked up at
    /// run time: it is not in the Swift module map), so a memory baseline read next holds
    /// what is in use rather than what an earlier phase freed.
    static func returnFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Resets the peak resident set size (`VmHWM`) to the current one, so a later reading
    /// measures one phase only. Returns `false` when the kernel refuses.
    @discardableResult
    static func resetPeakResidentSize() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }
}

/// Order statistics of a sample.
struct Sample: Sendable {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    var count: Int { values.count }

    /// The median (mean of the two middle values for an even count); `nil` when empty.
    var median: Double? { percentile(50) }

    /// The `p`-th percentile by nearest rank; `nil` when empty.
    func percentile(_ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        if p == 50 {
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}
